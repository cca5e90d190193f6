import Foundation
import Testing

@testable import ObjectGraph

/// The key path forms of issue 20 (`%K` inside key paths, `#self`, keys of strings, unknown
/// `@name` operators, subquery variables compared directly) through the SQL compiler: each
/// compiles to SQL with the evaluator's answer, or is refused and evaluated in memory — never
/// a different query.
@Suite("SQL query compiler: issue 20 key path forms agree with the evaluator")
struct KeyPathFormsDifferentialTests {
    struct Form: Sendable, CustomStringConvertible {
        let entity: String
        let format: String
        let arguments: [String]
        /// Whether the compiler translates it (else it must refuse it and fall back).
        let inSQL: Bool

        func predicate() throws -> ObjectGraph.Predicate {
            try ObjectGraph.Predicate(format: format, argumentArray: arguments)
        }
        var description: String { "\(entity): \(format) \(arguments)" }
    }

    static let forms: [Form] = [
        Form(entity: "Item", format: "name.length > 4", arguments: [], inSQL: true),
        Form(entity: "Item", format: "name.length == 0 OR name == nil", arguments: [], inSQL: true),
        Form(
            entity: "Item", format: "name.uppercaseString BEGINSWITH 'CAF'", arguments: [],
            inSQL: true),
        Form(
            entity: "Item", format: "name.lowercaseString.length < 5", arguments: [],
            inSQL: true),
        Form(entity: "Item", format: "ANY tags.name.length >= 6", arguments: [], inSQL: true),
        Form(entity: "Item", format: "tags.@sum.name.length > 10", arguments: [], inSQL: true),
        Form(entity: "Item", format: "tags.@max.name.length < 5", arguments: [], inSQL: true),
        Form(entity: "Item", format: "%K.name != nil", arguments: ["team"], inSQL: true),
        Form(entity: "Item", format: "team.%K == 'alpha'", arguments: ["name"], inSQL: true),
        Form(
            entity: "Item", format: "%K.%K.name != nil", arguments: ["team", "league"],
            inSQL: true),
        Form(entity: "Item", format: "ANY %K.%K > 0.5", arguments: ["tags", "score"], inSQL: true),
        Form(
            entity: "Item", format: "SUBQUERY(%K, $t, $t.%K > 0.5).@count > 0",
            arguments: ["tags", "score"], inSQL: true),
        Form(
            entity: "Item", format: "SUBQUERY(children, $c, $c.%K.%K == %K).@count > 0",
            arguments: ["team", "rank", "count"], inSQL: true),
        Form(entity: "Item", format: "SELF.%K > 0", arguments: ["count"], inSQL: true),
        Form(entity: "Item", format: "#self.name.#self == 'alpha'", arguments: [], inSQL: true),
        Form(entity: "Item", format: "tags.@max.score.#self > 0.5", arguments: [], inSQL: true),
        Form(entity: "Item", format: "tags.@count.#self > 1", arguments: [], inSQL: true),
        Form(entity: "Team", format: "members.#\"@count\" > 2", arguments: [], inSQL: true),
        Form(
            entity: "Item", format: "SUBQUERY(tags, $t, $t.name.length > 4).@count > 0",
            arguments: [], inSQL: true),
        Form(
            entity: "Item", format: "SUBQUERY(children, $c, $c == $c.buddy).@count == 0",
            arguments: [], inSQL: true),
        Form(
            entity: "Item",
            format: "SUBQUERY(children, $c, $c != $c.buddy AND $c.team == nil).@count > 0",
            arguments: [], inSQL: true),
        Form(
            entity: "Item",
            format:
                "SUBQUERY(children, $c, SUBQUERY($c.tags, $t, $t.name ==[c] $c.name).@count > 0).@count > 0",
            arguments: [], inSQL: true),
        Form(
            entity: "Team",
            format:
                "SUBQUERY(members, $m, SUBQUERY($m.team.members, $n, $n.count > $m.count).@count == 0).@count > 0",
            arguments: [], inSQL: true),
        Form(
            entity: "Item", format: "SUBQUERY(tags.name, $n, $n BEGINSWITH 'a').@count > 0",
            arguments: [], inSQL: true),
        // Refused by the compiler, evaluated in memory.
        Form(
            entity: "Item", format: "team.name.capitalizedString == 'Alpha'", arguments: [],
            inSQL: false),
        Form(entity: "Item", format: "name.intValue > 0", arguments: [], inSQL: false),
        Form(entity: "Item", format: "small.doubleValue > 1", arguments: [], inSQL: false),
    ]

    @Test("each form compiles with the evaluator's answer or is refused", arguments: forms)
    func agreesOrFallsBack(form: Form) throws {
        try Self.check(form)
    }

    /// Runs `form` (unsorted and sorted by name) through the compiler and the evaluator: the
    /// same objects when it compiles, a refusal (answered in memory) when it is not `inSQL`;
    /// and some object matches.
    static func check(_ form: Form) throws {
        let harness = try DifferentialHarness(seed: 20_261_129)
        var nonEmpty = false
        for sort in [[], [SortDescriptor("name", ascending: false)]] {
            let fetch = DifferentialPredicateGenerator.Fetch(
                entity: form.entity, includesSubentities: true, predicate: try form.predicate(),
                sort: sort, offset: 0, limit: 0)
            switch harness.run(fetch) {
            case .identical(let count):
                #expect(form.inSQL, "\(form) was expected to be refused")
                nonEmpty = nonEmpty || count > 0
            case .rejected(let error):
                #expect(!form.inSQL, "\(form) was refused: \(error)")
                // The in-memory fallback answers it.
                let answer = try DifferentialHarness.expected(fetch, in: harness.data)
                nonEmpty = nonEmpty || !answer.isEmpty
            case .bothFailed:
                Issue.record("\(form) failed in both")
            case .mismatch(let text):
                Issue.record("MISMATCH \(text)")
            }
        }
        #expect(nonEmpty, "\(form) matches no object: it tests nothing")
    }

    @Test("sorting by a key of a string attribute compiles with the evaluator's order")
    func sortByStringKey() throws {
        let harness = try DifferentialHarness(seed: 20_261_129)
        for key in ["name.length", "name.uppercaseString", "team.name.length"] {
            let fetch = DifferentialPredicateGenerator.Fetch(
                entity: "Item", includesSubentities: true, predicate: .truePredicate,
                sort: [SortDescriptor(key), SortDescriptor("count", ascending: false)],
                offset: 0, limit: 0)
            guard case .identical(let count) = harness.run(fetch) else {
                Issue.record("sorting by \(key) did not agree: \(harness.run(fetch))")
                continue
            }
            #expect(count > 0)
        }
    }

    @Test("an unknown collection operator is refused in SQL and an error in memory")
    func unknownOperator() throws {
        let harness = try DifferentialHarness(seed: 20_261_129)
        for format in ["tags.@lastObject == nil", "ANY children.@bogus.name == 'x'"] {
            let fetch = DifferentialPredicateGenerator.Fetch(
                entity: "Item", includesSubentities: true,
                predicate: try ObjectGraph.Predicate(format: format),
                sort: [], offset: 0, limit: 0)
            guard case .rejected(let error) = harness.run(fetch) else {
                Issue.record("\(format) was not refused")
                continue
            }
            #expect(error.description.contains("is not a collection operator"), "\(error)")
            #expect(throws: PredicateEvaluationError.self) {
                try DifferentialHarness.expected(fetch, in: harness.data)
            }
        }
    }

    @Test("through a context on the SQLite store: the same objects, or the evaluator's error")
    func throughTheStore() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let data = try DifferentialDataSet(seed: 20_261_130)
        let coordinator = try StoreDifferentialTests.openStore(data, in: folder)
        try Self.checkThroughStore(Self.forms, coordinator, data)
        var request = FetchRequest(entityName: "Item")
        request.predicate = try ObjectGraph.Predicate(format: "tags.@lastObject == nil")
        #expect(throws: (any Error).self) {
            try ManagedContext(coordinator: coordinator).fetchObjectIDs(request)
        }
    }

    /// Fetches each form through a context on `coordinator` (the SQLite store of `data`): SQL
    /// exactly when it is `inSQL`, and the evaluator's objects.
    static func checkThroughStore(
        _ forms: [Form], _ coordinator: StoreCoordinator, _ data: DifferentialDataSet
    ) throws {
        for form in forms {
            let context = ManagedContext(coordinator: coordinator)
            var request = FetchRequest(entityName: form.entity)
            request.predicate = try form.predicate()
            #expect((try context.sql(for: request) != nil) == form.inSQL, "\(form)")
            let keys = try context.fetchObjectIDs(request).map { id -> Int64 in
                if case .permanent(let key) = id.key { return key }
                return -1
            }
            let fetch = DifferentialPredicateGenerator.Fetch(
                entity: form.entity, includesSubentities: true, predicate: try form.predicate(),
                sort: [], offset: 0, limit: 0)
            #expect(keys == (try DifferentialHarness.expected(fetch, in: data)), "\(form)")
        }
    }
}
