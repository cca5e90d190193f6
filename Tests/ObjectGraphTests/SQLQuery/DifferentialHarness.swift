import Foundation
import SQLiteDatabase

@testable import ObjectGraph

/// Runs one fetch through the SQL compiler on a populated database and through the evaluator
/// over the same objects, and says whether they agree.
struct DifferentialHarness {
    enum Outcome {
        /// Same objects in the same order.
        case identical(count: Int)
        /// The compiler refused the fetch.
        case rejected(SQLTranslationError)
        /// Both the evaluator and SQL reported an error.
        case bothFailed
        /// A different answer: the description says what.
        case mismatch(String)
    }

    let data: DifferentialDataSet
    let db: Database
    let compiler: SQLQueryCompiler

    init(seed: UInt64) throws {
        data = try DifferentialDataSet(seed: seed)
        db = try Database.inMemory()
        try SQLFunctions.register(on: db)
        try data.populate(db)
        compiler = SQLQueryCompiler(
            layout: data.layout, model: data.model, storeIdentifier: "STORE")
    }

    func run(_ fetch: DifferentialPredicateGenerator.Fetch) -> Outcome {
        let label =
            "\(fetch.entity)\(fetch.includesSubentities ? "" : " (exact)") WHERE "
            + "\(fetch.predicate) SORT "
            + "\(fetch.sort.map { "\($0.key) \($0.ascending) \($0.comparison)" }) "
            + "OFFSET \(fetch.offset) LIMIT \(fetch.limit)"
        let query: CompiledQuery
        switch compile(fetch) {
        case .success(let compiled): query = compiled
        case .failure(let error): return .rejected(error)
        }
        let evaluated = try? Self.expected(fetch, in: data)
        let fetched = try? db.fetchAll(sql: query.sql, arguments: query.statementArguments)
            .compactMap { row -> Int64? in
                if case .integer(let pk)? = row[0] { return pk }
                return nil
            }
        switch (evaluated, fetched) {
        case (nil, nil):
            return .bothFailed
        case (let expected?, let actual?) where expected == actual:
            if fetch.offset == 0, fetch.limit == 0 {
                // COUNT agrees with the number of matches.
                let count = try? compiler.count(
                    entity: fetch.entity, includesSubentities: fetch.includesSubentities,
                    predicate: fetch.predicate)
                let counted = count.flatMap {
                    try? db.fetchValue(Int.self, sql: $0.sql, arguments: $0.statementArguments)
                }
                if counted != expected.count {
                    return .mismatch("COUNT \(label): \(counted ?? -1) != \(expected.count)")
                }
            }
            return .identical(count: expected.count)
        default:
            return .mismatch(
                "\(label)\n  SQL: \(query)\n  evaluator: \(evaluated.map { "\($0)" } ?? "error")"
                    + "\n  SQL result: \(fetched.map { "\($0)" } ?? "error")")
        }
    }

    func compile(_ fetch: DifferentialPredicateGenerator.Fetch)
        -> Result<CompiledQuery, SQLTranslationError>
    {
        do {
            return .success(
                try compiler.select(
                    entity: fetch.entity, includesSubentities: fetch.includesSubentities,
                    predicate: fetch.predicate, sortDescriptors: fetch.sort,
                    offset: fetch.offset, limit: fetch.limit, columns: ["Z_PK"]))
        } catch {
            return .failure(error)
        }
    }

    /// The evaluator's answer: matching objects in `Z_PK` order, stably sorted by the
    /// descriptors as the in-memory fetch sorts, then offset and limited.
    static func expected(
        _ fetch: DifferentialPredicateGenerator.Fetch, in data: DifferentialDataSet
    ) throws -> [Int64] {
        guard let entity = data.layout.entity(named: fetch.entity) else { return [] }
        let numbers =
            fetch.includesSubentities ? entity.coveredEntityNumbers : [entity.entityNumber]
        let candidates = data.objects.filter { numbers.contains($0.entityNumber) }
            .sorted { $0.primaryKey < $1.primaryKey }
        var matches: [DifferentialObject] = []
        for object in candidates where try fetch.predicate.evaluate(with: object) {
            matches.append(object)
        }
        let keyPaths = try fetch.sort.map { try ObjectGraph.Expression(format: $0.key) }
        var keyed: [(index: Int, object: DifferentialObject, keys: [Value])] = []
        for (index, object) in matches.enumerated() {
            let keys = try keyPaths.map { expression -> Value in
                if case .value(let value) = try expression.evaluate(with: object) { return value }
                return .null
            }
            keyed.append((index, object, keys))
        }
        keyed.sort { lhs, rhs in
            for (position, descriptor) in fetch.sort.enumerated() {
                var order = descriptor.order(lhs.keys[position], rhs.keys[position])
                let nilInvolved = lhs.keys[position] == .null || rhs.keys[position] == .null
                if !descriptor.ascending && !nilInvolved {
                    order =
                        order == .orderedAscending
                        ? .orderedDescending
                        : order == .orderedDescending ? .orderedAscending : .orderedSame
                }
                if order != .orderedSame { return order == .orderedAscending }
            }
            return lhs.index < rhs.index
        }
        var result = keyed.map(\.object.primaryKey).dropFirst(fetch.offset).map { $0 }
        if fetch.limit > 0 { result = Array(result.prefix(fetch.limit)) }
        return result
    }
}
