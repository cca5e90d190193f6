import Foundation
import Testing

@testable import ObjectGraph

// Foundation also declares `Predicate` and `Expression`.
private typealias Predicate = ObjectGraph.Predicate
private typealias Expression = ObjectGraph.Expression

/// Canonical printing is a fixed point for every key and variable name: a name that is not a
/// plain identifier prints as `#"…"` (`$"…"` for a variable), a reserved word as `#word`, and
/// the printed form parses back to the same predicate.
@Suite("Predicates: awkward keys print in a form that parses back")
struct PredicateKeyQuotingTests {
    static let awkwardKeys = [
        "a b", "AND", "and", "in", "Or", "not", "SELF", "nil", "first", "size", "anykey",
        "TRUEPREDICATE", "subquery", "a.b", ".", "..", "1a", "42", "", " ", "@count", "@sum",
        "@foo", "@", "$x", "#x", "x#", "x$", "$", "%K", "%@", "a-b", "a+b", "a[0]", "(a)", "{}",
        "a,b", "a\"b", "a'b", "a\\b", "\\", "\"", "'", "\n", "\t", "\r\n", "\u{0}", "\u{7F}",
        "é", "e\u{301}", "\u{301}", "日本語", "🙂", "a🙂", "Ⅻ", "ın", "İN", "ﬁrst", "_", "__x",
        "x_1", "\u{2028}", "\u{85}", "a\u{200B}b", "Z_PK", "name",
    ]

    /// The predicates printed in canonical form, then parsed and printed again.
    fileprivate static func checkFixedPoint(
        _ predicate: Predicate, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let printed = predicate.description
        do {
            let reparsed = try Predicate(format: printed)
            #expect(reparsed == predicate, "\(printed)", sourceLocation: sourceLocation)
            #expect(reparsed.description == printed, sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(printed) does not parse: \(error)", sourceLocation: sourceLocation)
        }
    }

    fileprivate static func equalsOne(_ left: Expression) -> Predicate {
        .comparison(Comparison(left, .equal, .constant(.integer(1))))
    }

    @Test("each awkward key, alone and in a path, through %K and built in code")
    func singleKeys() throws {
        for key in Self.awkwardKeys {
            Self.checkFixedPoint(Self.equalsOne(.keyPath(PredicateKeyPath([.key(key)]))))
            Self.checkFixedPoint(
                Self.equalsOne(.keyPath(PredicateKeyPath([.key("a"), .key(key), .key("b")]))))
            Self.checkFixedPoint(
                Self.equalsOne(.member(.variable("v"), PredicateKeyPath([.key(key)]))))
            Self.checkFixedPoint(Self.equalsOne(.variable(key)))
            Self.checkFixedPoint(try Predicate(format: "%K == 1", key.isEmpty ? "k" : key))
        }
    }

    @Test("random paths of awkward keys and operators, 2,000 of them")
    func randomPaths() throws {
        var random = SeededRandom(seed: 15)
        let operators = CollectionOperator.allCases
        for _ in 0..<2_000 {
            var components: [PredicateKeyPath.Component] = []
            for _ in 0..<(1 + random.next(5)) {
                if random.next(4) == 0 {
                    components.append(.operator(operators[random.next(operators.count)]))
                } else {
                    components.append(.key(Self.awkwardKeys[random.next(Self.awkwardKeys.count)]))
                }
            }
            let path = PredicateKeyPath(components)
            let variable = Self.awkwardKeys[random.next(Self.awkwardKeys.count)]
            let predicate: Predicate =
                .and([
                    Self.equalsOne(.keyPath(path)),
                    .comparison(
                        Comparison(
                            .subquery(
                                .keyPath(path), variable, Self.equalsOne(.variable(variable))),
                            .equal, .constant(.integer(0)))),
                ])
            Self.checkFixedPoint(predicate)
        }
    }

    @Test("plain identifiers and reserved words keep their usual spelling")
    func usualSpellings() throws {
        #expect(try Predicate(format: "%K == 1", "name").description == "name == 1")
        #expect(try Predicate(format: "%K == 1", "in").description == "#in == 1")
        #expect(try Predicate(format: "%K == 1", "a b").description == "#\"a b\" == 1")
        #expect(try Predicate(format: "%K == 1", "a.1b").description == "a.#\"1b\" == 1")
        #expect(try Predicate(format: "$\"x y\" == 1") == Self.equalsOne(.variable("x y")))
        #expect(try Predicate(format: "#'a b' == 1").description == "#\"a b\" == 1")
    }
}
