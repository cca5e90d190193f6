import Foundation
import ObjectGraph
import Testing

// Foundation also declares `Predicate` and `Expression`.
private typealias Predicate = ObjectGraph.Predicate
private typealias Expression = ObjectGraph.Expression

/// Every example in the doc comments, compiled and checked.
@Suite struct PredicateDocumentationTests {
    @Test func predicateOverview() throws {
        let parsed = try Predicate(format: "age > %@ AND name BEGINSWITH[c] $PREFIX", 30)
        let built =
            Expression.key("age") > 30
            && Expression.key("name").beginsWith(.variable("PREFIX"), options: .caseInsensitive)
        #expect(parsed == built)
        #expect(parsed.description == "age > 30 AND name BEGINSWITH[c] $PREFIX")
    }

    @Test func comparisonAndKeyPath() {
        let c = Comparison(.key("name"), .beginsWith, "J", options: .caseInsensitive)
        #expect(Predicate.comparison(c).description == "name BEGINSWITH[c] \"J\"")
        #expect(
            PredicateKeyPath("department.name").components == [.key("department"), .key("name")])
    }

    @Test func expressions() throws {
        #expect(Expression.key("price").times(.key("quantity")).description == "price * quantity")
        #expect(try Expression(format: "price * %@", 2).description == "price * 2")
        let total = try Expression(format: "items.@sum.price")
        let order: EvaluationValue = ["items": [["price": 40.0], ["price": 2.5]]]
        #expect(try total.evaluate(with: order).description == "42.5")
    }

    @Test func parsingAndErrors() throws {
        let p = try Predicate(format: "%K BEGINSWITH[cd] %@ AND age > %d", "name", "jo", 30)
        #expect(p.description == "name BEGINSWITH[cd] \"jo\" AND age > 30")
        #expect(Predicate.syntaxCheck("name == $NAME") == nil)
        #expect(Predicate.syntaxCheck("name ==")?.offset == 7)
        #expect(
            Predicate.syntaxCheck("age >")?.description
                == "expected an expression but found end of input at offset 5\n  age >\n       ^")
    }

    @Test func evaluation() throws {
        let book: EvaluationValue = ["title": "Dune", "year": 1965, "tags": ["sf", "classic"]]
        #expect(try Predicate(format: "ANY tags == 'sf'").evaluate(with: book))
        let adults = try Predicate(format: "age >= 18 AND name BEGINSWITH[c] $P")
        let person: [String: EvaluationValue] = ["name": "Ada", "age": 36]
        #expect(try adults.evaluate(with: person, variables: ["P": "a"]))
    }

    @Test func substitution() throws {
        let template = try Predicate(format: "name == $NAME AND age > $AGE")
        let p = template.withSubstitutionVariables(["NAME": "Ada", "AGE": 30])
        #expect(p.description == "name == \"Ada\" AND age > 30")
        let q = try Predicate(format: "status IN $S")
            .withSubstitutionVariables(expressions: ["S": .aggregate(["open", "new"])])
        #expect(q.description == "status IN {\"open\", \"new\"}")
    }
}
