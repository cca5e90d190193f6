import Foundation
import ObjectGraph
import Testing

// Foundation also declares `Predicate` and `Expression`.
private typealias Predicate = ObjectGraph.Predicate
private typealias Expression = ObjectGraph.Expression

/// Each error path of the parser, with the offset it reports.
@Suite struct PredicateSyntaxErrorTests {
    static let errors: [(input: String, offset: Int, expected: String)] = [
        ("", 0, "an expression"),
        ("age >", 5, "an expression"),
        ("age", 3, "a comparison operator"),
        ("age 30", 4, "a comparison operator"),
        ("a == 1 AND", 10, "an expression"),
        ("a == 1 b == 2", 7, "end of input"),
        ("(a == 1", 7, "')'"),
        ("a == 1)", 6, "end of input"),
        ("a == 'open", 10, "a closing ' for the string at offset 5"),
        ("a == \"x\\", 8, "an escaped character after '\\'"),
        ("a == '\\u12'", 10, "four hexadecimal digits after '\\u'"),
        ("a == '\\uD800'", 6, "a valid Unicode scalar"),
        ("a == 1 ? 2", 7, "a token"),
        ("a == 0x", 7, "digits after '0x'"),
        ("a == 0b102", 5, "a number in base 2"),
        ("a == 0xFFFFFFFFFFFFFFFF", 5, "a number that fits in 64 bits"),
        ("a == 12abc", 7, "a separator after the number"),
        ("a ==[x] 1", 5, "comparison options (c, d, cd, n, l)"),
        ("a ==[c 1", 7, "']'"),
        ("a ==[] 1", 5, "comparison options (c, d, cd, n, l)"),
        ("a == %", 6, "a format conversion (%@, %K, %d, %f, %s…)"),
        ("a == %@", 5, "a format argument for %@"),
        ("%K == 1", 0, "a format argument for %K"),
        ("a == %%", 5, "an expression ('%%' is not a value)"),
        ("a == $", 6, "an identifier after '$'"),
        ("# == 1", 1, "an identifier after '#'"),
        // An unknown `@name` parses (issue 20: an evaluation error, as on Apple platforms).
        ("a.%@ == 1", 2, "a key name"),
        ("a. == 1", 3, "a key name"),
        ("AND == 1", 0, "an expression (escape a key named like a keyword as '#AND')"),
        ("a == {1, 2", 10, "'}'"),
        ("a[1 == 2", 4, "']'"),
        ("nosuch(1) == 2", 0, "a known function (average, sum, count, now, add:to:, …)"),
        ("add:to:(1) == 2", 0, "2 argument(s) for add:to:"),
        ("SUBQUERY(a, x, x == 1).@count > 0", 12, "a variable ($x) naming the element"),
        ("SUBQUERY(a, $x $x == 1) > 0", 15, "','"),
        ("TERNARY(a, 1, 2) == 1", 9, "a comparison operator"),
        ("CAST(1, 2) == 1", 8, "a class name string such as \"NSDate\""),
        ("FUNCTION(a, 1) == 1", 12, "a selector name string such as \"uppercaseString\""),
        ("ANY == 1", 4, "an expression"),
    ]

    @Test(arguments: errors)
    func reportsOffsetAndExpectation(_ input: String, _ offset: Int, _ expected: String) {
        let error = Predicate.syntaxCheck(input)
        #expect(error?.offset == offset, "\(input): \(String(describing: error))")
        #expect(error?.expected == expected, "\(input): \(String(describing: error))")
    }

    @Test func messageAndExcerptWithCaret() throws {
        let error = try #require(Predicate.syntaxCheck("name ==[c] 'x' AND age >"))
        #expect(error.message == "expected an expression but found end of input at offset 24")
        #expect(error.excerpt == "  name ==[c] 'x' AND age >\n                          ^")
        #expect(error.description == error.message + "\n" + error.excerpt)
        let found = try #require(Predicate.syntaxCheck("a == 1 b"))
        #expect(found.found == "'b'")
    }

    @Test func excerptOfLongInputIsOneWindowedLine() throws {
        let long = String(repeating: "a == 1 AND ", count: 50) + "b ==\n?"
        let error = try #require(Predicate.syntaxCheck(long))
        let lines = error.excerpt.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("  ..."))
        let column = try #require(Array(lines[1]).firstIndex(of: "^"))
        #expect(Array(lines[0])[column] == "?")
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        let parentheses = String(repeating: "(", count: 100_000)
        let error = try #require(Predicate.syntaxCheck(parentheses + "a == 1"))
        #expect(error.expected == "at most 256 levels of nesting")
        #expect(error.offset == 256)
        for hostile in [
            String(repeating: "NOT ", count: 100_000) + "a == 1",
            "a == " + String(repeating: "-", count: 100_000) + "1",
            "a == " + String(repeating: "{", count: 100_000),
            "a == " + Array(repeating: "1", count: 100_000).joined(separator: " + "),
            "a" + String(repeating: "[0]", count: 100_000) + " == 1",
            String(repeating: "SUBQUERY(a, $x, ", count: 50_000),
            String(repeating: "TERNARY(", count: 50_000),
            "a == " + String(repeating: "average(", count: 50_000),
            String(repeating: "ANY (", count: 50_000),
        ] {
            #expect(Predicate.syntaxCheck(hostile) != nil)
        }
        // Just under the limit parses, prints and evaluates.
        let nested =
            String(repeating: "(", count: 250) + "a == 1" + String(repeating: ")", count: 250)
        let p = try Predicate(format: nested)
        #expect(p.description == "a == 1")
        let sum = "a == " + Array(repeating: "1", count: 250).joined(separator: " + ")
        let q = try Predicate(format: sum)
        #expect(try q.evaluate(with: ["a": 250] as [String: EvaluationValue]))
        #expect(try Predicate(format: q.description) == q)
    }

    @Test func wideInputIsFine() throws {
        let terms = (0..<100_000).map { "a == \($0)" }.joined(separator: " OR ")
        let p = try Predicate(format: terms)
        #expect(try p.evaluate(with: ["a": 99_999] as [String: EvaluationValue]))
        let list = "a IN {" + (0..<100_000).map(String.init).joined(separator: ", ") + "}"
        #expect(try Predicate(format: list).evaluate(with: ["a": 5] as [String: EvaluationValue]))
    }

    @Test func expressionSyntaxCheck() {
        #expect(Expression.syntaxCheck("chapters.@count") == nil)
        #expect(Expression.syntaxCheck("price * quantity") == nil)
        #expect(Expression.syntaxCheck("a ==")?.expected == "end of input")
        #expect(Predicate.syntaxCheck("name == $NAME") == nil)
    }
}

extension PredicateSyntaxErrorTests {
    /// The deepest input the parser accepts, for every nesting construct, parses, prints,
    /// re-parses and evaluates without exhausting a test thread's stack.
    @Test func deepestAcceptedNestingIsSafe() throws {
        func nest(_ count: Int, _ body: (String) -> String, _ base: String) -> String {
            var text = base
            for _ in 0..<count { text = body(text) }
            return text
        }
        let inputs = [
            nest(127, { "SUBQUERY(kids, $x, \($0)).@count >= 0" }, "TRUEPREDICATE"),
            nest(120, { "TERNARY(\($0), 1, 2) > 0" }, "TRUEPREDICATE"),
            "a == " + nest(126, { "abs(\($0))" }, "1"),
            "a == " + nest(254, { "{\($0)}" }, "1"),
            nest(254, { "(\($0))" }, "a == 1"),
            nest(254, { "NOT \($0)" }, "a == 1"),
            "a == " + nest(254, { "-\($0)" }, "b"),
            "a" + String(repeating: "[0]", count: 254) + " == 1",
            "a == " + nest(254, { "(\($0) + 1)" }, "1"),
        ]
        let object: EvaluationValue = ["a": 1, "b": 2, "kids": [["x": 1]]]
        for input in inputs {
            let predicate = try ObjectGraph.Predicate(format: input)
            #expect(try ObjectGraph.Predicate(format: predicate.description) == predicate)
            _ = try? predicate.evaluate(with: object)
        }
    }
}
