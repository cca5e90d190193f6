import Foundation
import ObjectGraph
import Testing

// Foundation also declares `Predicate` and `Expression`.
private typealias Predicate = ObjectGraph.Predicate
private typealias Expression = ObjectGraph.Expression

/// The canonical form is a fixed point: printing a tree and parsing the text gives the same
/// tree, which evaluates identically.
@Suite struct PredicateRoundTripTests {
    static var objects: [EvaluationValue] {
        [
            PredicateFixture.person, [:],
            ["name": "x", "age": 1.5, "tags": [1, "a"], "kids": [["age": 2]]],
        ]
    }

    @Test(arguments: [1 as UInt64, 2, 3, 4])
    func printParseFixedPoint(seed: UInt64) throws {
        var generator = PredicateGenerator(seed: seed)
        for _ in 0..<1_000 {
            let predicate = generator.predicate(depth: 4)
            let text = predicate.description
            let parsed = try Predicate(format: text)
            #expect(parsed == predicate, "\(text)")
            #expect(parsed.description == text)
            for object in Self.objects {
                #expect(outcome(predicate, object) == outcome(parsed, object), "\(text)")
            }
        }
    }

    @Test func expressionsRoundTripToo() throws {
        var generator = PredicateGenerator(seed: 99)
        for _ in 0..<1_000 {
            let expression = generator.expression(depth: 4)
            #expect(try Expression(format: expression.description) == expression, "\(expression)")
        }
    }

    /// Apple's key path forms (issue 20) print to text that parses back to the same tree and
    /// prints the same: `%K` spliced into key paths, unknown `@name` keys, `#self`, string keys.
    @Test func keyPathFormsAreFixedPoints() throws {
        let cases: [(String, [Any?])] = [
            ("ANY %K.%K == 1", ["kids", "age"]), ("$x.%K.@lastObject == 1", ["a.b"]),
            ("SUBQUERY(%K, $k, $k.%K == $k).@count > 0", ["kids", "self"]),
            ("items.@foo.#self.name.length > 2", []), ("%K == 1", ["a.@bar.#\"x y\""]),
            ("kids.%K == 1", ["@count"]), ("kids.#\"@count\" == 1", []),
        ]
        for (format, arguments) in cases {
            let parsed = try Predicate(format: format, argumentArray: arguments)
            let text = parsed.description
            let reparsed = try Predicate(format: text)
            #expect(reparsed == parsed, "\(format) printed \(text)")
            #expect(reparsed.description == text, "\(format)")
        }
    }

    private func outcome(_ predicate: Predicate, _ object: EvaluationValue) -> String {
        do {
            return try predicate.evaluate(with: object, variables: ["X": 1, "min": "a"])
                ? "true" : "false"
        } catch {
            return "\(error)"
        }
    }
}
