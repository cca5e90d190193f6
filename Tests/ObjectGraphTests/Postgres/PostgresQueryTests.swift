import Foundation
import PostgresClient
import Testing

@testable import ObjectGraph

/// Fetches, counts and sorts that PostgreSQL answers in SQL, checked against values the
/// generated data does not hold: integers past 2^53 against doubles, NaN, nil ordering.
@Suite("PostgreSQL store: queries in SQL")
struct PostgresQueryTests {
    /// A store of the differential model holding three gadgets.
    static func store(at url: URL? = nil) throws -> ManagedContext {
        let url =
            try url
            ?? TestPostgresServer.require().url(
                schema: TestPostgresServer.freshSchema("query"))
        let coordinator = StoreCoordinator(model: DifferentialDataSet.makeModel())
        try coordinator.addStore(type: .postgres, at: url)
        let context = ManagedContext(coordinator: coordinator)
        let rows: [(big: Int64?, amount: Double?, name: String?)] = [
            (9_007_199_254_740_993, .nan, "cafe\u{301}"),
            (1, 2.5, "café"),
            (nil, nil, nil),
            (-3, -1, "CAFE"),
        ]
        for row in rows {
            let gadget = try context.insert("Gadget")
            if let big = row.big { try gadget.set(big, for: "big") }
            if let amount = row.amount { try gadget.set(amount, for: "amount") }
            if let name = row.name { try gadget.set(name, for: "name") }
        }
        try context.save()
        return context
    }

    @Test("numbers compare exactly, NaN matches no comparison, strings fold as in Swift")
    func exactComparisons() throws {
        let context = try Self.store()
        let cases: [(String, Int)] = [
            ("big == 9007199254740992.0", 0),
            ("big > 9007199254740992.0", 1),
            ("big >= 9007199254740993", 1),
            ("big < 2.5", 2),
            ("big <= -3.5", 0),
            ("amount > 0", 1),
            ("amount != 2.5", 3),
            ("amount == amount", 3),
            ("amount < 9007199254740993", 2),
            ("name ==[cd] 'cafe'", 3),
            ("name == 'café'", 2),
            ("name BEGINSWITH 'cafe'", 0),
            ("name LIKE[c] 'caf?'", 3),
            ("name MATCHES '.*\u{301}'", 1),
            ("name != 'CAFE'", 3),
        ]
        for (format, expected) in cases {
            var request = FetchRequest(entityName: "Item")
            request.predicate = try Predicate(format: format)
            let explanation = try context.explain(request)
            #expect(explanation.runsInSQL, "\(format): \(explanation)")
            #expect(try context.count(for: request) == expected, "\(format)")
            #expect(try context.fetch(request).count == expected, "\(format)")
        }
    }

    @Test("nil sorts first in both directions; strings sort by the descriptor's comparison")
    func sorting() throws {
        let context = try Self.store()
        for ascending in [true, false] {
            var request = FetchRequest(entityName: "Item")
            request.sortDescriptors = [
                SortDescriptor("name", ascending: ascending, comparison: .localized),
                SortDescriptor("big", ascending: ascending),
            ]
            #expect(try context.explain(request).runsInSQL)
            let names = try context.fetch(request).map { $0["name"] as String? }
            let bigs = try context.fetch(request).map { $0["big"] as Int64? }
            #expect(names.first == .some(nil))
            // The three names are equal under .localized: sorted by big next.
            #expect(
                Array(bigs.dropFirst())
                    == (ascending
                        ? [-3, 1, 9_007_199_254_740_993] : [9_007_199_254_740_993, 1, -3]))
        }
    }

    @Test("arithmetic and string methods are evaluated in memory, with the same answer")
    func inMemory() throws {
        let context = try Self.store()
        var request = FetchRequest(entityName: "Item")
        request.predicate = try Predicate(format: "big * 2 > 1 OR name.uppercaseString == 'CAFE'")
        let explanation = try context.explain(request)
        #expect(!explanation.runsInSQL)
        #expect(try context.count(for: request) == 3)
    }

    @Test("string tests read the column's values and run in one REPEATABLE READ snapshot")
    func snapshot() throws {
        let url = try TestPostgresServer.require().url(
            schema: TestPostgresServer.freshSchema("snap"))
        let context = try Self.store(at: url)
        let connection = try PostgresDifferentialStore.connect(url)
        let values = PostgresDistinctTexts(connection: connection)
        #expect(try values.distinctTexts(table: "ZITEM", column: "ZNAME", limit: 10).count == 3)
        #expect(connection.isInsideTransaction)
        let level = try connection.execute("SHOW transaction_isolation").rows.first?.string(0)
        #expect(level == "repeatable read")
        try values.finish(commit: true)
        #expect(!connection.isInsideTransaction)
        // The store ends its snapshot after the fetch: a save afterwards commits.
        var request = FetchRequest(entityName: "Item")
        request.predicate = try Predicate(format: "name ==[cd] 'cafe'")
        #expect(try context.fetch(request).count == 3)
        try context.insert("Widget").set("zeta", for: "name")
        try context.save()
        let rows = try connection.execute("SELECT count(*) FROM \"ZITEM\"").rows.first?.int64(0)
        #expect(rows == 5)
    }
}
