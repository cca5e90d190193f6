import Foundation
import ObjectGraph
import Testing

// Foundation also declares `Predicate` and `Expression`.
private typealias Predicate = ObjectGraph.Predicate
private typealias Expression = ObjectGraph.Expression

/// The key path forms Apple's parser accepts (issue 20): `%K` anywhere in a key path, any
/// `@name` component, keys of strings and numbers, `#self`, and subquery variables compared
/// directly.
@Suite struct PredicateKeyPathFormsTests {
    /// Each format with its arguments, and the same predicate written without arguments.
    nonisolated(unsafe) static let formatArgumentCases:
        [(format: String, arguments: [Any?], same: String)] = [
            ("%K.name == %@", ["dept", nil], "dept.name == nil"),
            ("dept.%K == 'x'", ["boss.name"], "dept.boss.name == \"x\""),
            ("%K.%K.name == 'x'", ["dept", "boss"], "dept.boss.name == \"x\""),
            ("ANY %K.%K == 5", ["kids", "age"], "ANY kids.age == 5"),
            ("ALL %K.%K.@count == 0", ["kids", "toys"], "ALL kids.toys.@count == 0"),
            ("$x.%K == 1", ["age"], "$x.age == 1"),
            ("$x.%K.%K == 1", ["dept", "name"], "$x.dept.name == 1"),
            ("SELF.%K == 1", ["age"], "SELF.age == 1"),
            ("%K.@count > 1", ["tags"], "tags.@count > 1"),
            ("kids.%K > 1", ["@count"], "kids.@count > 1"),
            ("kids.@sum.%K > 1", ["age"], "kids.@sum.age > 1"),
            ("#dept.%K == 'R&D'", ["name"], "dept.name == \"R&D\""),
            (
                "SUBQUERY(%K, $k, $k.%K > %@).@count == 1", ["kids", "age", 5],
                "SUBQUERY(kids, $k, $k.age > 5).@count == 1"
            ),
            (
                "SUBQUERY(kids, $k, ANY $k.%K.%K == %@).@count > 0", ["toys", "name", "ball"],
                "SUBQUERY(kids, $k, ANY $k.toys.name == \"ball\").@count > 0"
            ),
            ("%K.%K == 1", ["in", "size"], "#in.#size == 1"),
        ]

    @Test("%K inside key paths, after $variables and inside SUBQUERY")
    func formatSpecifiersInsideKeyPaths() throws {
        for (format, arguments, same) in Self.formatArgumentCases {
            let parsed = try Predicate(format: format, argumentArray: arguments)
            #expect(parsed == (try Predicate(format: same)), "\(format)")
            #expect(parsed.description == same, "\(format)")
        }
        let person = PredicateFixture.person
        #expect(try Predicate(format: "ANY %K.%K == 5", "kids", "age").evaluate(with: person))
        #expect(
            try Predicate(format: "SUBQUERY(%K, $k, $k.%K > %@).@count == 1", "kids", "age", 5)
                .evaluate(with: person))
        #expect(
            try Predicate(format: "$x.%K == 'Ann'", "name").evaluate(
                with: person, variables: ["x": ["name": "Ann"]]))
    }

    @Test("%K after a dot still needs a key path argument")
    func keyPathArgumentErrors() throws {
        let error = try #require(Predicate.syntaxCheckWith("a.%K == 1", [3]))
        #expect(error.offset == 2)
        #expect(error.expected == "a key path string for %K")
        let missing = try #require(Predicate.syntaxCheckWith("a.%K == 1", []))
        #expect(missing.expected == "a format argument for %K")
        #expect(Predicate.syntaxCheckWith("a.%@ == 1", ["b"])?.expected == "a key name")
    }

    @Test("an unknown @name parses and prints as written, and fails when evaluated")
    func unknownCollectionOperators() throws {
        for text in [
            "kids.@lastObject == nil", "@foo == 1", "kids.@firstObject.name == \"Ann\"",
            "ANY kids.toys.@bogus.name == 1", "SELF.@x == 1", "$v.@size.@count == 1",
        ] {
            let parsed = try Predicate(format: text)
            #expect(parsed.description == text)
            #expect(try Predicate(format: parsed.description) == parsed)
        }
        #expect(
            try Predicate(format: "kids.@lastObject == nil")
                == .comparison(
                    Comparison(.keyPath(PredicateKeyPath("kids.@lastObject")), .equal, nil)))
        #expect(throws: PredicateEvaluationError.unknownCollectionOperator("@lastObject")) {
            try PredicateFixture.evaluate("kids.@lastObject == nil")
        }
        #expect(throws: PredicateEvaluationError.unknownCollectionOperator("@bogus")) {
            try PredicateFixture.evaluate("ANY kids.toys.@bogus.name == 1")
        }
        // `#"@count"` is the key "@count", which key-value coding reads as the operator.
        #expect(
            try Predicate(format: "kids.#\"@count\" == 2").description == "kids.#\"@count\" == 2")
        #expect(try PredicateFixture.evaluate("kids.#\"@count\" == 2"))
        let message = PredicateEvaluationError.unknownCollectionOperator("@lastObject").description
        #expect(message.hasPrefix("@lastObject is not a collection operator (@count, @sum"))
    }

    @Test("#self after collection operators and anywhere in a key path")
    func selfKeys() throws {
        let numbers: EvaluationValue = ["scores": [1, 2, 3, 2], "name": "Ada", "kids": [["a": 1]]]
        let values = [
            ("scores.@sum.#self", "8"), ("scores.@max.#self", "3"), ("scores.@avg.#self", "2.0"),
            ("scores.@distinctUnionOfObjects.#self.@count", "3"), ("name.#self", "\"Ada\""),
            ("#self.name", "\"Ada\""), ("kids.#self.a", "{1}"), ("SELF.#self.name", "\"Ada\""),
        ]
        for (format, expected) in values {
            #expect(
                try PredicateFixture.value(format, numbers).description == expected, "\(format)")
        }
        #expect(
            try PredicateFixture.evaluate(
                "scores.@sum.#self == 8 AND ANY scores.#self == 3", numbers))
        #expect(
            try Predicate(format: "scores.@sum.#self == 8").description == "scores.@sum.#self == 8")
        #expect(
            try Predicate(format: "scores.@sum.%K == 8", "self").description
                == "scores.@sum.#self == 8")
    }

    @Test("keys of strings, numbers and dates, as key-value coding reads them")
    func scalarKeys() throws {
        let record: EvaluationValue = [
            "name": "Café 🙂", "code": "  -12abc", "big": "99999999999", "real": "1.5e3x",
            "yes": " +00y", "no": "0", "ratio": 2.75, "n": 41, "nothing": nil,
            "words": ["ab", "cde", "f"], "when": .value(.date(Date(timeIntervalSince1970: 10))),
        ]
        let cases: [(String, String)] = [
            ("name.length", "7"),  // UTF-16 units, as NSString counts
            ("name.uppercaseString", "\"CAFÉ 🙂\""), ("name.lowercaseString", "\"café 🙂\""),
            ("name.capitalizedString", "\"Café 🙂\""), ("name.description", "\"Café 🙂\""),
            ("code.intValue", "-12"), ("code.integerValue", "-12"), ("code.longLongValue", "-12"),
            ("big.intValue", "2147483647"), ("big.integerValue", "99999999999"),
            ("real.doubleValue", "1500.0"), ("real.floatValue", "1500.0"),
            ("name.doubleValue", "0.0"), ("yes.boolValue", "\(Value.bool(true))"),
            ("no.boolValue", "\(Value.bool(false))"),
            ("ratio.intValue", "2"), ("ratio.doubleValue", "2.75"),
            ("n.boolValue", "\(Value.bool(true))"),
            ("n.doubleValue", "41.0"), ("when.timeIntervalSince1970", "10.0"),
            ("nothing.length", "nil"), ("words.length", "{2, 3, 1}"), ("words.@sum.length", "6"),
            ("words.@max.length", "3"), ("FUNCTION(name, 'length')", "7"),
            ("FUNCTION(code, 'intValue')", "-12"),
        ]
        for (format, expected) in cases {
            #expect(try PredicateFixture.value(format, record).description == expected, "\(format)")
        }
        #expect(try PredicateFixture.evaluate("ANY words.length == 3 AND name.length > 5", record))
        #expect(throws: PredicateEvaluationError.unknownKey("size", in: "NSString")) {
            try PredicateFixture.value("name.size", record)
        }
        #expect(throws: PredicateEvaluationError.unknownKey("length", in: "NSNumber")) {
            try PredicateFixture.value("n.length", record)
        }
    }

    @Test("subquery variables compared directly, with values and with each other")
    func subqueryVariableComparisons() throws {
        let trueCases = [
            "SUBQUERY(tags, $t, $t == 'a').@count == 1",
            "SUBQUERY(tags, $t, $t ==[c] 'b').@count == 2",
            "SUBQUERY(tags, $t, $t IN {'a', 'B'}).@count == 2",
            "SUBQUERY(tags, $t, 'b' == $t OR $t BEGINSWITH 'a').@count == 2",
            "SUBQUERY(numbers, $n, $n > 1 AND $n < 3).@count == 1",
            "SUBQUERY(numbers, $n, $n BETWEEN {1, 2.5}).@count == 2",
            "SUBQUERY(kids, $k, $k.age > 5).@count == 1",
            "SUBQUERY(kids, $k, $k != nil AND $k.name.length == 3).@count == 2",
            // Inside a SUBQUERY, plain key paths and SELF read the element: the outer
            // collection comes in as a variable.
            "SUBQUERY(kids, $k, SUBQUERY($K, $j, $j.age < $k.age).@count == 1).@count == 1",
            "SUBQUERY(kids, $k, SUBQUERY($K, $j, $j == $k).@count == 1).@count == 2",
            "SUBQUERY(kids, $k, SELF.name == $k.name AND $k.age == age).@count == 2",
            "SUBQUERY(tags, $t, SUBQUERY($T, $u, $u ==[c] $t).@count == 2).@count == 2",
            "SUBQUERY(tags, $t, ANY $T ==[c] $t AND NOT $t IN $K.name).@count == 3",
            "SUBQUERY(tags, $t, $t.length == 1 AND $t.uppercaseString == 'B').@count == 2",
            "SUBQUERY(numbers, $n, $n.#self >= 2.5).@count == 2",
            "SUBQUERY(kids, $k, $k.toys.@count == 1).@count == 1",
        ]
        for text in trueCases {
            let variables: [String: EvaluationValue] = [
                "K": try PredicateFixture.value("kids"), "T": try PredicateFixture.value("tags"),
            ]
            #expect(try PredicateFixture.evaluate(text, variables: variables), "\(text)")
            let parsed = try Predicate(format: text)
            #expect(try Predicate(format: parsed.description) == parsed, "\(text)")
        }
    }
}
