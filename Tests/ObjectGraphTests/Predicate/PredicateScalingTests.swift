import Foundation
import Testing

@testable import ObjectGraph

/// Long inputs parse, print and evaluate in time linear in their length and without deep
/// recursion (the measurements behind this are in the issue 15 report; no timing here).
@Suite("Predicates: long key paths, lists and chains")
struct PredicateScalingTests {
    @Test("a key path of 100,000 components parses, prints and reparses")
    func longKeyPath() throws {
        let count = 100_000
        let text = Array(repeating: "a", count: count).joined(separator: ".")
        let predicate = try Predicate(format: text + " == 1")
        guard case .comparison(let comparison) = predicate,
            case .keyPath(let path) = comparison.left
        else {
            Issue.record("not a key path comparison: \(predicate)")
            return
        }
        #expect(path.components.count == count)
        #expect(predicate.description == text + " == 1")
        #expect(try Predicate(format: predicate.description) == predicate)
        // A path continued after an index or a parenthesized base is long too.
        let member = try Expression(format: "(b)." + text)
        guard case .member(_, let continued) = member else {
            Issue.record("not a member: \(member)")
            return
        }
        #expect(continued.components.count == count)
    }

    @Test("a key path of 100,000 collection operators evaluates without recursion")
    func longOperatorPath() throws {
        let count = 100_000
        let path =
            "v." + Array(repeating: "@unionOfObjects", count: count).joined(separator: ".")
            + ".@count"
        let object: EvaluationValue = ["v": [1, 2, 3]]
        #expect(try Predicate(format: path + " == 3").evaluate(with: object))
        #expect(try Predicate(format: "%K == 3", path).evaluate(with: object))
    }

    @Test("long string literals, IN lists and AND chains parse")
    func longLists() throws {
        let count = 100_000
        let literal = String(repeating: "x", count: count)
        let equal = try Predicate(format: "name == '\(literal)'")
        #expect(equal.description == "name == \"\(literal)\"")
        let list = (0..<count).map(String.init).joined(separator: ", ")
        let membership = try Predicate(format: "n IN {\(list)}")
        #expect(try membership.evaluate(with: ["n": 99_999] as EvaluationValue))
        let chain = Array(repeating: "n > 0", count: count).joined(separator: " AND ")
        let conjunction = try Predicate(format: chain)
        guard case .and(let terms) = conjunction else {
            Issue.record("not a conjunction")
            return
        }
        #expect(terms.count == count)
        #expect(try conjunction.evaluate(with: ["n": 1] as EvaluationValue))
    }
}
