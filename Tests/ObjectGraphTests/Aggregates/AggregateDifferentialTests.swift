import Foundation
import Testing

@testable import ObjectGraph

/// Generated grouped and aggregate dictionary fetches over the differential data set (every
/// attribute type, nils, subentities, to-one chains), answered by the SQLite store (in SQL
/// where it translates) and by the in-memory evaluator over the same store's rows: the same
/// dictionaries in the same order, or an error from both.
@Suite("Aggregates: SQL agrees with the evaluator")
struct AggregateDifferentialTests {
    @Test("800 generated grouped and aggregate fetches: SQL = the in-memory evaluator")
    func differential() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let data = try DifferentialDataSet(seed: 20_261_130)
        let sqlite = try StoreDifferentialTests.openStore(data, in: folder)
        let compared = 800
        let (inSQL, failedBoth) = try Self.compareAggregates(sqlite, data, total: compared)
        #expect(failedBoth < 200, "\(failedBoth) requests failed in both")
        // Recorded when written: 800 compared, answered in SQL as printed below.
        print(
            "aggregate differential: \(inSQL) of \(compared) in SQL, \(failedBoth) failed in both")
        #expect(inSQL >= 120, "\(inSQL) of \(compared) answered in SQL")
    }

    /// Runs `total` generated requests (generator seed 11) on `coordinator` through the store
    /// and through the evaluator, expecting the same dictionaries or an error from both;
    /// returns how many the store answered in SQL and how many failed in both.
    static func compareAggregates(
        _ coordinator: StoreCoordinator, _ data: DifferentialDataSet, total: Int
    ) throws -> (inSQL: Int, failedBoth: Int) {
        var generator = AggregateRequestGenerator(seed: 11, data: data)
        var inSQL = 0
        var failedBoth = 0
        for _ in 0..<total {
            let request = generator.request()
            let context = ManagedContext(coordinator: coordinator)
            let expected = Result { try context.evaluatedDictionaries(request) }
            let actual = Result { try context.fetchDictionaries(request) }
            let label = AggregateRequestGenerator.describe(request)
            switch (expected, actual) {
            case (.success(let want), .success(let got)):
                #expect(agree(want, got), "\(label)\n  evaluator: \(want)\n  SQL: \(got)")
                if try answeredInSQL(request, context, coordinator) { inSQL += 1 }
            case (.failure, .failure):
                failedBoth += 1
            default:
                Issue.record("\(label)\n  evaluator: \(expected)\n  SQL: \(actual)")
            }
        }
        return (inSQL, failedBoth)
    }

    /// Whether the SQLite store answers `request` itself (not through the evaluator).
    static func answeredInSQL(
        _ request: FetchRequest<ManagedObject>, _ context: ManagedContext,
        _ coordinator: StoreCoordinator
    ) throws -> Bool {
        let entity = try context.fetchEntity(request)
        let columns = try context.fetchedColumns(request, entity: entity)
        guard let query = try context.storeAggregateQuery(request, entity: entity, columns: columns)
        else { return false }
        return try coordinator.aggregate(query, in: nil) != nil
    }

    /// Equal dictionaries, doubles within rounding (SQL may add them in another order).
    static func agree(_ lhs: [[String: Value]], _ rhs: [[String: Value]]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (a, b) in zip(lhs, rhs) {
            guard a.keys.sorted() == b.keys.sorted() else { return false }
            for (key, x) in a {
                let y = b[key] ?? .null
                if case .double(let p) = x, case .double(let q) = y {
                    if p == q || abs(p - q) <= 1e-9 * max(1, abs(p), abs(q)) { continue }
                    return false
                }
                if x != y { return false }
            }
        }
        return true
    }
}

/// Grouped and aggregate requests over the differential model: group keys (attributes of every
/// type, to-one relationships, paths through them), aggregates as ``FetchProperty/aggregate(_:of:as:)``
/// or `count:`/`sum:`/… expressions, having-predicates, sorting by columns, distinct, limits.
struct AggregateRequestGenerator {
    private var random: SeededGenerator
    private var predicates: DifferentialPredicateGenerator

    init(seed: UInt64, data: DifferentialDataSet) {
        random = SeededGenerator(seed: seed)
        predicates = DifferentialPredicateGenerator(seed: seed &+ 1, data: data)
    }

    static let groupKeys: [String: [String]] = [
        "Item": [
            "name", "small", "count", "big", "flag", "when", "uuid", "link", "price", "amount",
            "team", "team.name", "team.rank", "team.league", "team.league.name", "parent",
            "buddy.flag", "buddy.small",
        ],
        "Team": ["name", "rank", "league", "league.name"],
        "Tag": ["name", "score"],
    ]
    static let aggregated: [String: [String]] = [
        "Item": [
            "small", "count", "big", "amount", "ratio", "price", "flag", "when", "name", "uuid",
            "team", "team.rank", "team.name", "buddy.amount", "blob", "link",
        ],
        "Team": ["rank", "name", "league", "league.name"],
        "Tag": ["score", "name"],
    ]
    static let extras: [String: [String]] = ["Gadget": ["power", "label"], "Widget": ["weight"]]
    static let selectors: [AggregateFunction: String] = [
        .count: "count:", .sum: "sum:", .average: "average:", .min: "min:", .max: "max:",
    ]

    mutating func request() -> FetchRequest<ManagedObject> {
        let fetch = predicates.fetch()
        var request = FetchRequest(entityName: fetch.entity)
        request.includesSubentities = fetch.includesSubentities
        if random.chance(0.6) { request.predicate = fetch.predicate }
        let base = fetch.entity == "Gadget" || fetch.entity == "Widget" ? "Item" : fetch.entity
        let extra = Self.extras[fetch.entity] ?? []
        let keys = (Self.groupKeys[base] ?? []) + extra
        let values = (Self.aggregated[base] ?? []) + extra
        var groups: [String] = []
        let groupCount = random.pick([0, 1, 1, 1, 2, 2])
        while groups.count < min(groupCount, keys.count) {
            let key = random.pick(keys)
            if !groups.contains(key) { groups.append(key) }
        }
        var columns: [FetchProperty] = groups.filter { _ in random.chance(0.85) }.map { .key($0) }
        var names: [String] = columns.map(\.name)
        for index in 0..<Int.random(in: 1...3, using: &random) {
            let function = random.pick(AggregateFunction.allCases)
            let key = random.pick(values)
            let name = "a\(index)"
            names.append(name)
            if random.chance(0.5) {
                columns.append(.aggregate(function, of: key, as: name))
            } else {
                columns.append(
                    .expression(
                        .function(
                            Self.selectors[function] ?? "sum:", [.keyPath(PredicateKeyPath(key))]),
                        as: name))
            }
        }
        request.propertiesToFetch = columns
        request.propertiesToGroupBy = groups.isEmpty ? nil : groups
        if random.chance(0.35) { request.havingPredicate = having(names) }
        if random.chance(0.5) {
            for _ in 0..<Int.random(in: 1...2, using: &random) {
                request.sortDescriptors.append(
                    SortDescriptor(
                        random.pick(names), ascending: random.chance(0.5),
                        comparison: random.pick([.standard, .standard, .caseInsensitive])))
            }
        }
        request.returnsDistinctResults = random.chance(0.15)
        if random.chance(0.2) { request.fetchOffset = Int.random(in: 0...3, using: &random) }
        if random.chance(0.25) { request.fetchLimit = Int.random(in: 1...4, using: &random) }
        return request
    }

    /// A having-predicate over the columns: comparisons with numbers, nil tests, string tests.
    private mutating func having(_ names: [String]) -> ObjectGraph.Predicate? {
        let name = random.pick(names)
        let reference = random.chance(0.5) ? "$" + name : name
        let format = random.pick([
            "\(reference) > 1", "\(reference) <= 0", "\(reference) != nil", "\(reference) == nil",
            "\(reference) BETWEEN {-2, 3}", "\(reference) > 1 OR \(reference) == nil",
            "NOT (\(reference) < 2)", "\(reference) BEGINSWITH[c] 'a'",
        ])
        return try? ObjectGraph.Predicate(format: format)
    }

    static func describe(_ request: FetchRequest<ManagedObject>) -> String {
        "\(request.entityName ?? "?")\(request.includesSubentities ? "" : " (exact)") "
            + "WHERE \(request.predicate.map { "\($0)" } ?? "-") "
            + "COLUMNS \(request.propertiesToFetch ?? []) GROUP \(request.propertiesToGroupBy ?? []) "
            + "HAVING \(request.havingPredicate.map { "\($0)" } ?? "-") "
            + "SORT \(request.sortDescriptors.map { "\($0.key) \($0.ascending) \($0.comparison)" }) "
            + "DISTINCT \(request.returnsDistinctResults) OFFSET \(request.fetchOffset) "
            + "LIMIT \(request.fetchLimit)"
    }
}
