import Foundation
import SQLiteDatabase
import Testing

@testable import ObjectGraph

private typealias Predicate = ObjectGraph.Predicate
private typealias Expression = ObjectGraph.Expression
private typealias SortDescriptor = ObjectGraph.SortDescriptor

/// The key correctness test of the SQLite store's queries: generated predicates, sort
/// descriptors, offsets and limits give exactly the same objects, in the same order, through
/// the SQL compiler as through the in-memory evaluator.
@Suite("SQL query compiler: differential test against the evaluator")
struct SQLQueryDifferentialTests {
    /// The evaluator's answer: matching objects in `Z_PK` order, stably sorted, offset, limited.
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
        let keyPaths = try fetch.sort.map { try Expression(format: $0.key) }
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
        var result = keyed.map(\.object.primaryKey)
        result = Array(result.dropFirst(fetch.offset))
        if fetch.limit > 0 { result = Array(result.prefix(fetch.limit)) }
        return result
    }

    static func compile(
        _ fetch: DifferentialPredicateGenerator.Fetch, _ compiler: SQLQueryCompiler
    ) -> Result<CompiledQuery, SQLTranslationError> {
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

    static func reason(_ error: SQLTranslationError) -> String {
        switch error {
        case .unsupported(_, let why): return why
        case .unknownEntity: return error.description
        }
    }

    @Test("2,500 generated fetches return the same objects in the same order as the evaluator")
    func differential() throws {
        let data = try DifferentialDataSet(seed: 20_261_129)
        let db = try Database.inMemory()
        try SQLFunctions.register(on: db)
        try data.populate(db)
        let compiler = SQLQueryCompiler(
            layout: data.layout, model: data.model, storeIdentifier: "STORE")
        var generator = DifferentialPredicateGenerator(seed: 5, data: data)

        var compared = 0
        var rejected: [String: Int] = [:]
        var rejectedExamples: [String] = []
        var bothFailed = 0
        var mismatches: [String] = []
        var nonEmpty = 0
        let total = 2_500
        for _ in 0..<total {
            let fetch = generator.fetch()
            let label =
                "\(fetch.entity)\(fetch.includesSubentities ? "" : " (exact)") WHERE "
                + "\(fetch.predicate) SORT \(fetch.sort.map { "\($0.key) \($0.ascending) \($0.comparison)" }) "
                + "OFFSET \(fetch.offset) LIMIT \(fetch.limit)"
            let query: CompiledQuery
            switch Self.compile(fetch, compiler) {
            case .success(let compiled):
                query = compiled
            case .failure(let error):
                rejected[Self.reason(error), default: 0] += 1
                if rejectedExamples.count < 12 { rejectedExamples.append("\(label): \(error)") }
                continue
            }
            let evaluated: [Int64]?
            do {
                evaluated = try Self.expected(fetch, in: data)
            } catch {
                evaluated = nil
            }
            var fetched: [Int64]?
            do {
                fetched = try db.fetchAll(sql: query.sql, arguments: query.statementArguments)
                    .compactMap { row -> Int64? in
                        if case .integer(let pk)? = row[0] { return pk }
                        return nil
                    }
            } catch {
                fetched = nil
            }
            switch (evaluated, fetched) {
            case (nil, nil):
                bothFailed += 1
            case (let expected?, let actual?) where expected == actual:
                compared += 1
                if !expected.isEmpty { nonEmpty += 1 }
            default:
                mismatches.append(
                    "\(label)\n  SQL: \(query)\n  evaluator: \(evaluated.map { "\($0)" } ?? "error")"
                        + "\n  SQL result: \(fetched.map { "\($0)" } ?? "error")")
            }

            // COUNT agrees with the number of matches.
            if let expected = evaluated, fetch.offset == 0, fetch.limit == 0 {
                let countQuery = try compiler.count(
                    entity: fetch.entity, includesSubentities: fetch.includesSubentities,
                    predicate: fetch.predicate)
                let count = try db.fetchValue(
                    Int.self, sql: countQuery.sql, arguments: countQuery.statementArguments)
                if count != expected.count {
                    mismatches.append("COUNT \(label): \(count ?? -1) != \(expected.count)")
                }
            }
        }
        let rejectedCount = rejected.values.reduce(0, +)
        print(
            "SQL differential: \(total) fetches, \(compared) identical (\(nonEmpty) non-empty), "
                + "\(rejectedCount) rejected by the compiler, \(bothFailed) failing in both, "
                + "\(mismatches.count) mismatches")
        for (reason, count) in rejected.sorted(by: { $0.value > $1.value }) {
            print("  rejected \(count)×: \(reason)")
        }
        for example in rejectedExamples { print("  e.g. \(example)") }
        for mismatch in mismatches.prefix(15) { print("MISMATCH \(mismatch)") }
        #expect(mismatches.isEmpty)
        #expect(compared >= 2_000)
        #expect(nonEmpty >= 1_000)
        #expect(rejectedCount <= total / 10)
    }
}
