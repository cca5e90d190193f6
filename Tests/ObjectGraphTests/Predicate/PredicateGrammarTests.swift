import Foundation
import ObjectGraph
import Testing

// Foundation also declares `Predicate` and `Expression`.
private typealias Predicate = ObjectGraph.Predicate
private typealias Expression = ObjectGraph.Expression

/// Every production of the grammar: the input, and the canonical form it prints as.
@Suite struct PredicateGrammarTests {
    static let canonicalForms: [(String, String)] = [
        // Constants and compounds.
        ("TRUEPREDICATE", "TRUEPREDICATE"),
        ("falsepredicate", "FALSEPREDICATE"),
        ("(TRUEPREDICATE)", "TRUEPREDICATE"),
        ("a == 1 AND b == 2", "a == 1 AND b == 2"),
        ("a == 1 && b == 2 && c == 3", "a == 1 AND b == 2 AND c == 3"),
        ("a == 1 or b == 2 || c == 3", "a == 1 OR b == 2 OR c == 3"),
        ("NOT a == 1", "NOT a == 1"),
        ("!a == 1", "NOT a == 1"),
        ("not (a == 1 AND b == 2)", "NOT (a == 1 AND b == 2)"),
        ("(a == 1 AND b == 2) AND c == 3", "(a == 1 AND b == 2) AND c == 3"),
        // Comparison operators and their spellings.
        ("a = 1", "a == 1"),
        ("a == 1", "a == 1"),
        ("a != 1", "a != 1"),
        ("a <> 1", "a != 1"),
        ("a < 1", "a < 1"),
        ("a > 1", "a > 1"),
        ("a <= 1", "a <= 1"),
        ("a =< 1", "a <= 1"),
        ("a >= 1", "a >= 1"),
        ("a => 1", "a >= 1"),
        ("a BEGINSWITH 'x'", "a BEGINSWITH \"x\""),
        ("a endswith 'x'", "a ENDSWITH \"x\""),
        ("a CONTAINS 'x'", "a CONTAINS \"x\""),
        ("a LIKE 'x*'", "a LIKE \"x*\""),
        ("a MATCHES '[a-z]+'", "a MATCHES \"[a-z]+\""),
        ("a IN {1, 2}", "a IN {1, 2}"),
        ("a BETWEEN {1, 2}", "a BETWEEN {1, 2}"),
        // Options.
        ("a ==[c] 'x'", "a ==[c] \"x\""),
        ("a BEGINSWITH[d] 'x'", "a BEGINSWITH[d] \"x\""),
        ("a CONTAINS[cd] 'x'", "a CONTAINS[cd] \"x\""),
        ("a LIKE[dc] 'x'", "a LIKE[cd] \"x\""),
        ("a IN[c] {'x'}", "a IN[c] {\"x\"}"),
        ("a ==[n] 'x'", "a ==[n] \"x\""),
        ("a ==[l] 'x'", "a ==[l] \"x\""),
        ("a ==[CD] 'x'", "a ==[cd] \"x\""),
        // Quantifiers.
        ("ANY a == 1", "ANY a == 1"),
        ("SOME a == 1", "ANY a == 1"),
        ("ALL a > 1", "ALL a > 1"),
        ("NONE a == 1", "NOT ANY a == 1"),
        // Key paths, collection operators, SELF, escapes.
        ("a.b.c == 1", "a.b.c == 1"),
        ("items.@count > 2", "items.@count > 2"),
        ("items.@sum.price > 2", "items.@sum.price > 2"),
        ("items.@avg.price > 2", "items.@avg.price > 2"),
        ("items.@min.price > 2", "items.@min.price > 2"),
        ("items.@max.price > 2", "items.@max.price > 2"),
        (
            "items.@distinctUnionOfObjects.tag.@count == 2",
            "items.@distinctUnionOfObjects.tag.@count == 2"
        ),
        ("SELF == 1", "SELF == 1"),
        ("self.name == 'x'", "SELF.name == \"x\""),
        ("#IN == 1", "#IN == 1"),
        ("a.#size == 1", "a.#size == 1"),
        ("_x1 == $y_2", "_x1 == $y_2"),
        // Literals.
        ("a == 'single'", "a == \"single\""),
        ("a == \"double\"", "a == \"double\""),
        ("a == 'it\\'s \\\"q\\\" \\\\ \\n\\t\\r'", "a == \"it's \\\"q\\\" \\\\ \\n\\t\\r\""),
        ("a == '\\u0041\\u00e9'", "a == \"Aé\""),
        ("a == '\\u0001'", "a == \"\\u0001\""),
        ("a == 42", "a == 42"),
        ("a == -42", "a == -42"),
        ("a == 1.5", "a == 1.5"),
        ("a == 1e3", "a == 1000.0"),
        ("a == 2.5E-3", "a == 0.0025"),
        ("a == 0x1F", "a == 31"),
        ("a == 0o17", "a == 15"),
        ("a == 0b101", "a == 5"),
        ("a == -0x10", "a == -16"),
        ("a == 9223372036854775807", "a == 9223372036854775807"),
        ("a == -9223372036854775808", "a == -9223372036854775808"),
        ("a == 9223372036854775808", "a == 9.223372036854776e+18"),
        ("a == TRUE", "a == TRUE"),
        ("a == yes", "a == TRUE"),
        ("a == FALSE", "a == FALSE"),
        ("a == NO", "a == FALSE"),
        ("a == nil", "a == nil"),
        ("a == NULL", "a == nil"),
        ("a == '%@'", "a == \"%@\""),
        ("a == '$X'", "a == \"$X\""),
        // Aggregates and indexes.
        ("a IN {}", "a IN {}"),
        ("a IN {1, {2, 3}}", "a IN {1, {2, 3}}"),
        ("a[0] == 1", "a[0] == 1"),
        ("a[FIRST] == 1", "a[FIRST] == 1"),
        ("a[last] == 1", "a[LAST] == 1"),
        ("a[SIZE] == 1", "a[SIZE] == 1"),
        ("a['key'] == 1", "a[\"key\"] == 1"),
        ("a[0].b == 1", "a[0].b == 1"),
        ("{1, 2}[1] == 2", "{1, 2}[1] == 2"),
        // Arithmetic.
        ("a + 1 == 2", "a + 1 == 2"),
        ("a - 1 == 2", "a - 1 == 2"),
        ("a * 2 == b / 3", "a * 2 == b / 3"),
        ("a ** 2 == 4", "a ** 2 == 4"),
        ("a + b * c == 1", "a + (b * c) == 1"),
        ("(a + b) * c == 1", "(a + b) * c == 1"),
        ("a - b - c == 1", "a - b - c == 1"),
        ("-a == 1", "-a == 1"),
        ("- 5 == a", "-(5) == a"),
        ("-(a + 1) == 1", "-(a + 1) == 1"),
        ("--a == 1", "- -a == 1"),
        ("NOT NOT a == 1", "NOT NOT a == 1"),
        ("a * b / c ** 2 ** 3 == 1", "a * b / (c ** 2 ** 3) == 1"),
        ("a - (b - c) == 1", "a - (b - c) == 1"),
        ("a - -1 == 2", "a - -1 == 2"),
        ("a & 3 == 3", "a & 3 == 3"),
        ("bitwiseOr:with:(a, 1) == 1", "a | 1 == 1"),
        ("a ^ b | c == 1", "a ^ b | c == 1"),
        ("a + 1 & 2 == 0", "a + 1 & 2 == 0"),
        ("-(a & 1) == 1", "-(a & 1) == 1"),
        ("(a & 1).b == 1", "(a & 1).b == 1"),
        // Variables, functions, subqueries, ternary, cast.
        ("a == $VAR", "a == $VAR"),
        ("$x.name == 'a'", "$x.name == \"a\""),
        ("average({1, 2}) == 1.5", "average:({1, 2}) == 1.5"),
        ("sum:(a) == 1", "sum:(a) == 1"),
        ("count(a) == 1", "count:(a) == 1"),
        ("now() > d", "now() > d"),
        ("random() < 1", "random() < 1"),
        ("add:to:(1, 2) == 3", "add:to:(1, 2) == 3"),
        ("raise:toPower:(2, 3) == 8", "raise:toPower:(2, 3) == 8"),
        ("uppercase(name) == 'A'", "uppercase:(name) == \"A\""),
        ("FUNCTION(name, 'length') == 1", "FUNCTION(name, \"length\") == 1"),
        ("FUNCTION(a, 'f:', 1, 2) == 1", "FUNCTION(a, \"f:\", 1, 2) == 1"),
        ("SUBQUERY(items, $i, $i.p > 1).@count > 0", "SUBQUERY(items, $i, $i.p > 1).@count > 0"),
        (
            "TERNARY(a > 1, 'big', 'small') == 'big'",
            "TERNARY(a > 1, \"big\", \"small\") == \"big\""
        ),
        ("CAST(0, 'NSDate') == d", "CAST(0.0, \"NSDate\") == d"),
        ("CAST(a, 'NSNumber') == 1", "CAST(a, \"NSNumber\") == 1"),
        ("CAST('AQI=', 'NSData') == d", "CAST(\"AQI=\", \"NSData\") == d"),
        ("CAST('1.25', 'NSDecimalNumber') == d", "CAST(\"1.25\", \"NSDecimalNumber\") == d"),
        // Whitespace and case.
        ("  a\n==\t1  ", "a == 1"),
        ("a == 1 aNd b == 2", "a == 1 AND b == 2"),
    ]

    @Test(arguments: canonicalForms)
    func printsCanonicalForm(_ input: String, _ canonical: String) throws {
        let predicate = try Predicate(format: input)
        #expect(predicate.description == canonical)
        #expect(try Predicate(format: canonical) == predicate)
    }

    @Test func precedenceNotAndOr() throws {
        let p = try Predicate(format: "a == 1 OR b == 2 AND NOT c == 3")
        let a = Expression.key("a").equals(1)
        let b = Expression.key("b").equals(2)
        let c = Expression.key("c").equals(3)
        #expect(p == .or([a, .and([b, .not(c)])]))
        #expect(try Predicate(format: "NOT a == 1 AND b == 2") == .and([.not(a), b]))
        #expect(try Predicate(format: "a == 1 AND b == 2 OR c == 3") == .or([.and([a, b]), c]))
        #expect(try Predicate(format: "(a == 1 OR b == 2) AND c == 3") == .and([.or([a, b]), c]))
    }

    @Test func treeShapes() throws {
        let p = try Predicate(format: "ANY items.@sum.price >=[cd] $MIN")
        let expected = Predicate.comparison(
            Comparison(
                .keyPath(PredicateKeyPath([.key("items"), .operator(.sum), .key("price")])),
                .greaterThanOrEqual, .variable("MIN"), modifier: .any,
                options: [.caseInsensitive, .diacriticInsensitive]))
        #expect(p == expected)
        let e = try Expression(format: "chapters.@count")
        #expect(e == .keyPath(PredicateKeyPath([.key("chapters"), .operator(.count)])))
        #expect(try Expression(format: "(a).b") == .member(.key("a"), PredicateKeyPath("b")))
        #expect(try Expression(format: "a.b") == .key("a.b"))
    }

    @Test func constantsOfEveryType() throws {
        let id = ObjectID(entityName: "Book", storeIdentifier: "S1", key: .permanent(7))
        let temp = ObjectID(entityName: "Book", storeIdentifier: "", key: .temporary(UUID()))
        let values: [Value] = [
            .null, .integer(-3), .double(0.1), .double(-0.0), .double(1e300),
            .decimal(Decimal(string: "12.345") ?? 0),
            .string("é \"q\" \\ \n"), .bool(true),
            .date(Date(timeIntervalSince1970: 1_700_000_000.25)),
            .data(Data([0, 1, 255])), .uuid(UUID()),
            .uri(URL(string: "https://example.com/a?b=c") ?? URL(fileURLWithPath: "/")),
            .objectID(id), .objectID(temp), .double(.infinity), .double(-.infinity),
        ]
        for value in values {
            let p = Expression.key("a").equals(.constant(value))
            #expect(try Predicate(format: p.description) == p, "\(p)")
        }
    }
}
