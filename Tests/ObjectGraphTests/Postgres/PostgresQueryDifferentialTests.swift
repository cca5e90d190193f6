import Foundation
import PostgresClient
import Testing

@testable import ObjectGraph

/// The differential tests of the SQL compiler, against PostgreSQL: the same generated fetches
/// (predicates, sorts, offsets, limits), counts and grouped or aggregate fetches give exactly
/// the evaluator's answers through the compiler's PostgreSQL dialect, on the test server.
@Suite("PostgreSQL query compiler: differential test against the evaluator")
struct PostgresQueryDifferentialTests {
    /// Runs compiled fetches on a PostgreSQL schema holding the data set.
    struct Harness {
        let data: DifferentialDataSet
        let url: URL
        let connection: PostgresConnection
        let compiler: SQLQueryCompiler
        /// How often the native string translations ran.
        let native = NativeTally()

        /// Counts of statements with a native `BEGINSWITH`, with a byte-order sort whose check
        /// held, and with one whose check failed (run again, ranked).
        final class NativeTally {
            var prefixes = 0
            var byteOrderSorts = 0
            var rankedAgain = 0
        }

        init(seed: UInt64) throws {
            data = try DifferentialDataSet(seed: seed)
            url = try PostgresDifferentialStore.make(data)
            connection = try PostgresDifferentialStore.connect(url)
            var compiler = SQLQueryCompiler(
                layout: data.layout, model: data.model, storeIdentifier: "STORE",
                dialect: .postgres)
            compiler.byteOrderCollation = PostgresStore.byteOrderCollation(connection)
            compiler.checksTextOrder = true
            self.compiler = compiler
        }

        /// The statement of `fetch`, and the rows' first columns, as the store runs it: again
        /// with ranked distinct values when its byte-order sort check fails.
        func select(_ fetch: DifferentialPredicateGenerator.Fetch, _ values: PostgresDistinctTexts)
            throws -> (PostgresStatement, Result<[Int64], Error>)
        {
            var compiler = compiler
            while true {
                let statement = try PostgresStatement(
                    compiler.select(
                        entity: fetch.entity, includesSubentities: fetch.includesSubentities,
                        predicate: fetch.predicate, sortDescriptors: fetch.sort,
                        offset: fetch.offset, limit: fetch.limit, columns: ["Z_PK"],
                        values: values))
                let rows = Result {
                    try connection.execute(statement.sql, statement.arguments).rows
                }
                if statement.arguments.contains(.text(GraphemeJoiners.postgresPattern)) {
                    native.prefixes += 1
                }
                if let column = statement.textOrderColumn, compiler.checksTextOrder,
                    case .success(let found) = rows
                {
                    if try found.first?.bool(column) == false {
                        native.rankedAgain += 1
                        compiler.checksTextOrder = false
                        continue
                    }
                    if !found.isEmpty { native.byteOrderSorts += 1 }
                }
                return (
                    statement,
                    rows.flatMap { found in Result { try found.map { try $0.int64(0) } } }
                )
            }
        }

        /// Whether `fetch` has no sort, offset or limit: its order is unspecified (the store's
        /// statement has no ORDER BY), so its keys are compared as a set.
        static func isUnordered(_ fetch: DifferentialPredicateGenerator.Fetch) -> Bool {
            fetch.sort.isEmpty && fetch.offset == 0 && fetch.limit == 0
        }

        func run(_ fetch: DifferentialPredicateGenerator.Fetch) -> DifferentialHarness.Outcome {
            let label =
                "\(fetch.entity)\(fetch.includesSubentities ? "" : " (exact)") WHERE "
                + "\(fetch.predicate) SORT "
                + "\(fetch.sort.map { "\($0.key) \($0.ascending) \($0.comparison)" }) "
                + "OFFSET \(fetch.offset) LIMIT \(fetch.limit)"
            let values = PostgresDistinctTexts(connection: connection)
            defer { try? values.finish(commit: true) }
            let statement: PostgresStatement
            let fetched: Result<[Int64], Error>
            do {
                (statement, fetched) = try select(fetch, values)
            } catch let error as SQLTranslationError {
                return .rejected(error)
            } catch {
                return .mismatch("\(label): \(error)")
            }
            let evaluated = try? DifferentialHarness.expected(fetch, in: data)
            switch (evaluated, fetched) {
            case (nil, .failure):
                return .bothFailed
            case (let expected?, .success(let actual))
            where expected == (Self.isUnordered(fetch) ? actual.sorted() : actual):
                if fetch.offset == 0, fetch.limit == 0 {
                    let counted = Result {
                        let count = try PostgresStatement(
                            compiler.count(
                                entity: fetch.entity,
                                includesSubentities: fetch.includesSubentities,
                                predicate: fetch.predicate, values: values))
                        return try connection.execute(count.sql, count.arguments).rows.first?
                            .int64(0)
                    }
                    if (try? counted.get()) != Int64(expected.count) {
                        return .mismatch("COUNT \(label): \(counted) != \(expected.count)")
                    }
                }
                return .identical(count: expected.count)
            default:
                return .mismatch(
                    "\(label)\n  SQL: \(statement)\n  evaluator: "
                        + "\(evaluated.map { "\($0)" } ?? "error")\n  SQL result: \(fetched)")
            }
        }
    }

    @Test("2,500 generated fetches return the same objects in the same order as the evaluator")
    func generated() throws {
        let harness = try Harness(seed: 20_261_129)
        var generator = DifferentialPredicateGenerator(seed: 5, data: harness.data)
        var tally = DifferentialTally()
        for _ in 0..<2_500 {
            let fetch = generator.fetch()
            tally.record(harness.run(fetch), fetch)
        }
        // Rejected: evaluated in memory by the store.
        tally.report("PostgreSQL differential")
        let native = harness.native
        print(
            "PostgreSQL native strings: \(native.prefixes) BEGINSWITH, \(native.byteOrderSorts)"
                + " byte-order sorts, \(native.rankedAgain) sorts ranked again")
        #expect(tally.mismatches.isEmpty)
        #expect(tally.identical >= 1_800)
        #expect(tally.nonEmpty >= 800)
    }

    @Test("1,200 generated fetches under a plain BEGINSWITH, sorted by name, match the evaluator")
    func plainPrefixes() throws {
        let harness = try Harness(seed: 20_261_129)
        var generator = DifferentialPredicateGenerator(seed: 11, data: harness.data)
        var tally = DifferentialTally()
        let prefixes = ["J", "Jo", "Ja", "x", "e", "a", "Z", "f", "c", "C", "s", "~", " ", "1"]
        for index in 0..<1_200 {
            var fetch = generator.fetch()
            let prefix = try ObjectGraph.Predicate(
                format: "name BEGINSWITH '\(prefixes[index % prefixes.count])'")
            fetch.predicate = index % 3 == 0 ? prefix : .and([prefix, fetch.predicate])
            fetch.sort.insert(
                ObjectGraph.SortDescriptor("name", ascending: index % 2 == 0), at: 0)
            tally.record(harness.run(fetch), fetch)
        }
        tally.report("PostgreSQL plain prefixes")
        let native = harness.native
        print(
            "PostgreSQL native strings under plain prefixes: \(native.prefixes) BEGINSWITH,"
                + " \(native.byteOrderSorts) byte-order sorts, \(native.rankedAgain) ranked again")
        #expect(tally.mismatches.isEmpty)
        #expect(native.prefixes >= 800)
        #expect(native.byteOrderSorts >= 200)
        #expect(native.rankedAgain >= 20)
    }

    @Test("the hand-written tricky fetches agree with the evaluator on PostgreSQL")
    func handwrittenFetches() throws {
        let harness = try Harness(seed: 20_261_129)
        var inSQL = 0
        for (entity, format) in SQLQueryDifferentialTests.handwritten {
            let predicate = try Predicate(format: format)
            for sort in [[], [SortDescriptor("name", ascending: false)]] {
                let fetch = DifferentialPredicateGenerator.Fetch(
                    entity: entity, includesSubentities: true, predicate: predicate, sort: sort,
                    offset: 0, limit: 0)
                switch harness.run(fetch) {
                case .identical: inSQL += 1
                case .rejected, .bothFailed: break
                case .mismatch(let text): Issue.record("MISMATCH \(text)")
                }
            }
        }
        #expect(inSQL >= SQLQueryDifferentialTests.handwritten.count)
    }

    @Test("1,000 generated fetches and counts through a PostgreSQL store equal the evaluator's")
    func throughTheStore() throws {
        let data = try DifferentialDataSet(seed: 20_261_130)
        let url = try PostgresDifferentialStore.make(data)
        let coordinator = try PostgresDifferentialStore.open(data, at: url)
        let (compared, inSQL) = try StoreDifferentialTests.compareFetches(
            coordinator, data, total: 1_000, counts: true, keyOrdered: false)
        print("PostgreSQL store differential: \(inSQL) of \(compared) fetches in SQL")
        #expect(compared >= 900)
        #expect(inSQL >= 700)
    }

    @Test("800 generated grouped and aggregate fetches: PostgreSQL = the in-memory evaluator")
    func aggregates() throws {
        let data = try DifferentialDataSet(seed: 20_261_130)
        let url = try PostgresDifferentialStore.make(data)
        let coordinator = try PostgresDifferentialStore.open(data, at: url)
        let (inSQL, failedBoth) = try AggregateDifferentialTests.compareAggregates(
            coordinator, data, total: 800)
        print(
            "PostgreSQL aggregate differential: \(inSQL) of 800 in SQL, \(failedBoth) failed in both"
        )
        #expect(inSQL >= 100)
    }
}
