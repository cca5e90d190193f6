import Foundation
import PostgresClient
import Testing

@testable import ObjectGraph

/// Plain string comparisons with constants, a plain `BEGINSWITH` of an ASCII prefix and a
/// `.standard` string sort run in PostgreSQL on the texts' NFC forms in byte order, without
/// reading the column's distinct values, and give the evaluator's answers: combining marks,
/// joiners and controls after the prefix, canonical equivalents, texts that are not NFC.
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

    @Test("texts that are not NFC sort in the evaluator's order, in one statement")
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
            let all = try Self.names(context, "TRUEPREDICATE", sort: [descriptor])
            #expect(all == Self.sorted(names, descriptor))
            let selects = log.takeSelects()
            #expect(selects.count == 2, "\(selects)")
            #expect(!selects.contains { $0.contains("DISTINCT") || $0.contains("OVER") })
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

    @Test("the benchmark's query compiles without a reader of column values and no window")
    func compiledWithoutValues() throws {
        let data = try DifferentialDataSet(seed: 1)
        var compiler = SQLQueryCompiler(
            layout: data.layout, model: data.model, storeIdentifier: "STORE", dialect: .postgres)
        let predicate = try ObjectGraph.Predicate(format: "count > 30 AND name BEGINSWITH 'J'")
        func compile() throws -> CompiledQuery {
            try compiler.select(
                entity: "Item", includesSubentities: true, predicate: predicate,
                sortDescriptors: [.init("name")], offset: 0, limit: 100, columns: ["Z_PK"])
        }
        #expect(throws: SQLTranslationError.self) { try compile() }  // not UTF-8: refused
        compiler.byteOrderCollation = " COLLATE \"C\""
        let query = try compile()
        #expect(
            query.sql.contains(
                "normalize(t0.\"ZNAME\", NFC) END) COLLATE \"C\" ASC NULLS FIRST, t0.\"Z_PK\""))
        #expect(query.sql.contains("normalize(t0.\"ZNAME\", NFC) END) COLLATE \"C\" >= ?)"))
        #expect(!query.sql.contains("OVER") && !query.sql.contains("bool_and"))
        #expect(!query.sql.contains("unnest"))
    }

    /// The names a store holds for the comparison tests: canonical equivalents apart only in
    /// normalization (decomposed and precomposed, the Angstrom and Kelvin signs, Hangul jamo
    /// and syllables), joiners, and nil.
    static let trickyNames: [String?] = [
        "e\u{301}", "\u{E9}", "e", "f", "\u{212B}", "\u{C5}", "A\u{30A}", "A", "B", "\u{212A}", "K",
        "k", "\u{1100}\u{1161}", "\u{AC00}", "\u{1100}", "\u{AC01}", "Jo\u{308}rg", "J\u{F6}rg",
        "Jorg", "Jp", "Jo\u{200D}x", "Jox", "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}",
        "\u{1F468}", "a\u{37E}b", "a;b", "q\u{323}\u{307}", "q\u{307}\u{323}", "\u{2126}",
        "\u{3A9}",
        "", "zeta", nil,
    ]

    @Test("==, !=, <, <=, >, >=, BETWEEN and IN with non-NFC texts: the evaluator's answers")
    func comparisons() throws {
        let log = StatementLog()
        let names = Self.trickyNames
        let context = try Self.store(names, log: log)
        let constants = names.compactMap { $0 } + ["\u{E5}", "a\u{30A}", "E\u{301}", "\u{1161}"]
        let operators: [(ComparisonOperator, String, (String, String) -> Bool)] = [
            (.equal, "==", { $0 == $1 }), (.notEqual, "!=", { $0 != $1 }),
            (.lessThan, "<", { $0 < $1 }), (.lessThanOrEqual, "<=", { $0 <= $1 }),
            (.greaterThan, ">", { $0 > $1 }), (.greaterThanOrEqual, ">=", { $0 >= $1 }),
        ]
        let ascending = ObjectGraph.SortDescriptor("name")
        var naiveWouldDiffer = 0
        func check(
            _ predicate: ObjectGraph.Predicate, _ holds: (String?) -> Bool,
            naive: (String) -> Bool
        ) throws {
            var request = FetchRequest(entityName: "Item", predicate: predicate)
            request.sortDescriptors = [ascending]
            let found = try context.fetch(request).map { $0["name"] as String? }
            #expect(found == Self.sorted(names.filter(holds), ascending), "\(predicate)")
            if names.contains(where: { $0.map { holds($0) != naive($0) } ?? false }) {
                naiveWouldDiffer += 1
            }
        }
        for constant in constants {
            for (op, symbol, swift) in operators {
                let predicate = ObjectGraph.Predicate.comparison(
                    Comparison(.keyPath(PredicateKeyPath("name")), op, .constant(.string(constant)))
                )
                try check(
                    predicate, { name in name.map { swift($0, constant) } ?? (op == .notEqual) },
                    naive: { Self.bytewise($0, symbol, constant) })
            }
            let other = constants[(constants.firstIndex(of: constant) ?? 0) * 7 % constants.count]
            let list = ObjectGraph.Predicate.comparison(
                Comparison(
                    .keyPath(PredicateKeyPath("name")), .in,
                    .aggregate([.constant(.string(constant)), .constant(.string(other))])))
            try check(
                list, { $0 == constant || $0 == other },
                naive: { Self.bytewise($0, "==", constant) || Self.bytewise($0, "==", other) })
            let (low, high) = constant < other ? (constant, other) : (other, constant)
            let between = ObjectGraph.Predicate.comparison(
                Comparison(
                    .keyPath(PredicateKeyPath("name")), .between,
                    .aggregate([.constant(.string(low)), .constant(.string(high))])))
            try check(
                between, { name in name.map { low <= $0 && $0 <= high } ?? false },
                naive: { Self.bytewise($0, ">=", low) && Self.bytewise($0, "<=", high) })
        }
        let selects = log.takeSelects()
        #expect(!selects.contains { $0.contains("DISTINCT") || $0.contains("unnest") })
        // A comparison of the raw bytes would have answered many of them differently.
        #expect(naiveWouldDiffer >= 50)
        for descending in [false, true] {
            let descriptor = ObjectGraph.SortDescriptor("name", ascending: !descending)
            #expect(
                try Self.names(context, "TRUEPREDICATE", sort: [descriptor])
                    == Self.sorted(names, descriptor))
        }
    }

    /// `a op b` on the raw UTF-8 bytes: what a comparison of the stored column would answer.
    static func bytewise(_ a: String, _ symbol: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        switch symbol {
        case "==": return x == y
        case "!=": return x != y
        case "<": return x.lexicographicallyPrecedes(y)
        case "<=": return !y.lexicographicallyPrecedes(x)
        case ">": return y.lexicographicallyPrecedes(x)
        default: return !x.lexicographicallyPrecedes(y)
        }
    }

    @Test(
        "a string attribute's fetch index is its NFC text, nil first, then Z_PK; its uniqueness is not"
    )
    func stringIndex() throws {
        let url = try TestPostgresServer.require().url(
            schema: TestPostgresServer.freshSchema("textindex"))
        var person = Entity(
            "Person",
            attributes: [
                Attribute("name", type: .string, isIndexed: true),
                Attribute("age", type: .integer32, isIndexed: true),
                Attribute("email", type: .string),
            ])
        person.uniquenessConstraints = [["email"]]
        let coordinator = StoreCoordinator(model: EntityModel(entities: [person]))
        try coordinator.addStore(type: .postgres, at: url)
        let connection = try PostgresDifferentialStore.connect(url)
        let definitions = try connection.execute(
            "SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema()"
                + " AND tablename = 'ZPERSON' ORDER BY indexname"
        ).rows.compactMap { $0.text(0) }
        #expect(
            definitions.contains {
                $0.contains("NORMALIZE(\"ZNAME\", NFC)") && $0.contains("octet_length")
                    && $0.hasSuffix("NULLS FIRST, \"Z_PK\")")
            },
            "\(definitions)")
        // Each fetch index ends in Z_PK, as a sorted fetch's ORDER BY does.
        #expect(
            definitions.contains { $0.contains("(\"ZAGE\" NULLS FIRST, \"Z_PK\")") },
            "\(definitions)")
        #expect(definitions.contains { $0.contains("UNIQUE") && $0.contains("(\"ZEMAIL\")") })
        // The store works: a fetch by name finds it, sorted, through the index's expression.
        let context = ManagedContext(coordinator: coordinator)
        for name in ["A\u{30A}ngstr\u{F6}m", "\u{212B}ngstr\u{F6}m", "Bob"] {
            try context.insert("Person").set(name, for: "name")
        }
        try context.save()
        var request = FetchRequest(
            entityName: "Person",
            predicate: try ObjectGraph.Predicate(format: "name == '\u{C5}ngstr\u{F6}m'"))
        request.sortDescriptors = [.init("name")]
        #expect(try context.fetch(request).count == 2)
    }
}
