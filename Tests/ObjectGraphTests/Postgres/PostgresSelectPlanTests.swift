import Foundation
import Testing

@testable import ObjectGraph

/// A PostgreSQL fetch's plan is compiled once and kept when its SQL depends on the query
/// alone; a plan built from a column's distinct values (a string comparison PostgreSQL cannot
/// answer as the evaluator does) is compiled again at every fetch, so it sees the values
/// written since.
@Suite("PostgreSQL store: fetch plans kept per query")
struct PostgresSelectPlanTests {
    typealias StatementLog = PostgresBatchingTests.StatementLog

    /// The names `format` fetches, sorted.
    static func names(_ context: ManagedContext, _ format: String) throws -> [String] {
        let request = FetchRequest<ManagedObject>(
            entityName: "Item", predicate: try ObjectGraph.Predicate(format: format))
        return try context.fetch(request).compactMap { $0["name"] as String? }.sorted()
    }

    /// How many fetch plans (or aggregate plans) the context's PostgreSQL store keeps.
    static func planCount(_ context: ManagedContext, aggregates: Bool = false) -> Int {
        context.coordinator.withStoresLocked { stores in
            stores.compactMap { store in
                (store as? PostgresStore).map {
                    aggregates ? $0.aggregatePlans.count : $0.selectPlans.count
                }
            }.reduce(0, +)
        }
    }

    @Test("a fetch reading distinct values compiles again and sees names saved since")
    func distinctValuesNotKept() throws {
        let log = StatementLog()
        let context = try PostgresNativeTextTests.store(["Joe", "Ann", "Jürgen"], log: log)
        let format = "name CONTAINS[cd] 'u'"
        #expect(try Self.names(context, format) == ["Jürgen"])
        #expect(log.takeSelects().contains { $0.hasPrefix("SELECT DISTINCT") })
        try context.insert("Gadget").set("Üwe", for: "name")
        try context.save()
        _ = log.takeSelects()
        #expect(try Self.names(context, format) == ["Jürgen", "Üwe"])
        #expect(log.takeSelects().contains { $0.hasPrefix("SELECT DISTINCT") })
    }

    @Test("a plan that reads no values is kept: the same fetch, with each query's own constants")
    func kept() throws {
        let log = StatementLog()
        let context = try PostgresNativeTextTests.store(["Joe", "Ann", "Jack"], log: log)
        #expect(try Self.names(context, "name BEGINSWITH 'J'") == ["Jack", "Joe"])
        let kept = Self.planCount(context)
        #expect(kept >= 1)
        #expect(try Self.names(context, "name BEGINSWITH 'J'") == ["Jack", "Joe"])
        #expect(Self.planCount(context) == kept)
        #expect(try Self.names(context, "name BEGINSWITH 'A'") == ["Ann"])
        #expect(Self.planCount(context) == kept + 1)
        try context.insert("Gadget").set("Jill", for: "name")
        try context.save()
        #expect(try Self.names(context, "name BEGINSWITH 'J'") == ["Jack", "Jill", "Joe"])
        #expect(try Self.names(context, "name CONTAINS[cd] 'a'") == ["Ann", "Jack"])
        #expect(Self.planCount(context) == kept + 1)
    }

    @Test("a limited fetch without an offset sends no OFFSET; one with an offset binds it")
    func offsetOnlyWhenAsked() throws {
        let log = StatementLog()
        let context = try PostgresNativeTextTests.store(["Joe", "Ann", "Jack", "Jill"], log: log)
        for (offset, limit, expected) in [
            (0, 2, ["Ann", "Jack"]), (1, 2, ["Jack", "Jill"]), (2, 0, ["Jill", "Joe"]),
        ] {
            var request = FetchRequest<ManagedObject>(
                entityName: "Item", sortDescriptors: [ObjectGraph.SortDescriptor("name")])
            request.fetchOffset = offset
            request.fetchLimit = limit
            #expect(try context.fetch(request).compactMap { $0["name"] as String? } == expected)
            let selects = log.takeSelects()
            #expect(selects.count == 1, "\(selects)")
            #expect(selects.allSatisfy { $0.contains("OFFSET") == (offset > 0) }, "\(selects)")
            #expect(selects.allSatisfy { $0.contains(limit > 0 ? "LIMIT $" : "LIMIT ALL") })
        }
    }

    @Test("an aggregate fetch's plan is kept too, and answers what the rows hold now")
    func aggregateKept() throws {
        let log = StatementLog()
        let context = try PostgresNativeTextTests.store(["a", "b"], log: log)
        var request = FetchRequest<ManagedObject>(entityName: "Item")
        request.propertiesToFetch = [.aggregate(.count, of: "name", as: "names")]
        #expect(try context.fetchDictionaries(request).first?["names"] == .integer(2))
        #expect(Self.planCount(context, aggregates: true) == 1)
        try context.insert("Gadget").set("c", for: "name")
        try context.save()
        #expect(try context.fetchDictionaries(request).first?["names"] == .integer(3))
        #expect(Self.planCount(context, aggregates: true) == 1)
    }
}
