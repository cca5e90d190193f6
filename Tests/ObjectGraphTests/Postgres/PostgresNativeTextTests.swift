import Foundation
import PostgresClient
import Testing

@testable import ObjectGraph

/// A plain `BEGINSWITH` of an ASCII prefix and a `.standard` string sort run in PostgreSQL as
/// byte comparisons, without reading the column's distinct values, and give the evaluator's
/// answers: combining marks, joiners and controls after the prefix, canonical equivalents of
/// the prefix, and sorted texts that are not NFC (then the fetch runs again, ranked).
@Suite("PostgreSQL store: strings compared and sorted natively")
struct PostgresNativeTextTests {
    typealias StatementLog = PostgresBatchingTests.StatementLog

    /// A fresh context on a new store holding a gadget of each name (nil: no name), with the
    /// store's statements logged to `log` (emptied).
    static func store(_ names: [String?], log: StatementLog) throws -> ManagedContext {
        let url = try TestPostgresServer.require().url(
            schema: TestPostgresServer.freshSchema("text"))
        let coordinator = StoreCoordinator(model: DifferentialDataSet.makeModel())
        try coordinator.addStore(type: .postgres, at: url, options: log.options)
        let context = ManagedContext(coordinator: coordinator)
        for name in names {
            let gadget = try context.insert("Gadget")
            if let name { try gadget.set(name, for: "name") }
        }
        try context.save()
        _ = log.takeSelects()
        return ManagedContext(coordinator: coordinator)
    }

    /// The names `format` fetches, sorted by `sort`.
    static func names(
        _ context: ManagedContext, _ format: String, sort: [ObjectGraph.SortDescriptor] = []
    ) throws -> [String?] {
        var request = FetchRequest(
            entityName: "Item", predicate: try ObjectGraph.Predicate(format: format))
        request.sortDescriptors = sort
        return try context.fetch(request).map { $0["name"] as String? }
    }

    /// `names` sorted as `descriptor` orders them, nil first in both directions (as the
    /// stores sort).
    static func sorted(_ names: [String?], _ descriptor: ObjectGraph.SortDescriptor) -> [String?] {
        names.sorted { a, b in
            guard let a else { return b != nil }
            guard let b else { return false }
            let order = descriptor.order(.string(a), .string(b))
            return descriptor.ascending ? order == .orderedAscending : order == .orderedDescending
        }
    }

    @Test("a plain BEGINSWITH and a plain sort are one statement reading no distinct values")
    func oneStatement() throws {
        let log = StatementLog()
        let names: [String?] = [
            "Joe", "Jack", "J", "Jürgen", "Jo", "j", "K", nil, "J\u{301}o", "日本", "\u{212A}elvin",
        ]
        let context = try Self.store(names, log: log)
        for ascending in [true, false] {
            let descriptor = ObjectGraph.SortDescriptor("name", ascending: ascending)
            let found = try Self.names(context, "name BEGINSWITH 'J'", sort: [descriptor])
            #expect(
                found
                    == (ascending
                        ? ["J", "Jack", "Jo", "Joe", "Jürgen"]
                        : ["Jürgen", "Joe", "Jo", "Jack", "J"]))
            let selects = log.takeSelects()
            #expect(selects.count == 1, "\(selects)")
            #expect(!selects.contains { $0.contains("DISTINCT") || $0.contains("unnest") })
        }
        let everything = try Self.names(context, "TRUEPREDICATE", sort: [.init("name")])
        #expect(everything.first == .some(nil))
    }

    @Test("a sorted text that may not be NFC: the fetch runs again, in the evaluator's order")
    func notNFC() throws {
        let log = StatementLog()
        let names: [String?] = ["Jorg", "Jo\u{308}rg", "Jözef", "Jp", "Jo\u{308}", nil, "Jo"]
        let context = try Self.store(names, log: log)
        for ascending in [true, false] {
            let descriptor = ObjectGraph.SortDescriptor("name", ascending: ascending)
            let expected = Self.sorted(
                names.filter { name in
                    guard let name else { return false }
                    return (try? StringMatching.match(name, .beginsWith, "J", options: [])) == true
                }, descriptor)
            if ascending {
                // Byte order would put "Jo\u{308}rg" before "Jp"; Swift orders it as "Jörg".
                let jp = try #require(expected.firstIndex(of: "Jp"))
                let decomposed = try #require(expected.firstIndex(of: "Jo\u{308}rg"))
                #expect(jp < decomposed)
            }
            #expect(try Self.names(context, "name BEGINSWITH 'J'", sort: [descriptor]) == expected)
            #expect(log.takeSelects().contains { $0.contains("DISTINCT") })
            let all = try Self.names(context, "TRUEPREDICATE", sort: [descriptor])
            #expect(all == Self.sorted(names, descriptor))
        }
    }

    @Test("BEGINSWITH agrees with the evaluator past joiners, controls and equivalents")
    func prefixes() throws {
        let log = StatementLog()
        let names: [String?] = [
            "J", "Jack", "J\u{301}ulia", "Jürgen", "J\u{1F600}", "K", "j", "Ja\u{301}", "J\u{7F}",
            "J\u{80}", "J\u{80}\u{301}", "J\u{7F}\u{301}", "I\u{10FFFF}", "Ja\u{93F}", "Ja",
            "Jo\u{200D}x", "Jo\u{200C}", "x\u{FE0F}", "x\u{1F3FD}", "x", "e\u{200D}x", "a\r\nb",
            "a\r", "\u{212A}a", "Ka", "Cafe\u{301}", "Cafe", "~\u{301}", "~~", " \u{301}", "  ",
            "1\u{20E3}", "a\u{E0100}", "a;b", "a\u{37E}b", "\u{1100}\u{1161}", "\u{AC00}", nil,
        ]
        let context = try Self.store(names, log: log)
        let prefixes = [
            "J", "Jo", "Ja", "x", "e", "a", " ", "~", "K", "a\r", "Cafe", "J\u{7F}", "1", "a;",
            "J\u{80}", "\u{1100}",
        ]
        for prefix in prefixes {
            let quoted = prefix.replacingOccurrences(of: "'", with: "\\'")
            let expected = names.filter { name in
                guard let name else { return false }
                return (try? StringMatching.match(name, .beginsWith, prefix, options: [])) == true
            }
            let found = try Self.names(context, "name BEGINSWITH '\(quoted)'")
            #expect(Set(found) == Set(expected), "BEGINSWITH \(prefix.debugDescription)")
            #expect(found.count == expected.count, "BEGINSWITH \(prefix.debugDescription)")
            let negated = try Self.names(context, "NOT name BEGINSWITH '\(quoted)'")
            #expect(negated.count == names.count - expected.count, "NOT \(prefix.debugDescription)")
            let native =
                prefix.unicodeScalars.allSatisfy { $0.value < 0x80 }
                && !prefix.contains("K") && !prefix.contains(";") && !prefix.contains("\r")
                && (0x20...0x7E).contains(prefix.unicodeScalars.last?.value ?? 0)
            let selects = log.takeSelects()
            if native {
                #expect(!selects.contains { $0.contains("DISTINCT") }, "\(prefix.debugDescription)")
            }
        }
    }

    @Test("the compiler writes both without a reader of column values; without UTF-8, refuses")
    func compiledWithoutValues() throws {
        let data = try DifferentialDataSet(seed: 1)
        var compiler = SQLQueryCompiler(
            layout: data.layout, model: data.model, storeIdentifier: "STORE", dialect: .postgres)
        let predicate = try ObjectGraph.Predicate(format: "name BEGINSWITH 'J' AND count > 3")
        func compile() throws -> CompiledQuery {
            try compiler.select(
                entity: "Item", includesSubentities: true, predicate: predicate,
                sortDescriptors: [.init("name")], offset: 0, limit: 100, columns: ["Z_PK"])
        }
        #expect(throws: SQLTranslationError.self) { try compile() }
        compiler.byteOrderCollation = " COLLATE \"C\""
        #expect(throws: SQLTranslationError.self) { try compile() }  // the sort is not checked
        compiler.checksTextOrder = true
        let query = try compile()
        #expect(query.textOrderColumn == 1)
        #expect(query.sql.contains("ORDER BY t0.\"ZNAME\" COLLATE \"C\" ASC NULLS FIRST"))
        #expect(query.sql.contains("OVER ()"))
        #expect(!query.sql.contains("unnest"))
    }
}
