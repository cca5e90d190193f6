import Foundation
import ObjectGraph
import Testing

// Foundation also declares `Predicate` and `Expression`.
private typealias Predicate = ObjectGraph.Predicate
private typealias Expression = ObjectGraph.Expression

/// Format arguments (`%@`, `%K`, printf conversions) and substitution variables.
@Suite struct PredicateArgumentTests {
    @Test func objectArgumentsOfEveryType() throws {
        let date = Date(timeIntervalSinceReferenceDate: 5)
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()
        let url = URL(string: "https://example.com") ?? URL(fileURLWithPath: "/")
        let id = ObjectID(entityName: "E", storeIdentifier: "S", key: .permanent(3))
        let optional: Int? = 4
        let missing: String? = nil
        let cases: [(Any?, String)] = [
            ("text", "a == \"text\""), (Substring("sub"), "a == \"sub\""), (42, "a == 42"),
            (Int8(-8), "a == -8"), (UInt16(16), "a == 16"),
            (UInt64.max, "a == CAST(\"18446744073709551615\", \"NSDecimalNumber\")"),
            (2.5, "a == 2.5"), (Float(0.5), "a == 0.5"), (true, "a == TRUE"),
            (Decimal(string: "1.5"), "a == CAST(\"1.5\", \"NSDecimalNumber\")"),
            (date, "a == CAST(5.0, \"NSDate\")"),
            (Data([1, 2]), "a == CAST(\"AQI=\", \"NSData\")"),
            (uuid, "a == CAST(\"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\", \"NSUUID\")"),
            (url, "a == CAST(\"https://example.com\", \"NSURL\")"), (Value.integer(7), "a == 7"),
            (id, "a == CAST(\"x-coredata://S/E/p3\", \"NSManagedObjectID\")"), (nil, "a == nil"),
            (optional, "a == 4"), (missing, "a == nil"), (NSNull(), "a == nil"),
            (NSNumber(value: 3), "a == 3"), ([1, 2], "a == {1, 2}"),
            (Set(["b", "a"]), "a == {\"a\", \"b\"}"),
            (["y": 2, "x": 1], "a == {1, 2}"), (Expression.key("b.c"), "a == b.c"),
            (EvaluationValue.collection([1, "x"]), "a == {1, \"x\"}"),
            ([[1], []] as [[Int]], "a == {{1}, {}}"),
        ]
        for (argument, expected) in cases {
            let p = try Predicate(format: "a == %@", argument)
            #expect(p.description == expected, "\(String(describing: argument))")
            #expect(try Predicate(format: "a == %@", argumentArray: [argument]) == p)
        }
    }

    @Test func keyPathArguments() throws {
        #expect(try Predicate(format: "%K == 1", "dept.name").description == "dept.name == 1")
        #expect(
            try Predicate(format: "%K > 1", "items.@count") == (Expression.key("items.@count") > 1))
        #expect(try Predicate(format: "%K.name == 1", "dept").description == "dept.name == 1")
        #expect(try Predicate(format: "%K == %@", "in", "x").description == "#in == \"x\"")
        let error = try #require(Predicate.syntaxCheckWith("a == 1 AND %K == 2", [3]))
        #expect(error.offset == 11)
        #expect(error.expected == "a key path string for %K")
        #expect(error.found == "a value of type Int")
    }

    @Test func printfConversions() throws {
        let p = try Predicate(
            format: "a == %d AND b == %i AND c == %ld AND d == %lld AND e == %u AND f == %lu",
            1, Int32(2), Int64(3), true, UInt8(5), 6.0)
        #expect(p.description == "a == 1 AND b == 2 AND c == 3 AND d == 1 AND e == 5 AND f == 6")
        let q = try Predicate(
            format: "a == %f OR b == %lf OR c == %s OR d == %@", 1, Float(2.5), "s", "t")
        #expect(q.description == "a == 1.0 OR b == 2.5 OR c == \"s\" OR d == \"t\"")
        #expect(try Predicate(format: "a == %x", 255).description == "a == 255")
        #expect(throws: PredicateSyntaxError.self) { try Predicate(format: "a == %d", "x") }
        #expect(throws: PredicateSyntaxError.self) { try Predicate(format: "a == %d", 1.5) }
        #expect(throws: PredicateSyntaxError.self) { try Predicate(format: "a == %f", "x") }
        #expect(throws: PredicateSyntaxError.self) { try Predicate(format: "a == %s", 1) }
    }

    @Test func argumentErrors() throws {
        struct Custom {}
        let unsupported = try #require(Predicate.syntaxCheckWith("a == %@", [Custom()]))
        #expect(unsupported.offset == 5)
        #expect(unsupported.expected == "a value of a supported type")
        #expect(unsupported.found == "a value of type Custom")
        let tooFew = try #require(Predicate.syntaxCheckWith("a == %@ AND b == %@", [1]))
        #expect(tooFew.offset == 17)
        #expect(tooFew.found == "only 1 argument(s)")
        // Quoted format specifiers and variables are plain strings.
        let quoted = try Predicate(format: "a == '%@' AND b == \"$X\"")
        #expect(
            quoted == .and([Expression.key("a").equals("%@"), Expression.key("b").equals("$X")]))
        // Extra arguments are ignored, as in Foundation.
        #expect(try Predicate(format: "a == %@", 1, 2).description == "a == 1")
    }

    @Test func substitutionVariables() throws {
        let template = try Predicate(format: "name == $NAME AND age > $AGE AND tag IN $TAGS")
        #expect(template.variableNames == ["AGE", "NAME", "TAGS"])
        let p = template.withSubstitutionVariables(["NAME": "Ada", "AGE": 30])
        #expect(p.description == "name == \"Ada\" AND age > 30 AND tag IN $TAGS")
        #expect(p.variableNames == ["TAGS"])
        let q = p.withSubstitutionVariables(expressions: ["TAGS": ["x", "y"]])
        #expect(q.description == "name == \"Ada\" AND age > 30 AND tag IN {\"x\", \"y\"}")
        let record: EvaluationValue = ["name": "Ada", "age": 31, "tag": "y"]
        #expect(try q.evaluate(with: record))
        #expect(throws: PredicateEvaluationError.unboundVariable("TAGS")) {
            try p.evaluate(with: record)
        }
        // A subquery's own variable is not replaced inside it.
        let s = try Predicate(format: "SUBQUERY(kids, $k, $k.age > $MIN AND $k != nil).@count > $k")
        #expect(s.variableNames == ["MIN", "k"])
        let t = s.withSubstitutionVariables(["k": 1, "MIN": 2])
        #expect(t.description == "SUBQUERY(kids, $k, $k.age > 2 AND $k != nil).@count > 1")
        let e = try Expression(format: "$A + 1").withSubstitutionVariables(expressions: ["A": 2])
        #expect(e.description == "2 + 1")
        let dated = try Predicate(format: "d > CAST($T, 'NSDate')").withSubstitutionVariables([
            "T": 0
        ])
        #expect(dated.description == "d > CAST(0.0, \"NSDate\")")
    }
}

extension Predicate {
    /// Parses with arguments and returns the syntax error, if any.
    static func syntaxCheckWith(_ format: String, _ arguments: [Any?]) -> PredicateSyntaxError? {
        do {
            _ = try Predicate(format: format, argumentArray: arguments)
            return nil
        } catch {
            return error
        }
    }
}

extension PredicateArgumentTests {
    @Test func convertingSwiftValues() throws {
        let row = try #require(
            EvaluationValue(
                converting: ["name": "Ada", "langs": ["en", "fr"], "age": 36, "x": nil]
                    as [String: Any?]))
        #expect(
            try ObjectGraph.Predicate(
                format: "name == 'Ada' AND ANY langs == 'fr' AND age > 30 AND x == nil"
            ).evaluate(with: row))
        #expect(EvaluationValue(converting: Set([1, 2]))?.description.count == 6)
        struct Unknown {}
        #expect(EvaluationValue(converting: [Unknown()]) == nil)
    }
}
