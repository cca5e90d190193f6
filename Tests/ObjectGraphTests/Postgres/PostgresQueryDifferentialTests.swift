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

        /// Counts of statements with a native `BEGINSWITH`, with a sort by NFC text, and with
        /// a native comparison of NFC texts other than those (that found rows).
        final class NativeTally {
            var prefixes = 0
            var byteOrderSorts = 0
            var comparisons = 0
        }

        init(seed: UInt64) throws {
            data = try DifferentialDataSet(seed: seed)
            url = try PostgresDifferentialStore.make(data)
            connection = try PostgresDifferentialStore.connect(url)
            var compiler = SQLQueryCompiler(
                layout: data.layout, model: data.model, storeIdentifier: "STORE",
                dialect: .postgres)
            compiler.byteOrderCollation = PostgresStore.byteOrderCollation(connection)
            self.compiler = compiler
        }

        /// The statement of `fetch`, and the rows' first columns, as the store runs it.
        func select(_ fetch: DifferentialPredicateGenerator.Fetch, _ values: PostgresDistinctTexts)
            throws -> (PostgresStatement, Result<[Int64], Error>)
        {
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
            if case .success(let found) = rows, !found.isEmpty {
                let parts = statement.sql.components(separatedBy: " ORDER BY ")
                if parts.last?.contains("normalize(") == true { native.byteOrderSorts += 1 }
                if parts.first?.contains("normalize(") == true { native.comparisons += 1 }
            }
            return (
                statement, rows.flatMap { found in Result { try found.map { try $0.int64(0) } } }
            )
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
                + " NFC sorts, \(native.comparisons) with NFC comparisons")
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
                + " \(native.byteOrderSorts) NFC sorts")
        #expect(tally.mismatches.isEmpty)
        #expect(native.prefixes >= 800)
        #expect(native.byteOrderSorts >= 200)
    }

    /// Constants that equal, or order next to, the data set's texts only after NFC: decomposed
    /// and precomposed letters, the Angstrom, Kelvin and Ohm signs, Hangul jamo and
    /// syllables, joiners and ZWJ sequences.
    static let nonNFCConstants = [
        "e\u{301}", "\u{E9}", "Cafe\u{301}", "caf\u{E9}", "\u{212B}", "\u{C5}", "A\u{30A}",
        "\u{212A}", "K", "\u{212A}elvin", "Kelvin", "\u{1100}\u{1161}", "\u{AC00}", "\u{1100}",
        "Jo\u{308}rg", "J\u{F6}rg", "J\u{301}o", "\u{134}o", "Jo\u{200D}x", "Jo",
        "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", "\u{2126}mega", "\u{3A9}mega",
        "\u{3A9}\u{301}", "\u{38F}", "a\u{37E}b", "a;b", "x\u{FE0F}", "", "zeta",
    ]

    @Test(
        "1,500 generated plain ==, <, IN, BETWEEN and sorts with non-NFC texts match the evaluator")
    func nonNFCComparisons() throws {
        let harness = try Harness(seed: 20_261_129)
        var generator = DifferentialPredicateGenerator(seed: 17, data: harness.data)
        var tally = DifferentialTally()
        let constants = Self.nonNFCConstants
        let operators: [ComparisonOperator] = [
            .equal, .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual,
        ]
        var naiveWouldDiffer = 0
        for index in 0..<1_500 {
            var fetch = generator.fetch()
            let constant = constants[index % constants.count]
            let other = constants[(index / constants.count * 7 + index) % constants.count]
            let name = ObjectGraph.Expression.keyPath(PredicateKeyPath("name"))
            let comparison: Comparison
            switch index % 8 {
            case 6:
                comparison = Comparison(
                    name, .in,
                    .aggregate([.constant(.string(constant)), .constant(.string(other))]))
            case 7:
                let (low, high) = constant < other ? (constant, other) : (other, constant)
                comparison = Comparison(
                    name, .between, .aggregate([.constant(.string(low)), .constant(.string(high))]))
            default:
                let op = operators[index % 8]
                comparison =
                    index % 3 == 0
                    ? Comparison(.constant(.string(constant)), op, name)
                    : Comparison(name, op, .constant(.string(constant)))
                if harness.data.strings.contains(where: {
                    Self.swiftCompares($0, op, constant) != Self.bytesCompare($0, op, constant)
                }) {
                    naiveWouldDiffer += 1
                }
            }
            fetch.predicate =
                index % 2 == 0
                ? .comparison(comparison) : .and([.comparison(comparison), fetch.predicate])
            fetch.sort.insert(ObjectGraph.SortDescriptor("name", ascending: index % 4 < 2), at: 0)
            tally.record(harness.run(fetch), fetch)
        }
        tally.report("PostgreSQL non-NFC comparisons")
        print(
            "PostgreSQL non-NFC comparisons: \(harness.native.comparisons) native comparisons,"
                + " \(harness.native.byteOrderSorts) NFC sorts")
        #expect(tally.mismatches.isEmpty)
        #expect(harness.native.comparisons >= 600)
        #expect(harness.native.byteOrderSorts >= 600)
        // A comparison of the stored bytes would have answered these differently.
        #expect(naiveWouldDiffer >= 300)
    }

    /// Swift's answer to `text op constant` (`==` canonical equivalence, orders of NFC forms).
    static func swiftCompares(_ text: String, _ op: ComparisonOperator, _ constant: String)
        -> Bool
    {
        switch op {
        case .equal: return text == constant
        case .notEqual: return text != constant
        case .lessThan: return text < constant
        case .lessThanOrEqual: return text <= constant
        case .greaterThan: return text > constant
        default: return text >= constant
        }
    }

    /// The same comparison of the raw UTF-8 bytes, as a plain column comparison would answer.
    static func bytesCompare(_ text: String, _ op: ComparisonOperator, _ constant: String)
        -> Bool
    {
        let x = Array(text.utf8)
        let y = Array(constant.utf8)
        switch op {
        case .equal: return x == y
        case .notEqual: return x != y
        case .lessThan: return x.lexicographicallyPrecedes(y)
        case .lessThanOrEqual: return !y.lexicographicallyPrecedes(x)
        case .greaterThan: return y.lexicographicallyPrecedes(x)
        default: return !x.lexicographicallyPrecedes(y)
        }
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
