import Foundation
import ObjectGraph
import Testing

// Foundation also declares `Predicate` and `Expression`.
private typealias Predicate = ObjectGraph.Predicate
private typealias Expression = ObjectGraph.Expression

/// The Swift builder produces the same trees as the parser.
@Suite struct PredicateBuilderTests {
    @Test func builderMatchesParser() throws {
        let pairs: [(Predicate, String)] = [
            (Expression.key("age") > 30, "age > 30"),
            (Expression.key("age") >= 30.5, "age >= 30.5"),
            (Expression.key("age") < .key("limit"), "age < limit"),
            (Expression.key("age") <= .variable("MAX"), "age <= $MAX"),
            (
                Predicate.key("age") > 30
                    && Predicate.key("name").beginsWith("J", options: .caseInsensitive),
                "age > 30 AND name BEGINSWITH[c] 'J'"
            ),
            (
                Expression.key("a").equals(1) && Expression.key("b").equals(2)
                    && Expression.key("c").equals(3),
                "a == 1 AND b == 2 AND c == 3"
            ),
            (
                Expression.key("a").equals(1) || Expression.key("b").notEquals(nil),
                "a == 1 OR b != nil"
            ),
            (!Expression.key("a").equals(true), "NOT a == TRUE"),
            (
                Expression.key("s").endsWith(
                    "x", options: [.caseInsensitive, .diacriticInsensitive]), "s ENDSWITH[cd] 'x'"
            ),
            (Expression.key("s").contains("x"), "s CONTAINS 'x'"),
            (Expression.key("s").like("a*"), "s LIKE 'a*'"),
            (Expression.key("s").matches("[0-9]+"), "s MATCHES '[0-9]+'"),
            (Expression.key("s").isIn(["a", "b"]), "s IN {'a', 'b'}"),
            (Expression.key("n").between(1, 5), "n BETWEEN {1, 5}"),
            (
                .any(Expression.key("tags.name").equals("swift", options: .caseInsensitive)),
                "ANY tags.name ==[c] 'swift'"
            ),
            (.all(Expression.key("kids.age") > 3), "ALL kids.age > 3"),
            (.none(Expression.key("kids.age") > 3), "NONE kids.age > 3"),
            (Expression.key("price").times(.key("qty")).plus(1) > 10, "(price * qty) + 1 > 10"),
            (Expression.key("a").minus(1).dividedBy(2) > 0, "(a - 1) / 2 > 0"),
            (Expression.key("items.@sum.price") > 100, "items.@sum.price > 100"),
            (Predicate.truePredicate, "TRUEPREDICATE"),
        ]
        for (built, format) in pairs {
            #expect(built == (try Predicate(format: format)), "\(format)")
        }
    }

    @Test func documentedExample() throws {
        let p =
            Expression.key("age") > 30
            && Expression.key("name").beginsWith("J", options: .caseInsensitive)
            || .any(Expression.key("tags.name").equals("swift"))
        let parsed = try Predicate(
            format: "age > 30 AND name BEGINSWITH[c] 'J' OR ANY tags.name == 'swift'")
        #expect(p == parsed)
        let person: EvaluationValue = ["age": 40, "name": "jo", "tags": []]
        #expect(try p.evaluate(with: person))
    }
}
