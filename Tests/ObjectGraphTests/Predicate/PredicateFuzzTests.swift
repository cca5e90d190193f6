import Foundation
import ObjectGraph
import Testing

// Foundation also declares `Predicate` and `Expression`.
private typealias Predicate = ObjectGraph.Predicate
private typealias Expression = ObjectGraph.Expression

/// Mutated format strings never crash the parser, the printer or the evaluator: each either
/// throws a typed error or parses to a predicate whose canonical form is a fixed point.
@Suite struct PredicateFuzzTests {
    static let fragments = [
        "(", ")", "{", "}", "[", "]", "'", "\"", "\\", "%@", "%K", "%d", "%", "$", "#", "@", ".",
        ",", ":", "==", "=", "!", "<", ">", "&&", "||", "+", "-", "*", "**", "/", " ", "0", "9",
        "0x", "1e", ".5", "a", "AND", "OR", "NOT", "ANY", "ALL", "NONE", "IN", "LIKE", "MATCHES",
        "BETWEEN", "SUBQUERY(", "TERNARY(", "CAST(", "FUNCTION(", "SELF", "nil", "TRUEPREDICATE",
        "[cd]", "@count", "@sum.", "FIRST", "SIZE", "average(", "add:to:(", "é", "\u{0}", "🙂",
        "\u{FFFD}", "\n",
    ]

    @Test(arguments: [11 as UInt64, 12, 13])
    func mutatedStringsNeverCrash(seed: UInt64) {
        var generator = PredicateGenerator(seed: seed)
        let seeds = PredicateGrammarTests.canonicalForms.map(\.1)
        var parsedCount = 0
        for round in 0..<1_200 {
            var text = Array(
                round % 3 == 0 ? generator.predicate(depth: 3).description : generator.pick(seeds))
            for _ in 0..<(1 + generator.int(4)) {
                let position = generator.int(text.count + 1)
                switch generator.int(3) {
                case 0:
                    text.insert(contentsOf: generator.pick(Self.fragments), at: position)
                case 1 where position < text.count:
                    text.removeSubrange(position..<min(text.count, position + 1 + generator.int(3)))
                default:
                    if position < text.count {
                        text[position] = generator.pick(Array("()[]{}'\"%$#@.,=<>!&|*+- 0a"))
                    }
                }
            }
            let format = String(text)
            let arguments: [Any?] = [1, "name", nil, [1, 2], 2.5]
            do {
                let predicate = try Predicate(format: format, argumentArray: arguments)
                parsedCount += 1
                let again = try Predicate(format: predicate.description)
                #expect(again == predicate, "\(format) → \(predicate)")
                for object in [PredicateFixture.person, [:] as EvaluationValue] {
                    _ = try? predicate.evaluate(with: object, variables: ["X": 1])
                }
            } catch {
                // Parsing throws only typed syntax errors, pointing inside the input.
                #expect(error.offset >= 0 && error.offset <= format.unicodeScalars.count)
                #expect(error.excerpt.contains("^"))
            }
        }
        #expect(parsedCount > 50)
    }

    @Test func hostileEvaluationInputs() throws {
        // Catastrophic LIKE patterns stay linear; huge collections and deep records are fine.
        let text = String(repeating: "a", count: 5_000)
        let like = try Predicate(format: "SELF LIKE %@", String(repeating: "*a", count: 500) + "b")
        #expect(try !like.evaluate(with: EvaluationValue.value(.string(text))))
        var deep: EvaluationValue = ["v": 1]
        for _ in 0..<200 { deep = ["next": deep] }
        let path = Array(repeating: "next", count: 200).joined(separator: ".") + ".v"
        #expect(try Predicate(format: "%K == 1", path).evaluate(with: deep))
        let many = EvaluationValue.collection((0..<100_000).map { .value(.integer(Int64($0))) })
        #expect(try Predicate(format: "ANY SELF == 99999 AND SELF.@sum > 0").evaluate(with: many))
    }
}

extension PredicateFuzzTests {
    @Test func distinctUnionOfManyValuesIsFast() throws {
        let values = (0..<50_000).map { EvaluationValue.value(.integer(Int64($0 % 1000))) }
        let doubles = (0..<10).map { EvaluationValue.value(.double(Double($0))) }
        let object: EvaluationValue = ["v": .collection(values + doubles)]
        let p = try ObjectGraph.Predicate(format: "v.@distinctUnionOfObjects.@count == 1000")
        #expect(try p.evaluate(with: object))
    }
}
