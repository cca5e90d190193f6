import Foundation
import Testing

@testable import ObjectGraph

/// Predicates the parser accepts, however deeply they nest, get the same answer from a SQLite
/// store as from the XML store (which evaluates in memory): what SQLite's parser cannot take
/// is flattened or evaluated in memory, with the reason in the SQL log.
@Suite("SQLite store: deep predicates agree with the XML store")
struct DeepPredicateTests {
    /// The same people (ages 0 to 39, one without an age) in a SQLite and an XML store.
    final class Stores {
        let folder: URL
        let sqlite: ManagedContext
        let xml: ManagedContext

        init() throws {
            folder = try TestSupport.makeTemporaryFolder()
            var contexts: [ManagedContext] = []
            for (type, file) in [(StoreType.sqlite, "deep.sqlite"), (.xml, "deep.xml")] {
                let coordinator = StoreCoordinator(model: TestModels.league())
                try coordinator.addStore(type: type, at: folder.appendingPathComponent(file))
                let context = ManagedContext(coordinator: coordinator)
                for age in 0..<41 {
                    let person = try context.insert("Person")
                    try person.set("P\(age)", for: "name")
                    if age < 40 { try person.set(Int16(age), for: "age") }
                    try person.set(Double(age) / 4, for: "score")
                }
                try context.save()
                contexts.append(ManagedContext(coordinator: coordinator))
            }
            sqlite = contexts[0]
            xml = contexts[1]
        }

        deinit { TestSupport.removeTemporaryFolder(folder) }

        /// The names `context` fetches for `format`, sorted by age descending then name.
        func names(
            _ context: ManagedContext, _ format: String, offset: Int = 0, limit: Int = 0
        ) throws -> [String] {
            var request = FetchRequest(entityName: "Person")
            request.predicate = try Predicate(format: format)
            request.sortDescriptors = [SortDescriptor("age", ascending: false)]
            request.fetchOffset = offset
            request.fetchLimit = limit
            return try context.fetch(request).map { object in
                if case .string(let name) = try object.value(for: "name") { return name }
                return "?"
            }
        }

        /// The SQLite store's SQL log for a fetch of `format`.
        func log(_ format: String) throws -> String {
            var request = FetchRequest(entityName: "Person")
            request.predicate = try Predicate(format: format)
            return try sqlite.sqlLog(for: request)
        }

        /// Fetches, windows and counts of `format` agree between the stores; returns the
        /// SQLite store's names.
        @discardableResult
        func agree(_ format: String, sourceLocation: Testing.SourceLocation = #_sourceLocation)
            throws
            -> [String]
        {
            let expected = try names(xml, format)
            let answered = try names(sqlite, format)
            #expect(answered == expected, sourceLocation: sourceLocation)
            let window = try names(sqlite, format, offset: 2, limit: 5)
            #expect(
                window == Array(expected.dropFirst(2).prefix(5)), sourceLocation: sourceLocation)
            var request = FetchRequest(entityName: "Person")
            request.predicate = try Predicate(format: format)
            #expect(
                try sqlite.count(for: request) == expected.count, sourceLocation: sourceLocation)
            request.fetchLimit = 3
            #expect(
                try sqlite.count(for: request) == min(3, expected.count),
                sourceLocation: sourceLocation)
            // Dictionary fetches with aggregates go through the same matching.
            var sums = FetchRequest(entityName: "Person")
            sums.predicate = try Predicate(format: format)
            sums.propertiesToFetch = [.aggregate(.sum, of: "age", as: "total")]
            #expect(
                try sqlite.fetchDictionaries(sums) == xml.fetchDictionaries(sums),
                sourceLocation: sourceLocation)
            return answered
        }
    }

    /// `age + age + … + age > 20·n`: the people older than 20.
    static func sum(_ terms: Int) -> String {
        Array(repeating: "age", count: terms).joined(separator: " + ") + " > \(20 * terms)"
    }

    @Test("sums of 20, 100 and 250 terms", arguments: [20, 100, 250])
    func sums(_ terms: Int) throws {
        let stores = try Stores()
        let names = try stores.agree(Self.sum(terms))
        #expect(names.count == 19)
        // The chain is one flat call per 50 operators: SQL, not an in-memory fallback.
        #expect(try stores.log(Self.sum(terms)).hasPrefix("SELECT"))
    }

    @Test("a sum of 1,000 terms is a syntax error, for every store alike")
    func thousandTerms() throws {
        #expect(throws: PredicateSyntaxError.self) { try Predicate(format: Self.sum(1_000)) }
    }

    @Test("mixed chains of + - * / and bitwise operators")
    func mixedChains() throws {
        let stores = try Stores()
        let chain = (0..<120).map { $0 % 3 == 0 ? "+ age" : $0 % 3 == 1 ? "- age" : "* 1" }
        try stores.agree("age " + chain.joined(separator: " ") + " > 20")
        try stores.agree(
            "score "
                + chain.joined(separator: " ").replacingOccurrences(
                    of: "age", with: "score") + " >= 5.0")
        try stores.agree(
            "age " + Array(repeating: "/ 1", count: 60).joined(separator: " ") + " > 20")
        let bitwise = "age " + Array(repeating: "| 0", count: 60).joined(separator: " ") + " > 20"
        try stores.agree(bitwise)
        #expect(try stores.log(bitwise) == Self.overflow)
    }

    @Test("47 and 200 nested NOTs", arguments: [47, 200, 201])
    func negations(_ count: Int) throws {
        let stores = try Stores()
        let format = String(repeating: "NOT ", count: count) + "age > 20"
        let names = try stores.agree(format)
        // Without an age, `age > 20` is false, so its negation holds.
        #expect(names.count == (count % 2 == 0 ? 19 : 22))
        // A run of negations is its parity: SQL, not an in-memory fallback.
        #expect(try stores.log(format).hasPrefix("SELECT"))
        let parenthesized = min(count, 120)
        try stores.agree(
            String(repeating: "NOT (", count: parenthesized) + "age > 20"
                + String(repeating: ")", count: parenthesized))
    }

    @Test("deep nests of AND and OR, alike and alternating")
    func conjunctions() throws {
        let stores = try Stores()
        var alike = "age > 30"
        var alternating = "age > 30"
        var negated = "age > 30"
        for level in 0..<120 {
            alike = "(age > \(level % 20) AND \(alike))"
            alternating =
                level % 2 == 0
                ? "(age > \(level % 7) AND \(alternating))" : "(age < 2 OR \(alternating))"
            negated = "NOT (age == \(level % 40) OR \(negated))"
        }
        #expect(try stores.agree(alike).count == 9)
        #expect(try stores.log(alike).hasPrefix("SELECT"))
        try stores.agree(alternating)
        try stores.agree(negated)
        for format in [alternating, negated] {
            #expect(try stores.log(format) == Self.overflow)
        }
        let wide =
            "age > 3 OR "
            + Array(repeating: "(age == 7 AND age > 1)", count: 2_000).joined(separator: " OR ")
        try stores.agree(wide)
        #expect(try stores.log(wide).hasPrefix("SELECT"))
    }

    @Test("a long IN list, and a key path joining more tables than SQLite allows")
    func otherLimits() throws {
        let stores = try Stores()
        let values = (0..<40_000).map { String($0 % 45) }.joined(separator: ", ")
        let many = "age IN {\(values)} AND age > 20"
        #expect(try stores.agree(many).count == 19)
        let joins = Array(repeating: "spouse", count: 70).joined(separator: ".") + ".name == 'P1'"
        #expect(try stores.agree("NOT " + joins).count == 41)
        #expect(try stores.log(joins).hasSuffix("join more than 64 tables, SQLite's limit"))
    }

    /// The log line of a fetch SQLite's parser cannot take.
    static let overflow =
        "-- evaluated in memory: SQLite cannot prepare the statement (parser stack overflow)"

    @Test("parenthesized operands, negations, functions and ternaries nested deep")
    func nestedExpressions() throws {
        let stores = try Stores()
        let parenthesized =
            String(repeating: "(", count: 200) + "age" + String(repeating: ")", count: 200)
            + " > 20"
        try stores.agree(parenthesized)
        #expect(try stores.log(parenthesized).hasPrefix("SELECT"))
        var ternary = "age"
        for level in 0..<60 { ternary = "TERNARY(age > -\(level + 1), \(ternary), 0)" }
        let deep = [
            String(repeating: "- ", count: 100) + "age > 20",
            String(repeating: "- ", count: 101) + "age < -20",
            String(repeating: "abs(", count: 100) + "age" + String(repeating: ")", count: 100)
                + " > 20",
            ternary + " > 20",
        ]
        for format in deep {
            #expect(try stores.agree(format).count == 19)
            #expect(try stores.log(format) == Self.overflow)
        }
    }
}
