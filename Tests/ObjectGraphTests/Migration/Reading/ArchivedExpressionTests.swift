import Foundation
import KeyedArchive
import ObjectGraph
import Testing

/// Archived `NSExpression`s and `NSPredicate`s (as Xcode writes them into mapping models)
/// decode to the ObjectGraph expression or predicate with the same meaning and printing.
@Suite struct ArchivedExpressionTests {
    typealias Expression = ObjectGraph.Expression
    typealias Predicate = ObjectGraph.Predicate

    /// Decodes the archive `make` builds.
    static func expression(_ make: (inout ExpressionArchiveBuilder) -> PropertyListObject)
        throws(ArchivedPredicateError) -> Expression
    {
        var archive = ExpressionArchiveBuilder()
        let root = make(&archive)
        return try Expression(archivedData: archive.data(root: root))
    }

    static func predicate(_ make: (inout ExpressionArchiveBuilder) -> PropertyListObject)
        throws(ArchivedPredicateError) -> Predicate
    {
        var archive = ExpressionArchiveBuilder()
        let root = make(&archive)
        return try Predicate(archivedData: archive.data(root: root))
    }

    @Test("key paths on $source, on the object and with collection operators")
    func keyPaths() throws {
        let source = try Self.expression {
            $0.keyPath("numberOfFlagella", on: $0.variable("source"))
        }
        #expect(source == (try Expression(format: "$source.numberOfFlagella")))
        #expect(source.description == "$source.numberOfFlagella")
        let plain = try Self.expression { $0.keyPath("department.name") }
        #expect(plain == (try Expression(format: "department.name")))
        let count = try Self.expression { $0.keyPath("friends.@count", on: $0.variable("source")) }
        #expect(count.description == "$source.friends.@count")
        let nested = try Self.expression { a in
            a.keyPath("name", on: a.keyPath("owner", on: a.variable("source")))
        }
        #expect(nested == (try Expression(format: "$source.owner.name")))
    }

    @Test("constants of every plain kind")
    func constants() throws {
        #expect(try Self.expression { $0.constant(.bool(true)) } == .constant(.bool(true)))
        #expect(try Self.expression { $0.constant(.integer(42)) } == .constant(.integer(42)))
        #expect(try Self.expression { $0.constant(.real(2.5)) } == .constant(.double(2.5)))
        #expect(try Self.expression { $0.constant(.string("x")) } == .constant(.string("x")))
        #expect(
            try Self.expression { $0.expression("NSConstantValueExpression", type: 0, [:]) }
                == .constant(.null))
    }

    @Test("FUNCTION($manager, …) as Xcode writes relationship mappings")
    func managerFunction() throws {
        let format =
            "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\","
            + " \"PersonToPerson\", $source.friends)"
        let decoded = try Self.expression { a in
            a.function(
                "destinationInstancesForEntityMappingNamed:sourceInstances:",
                on: a.variable("manager"),
                [
                    a.constant(.string("PersonToPerson")),
                    a.keyPath("friends", on: a.variable("source")),
                ])
        }
        #expect(decoded == (try Expression(format: format)))
        #expect(decoded.description == format)
    }

    @Test("built-in functions, arithmetic, indexes and casts")
    func builtins() throws {
        let product = try Self.expression { a in
            a.builtin("multiply:by:", [a.keyPath("price"), a.keyPath("quantity")])
        }
        #expect(product == (try Expression(format: "price * quantity")))
        let sum = try Self.expression { a in
            a.builtin(
                "sum:",
                [
                    a.expression(
                        "NSAggregateExpression", type: 14,
                        [
                            "NSCollection": a.list([
                                a.constant(.integer(1)), a.constant(.integer(2)),
                            ])
                        ])
                ])
        }
        #expect(sum == (try Expression(format: "sum:({1, 2})")))
        let first = try Self.expression { a in
            a.builtin(
                "objectFrom:withIndex:",
                [
                    a.keyPath("items"),
                    a.expression("NSSymbolicExpression", type: 11, ["NSToken": a.string("FIRST")]),
                ])
        }
        #expect(first == (try Expression(format: "items[FIRST]")))
        let cast = try Self.expression { a in
            a.builtin(
                "castObject:toType:", [a.constant(.integer(0)), a.constant(.string("NSDate"))])
        }
        #expect(cast == .constant(.date(Date(timeIntervalSinceReferenceDate: 0))))
    }

    @Test("comparison predicates keep operator, modifier and options; compounds nest")
    func predicates() throws {
        let begins = try Self.predicate { a in
            a.comparison(
                a.keyPath("name"), 8, a.constant(.string("A")), options: 3,
                operatorClass: "NSSubstringPredicateOperator", optionsKey: "NSFlags")
        }
        #expect(begins == (try Predicate(format: "name BEGINSWITH[cd] \"A\"")))
        let any = try Self.predicate { a in
            a.comparison(a.keyPath("tags.name"), 4, a.constant(.string("x")), modifier: 2)
        }
        #expect(any == (try Predicate(format: "ANY tags.name == \"x\"")))
        let compound = try Self.predicate { a in
            let older = a.comparison(a.keyPath("age"), 2, a.constant(.integer(18)))
            let named = a.comparison(a.keyPath("name"), 5, a.constant(.string("")))
            return a.compound(1, [older, a.compound(0, [named]), a.truePredicate()])
        }
        #expect(
            compound == (try Predicate(format: "age > 18 AND NOT (name != \"\") AND TRUEPREDICATE"))
        )
        let between = try Self.predicate { a in
            a.comparison(
                a.keyPath("age"), 100,
                a.expression(
                    "NSAggregateExpression", type: 14,
                    [
                        "NSCollection": a.list([a.constant(.integer(1)), a.constant(.integer(9))])
                    ]))
        }
        #expect(between == (try Predicate(format: "age BETWEEN {1, 9}")))
    }

    @Test("subqueries and conditionals")
    func subqueryAndTernary() throws {
        let subquery = try Self.expression { a in
            let condition = a.comparison(
                a.keyPath("age", on: a.variable("x")), 2, a.constant(.integer(3)))
            return a.expression(
                "NSSubqueryExpression", type: 13,
                [
                    "NSExpression": a.keyPath("children"), "NSVariable": a.string("x"),
                    "NSSubpredicate": condition,
                ])
        }
        #expect(subquery == (try Expression(format: "SUBQUERY(children, $x, $x.age > 3)")))
        let ternary = try Self.expression { a in
            a.expression(
                "NSTernaryExpression", type: 20,
                [
                    "NSPredicate": a.truePredicate(), "NSTrueExpression": a.constant(.integer(1)),
                    "NSFalseExpression": a.constant(.integer(2)),
                ])
        }
        #expect(ternary == (try Expression(format: "TERNARY(TRUEPREDICATE, 1, 2)")))
    }

    @Test("classes and operators ObjectGraph has no form for throw, naming them")
    func unsupported() throws {
        do {
            _ = try Self.expression { $0.expression("NSBlockExpression", type: 19, [:]) }
            Issue.record("a block expression decoded")
        } catch {
            #expect(error.className == "NSBlockExpression")
            #expect(error.description.contains("NSBlockExpression"))
        }
        do {
            _ = try Self.predicate { a in
                a.comparison(
                    a.keyPath("a"), 11, a.keyPath("b"), operatorClass: "NSCustomPredicateOperator")
            }
            Issue.record("a custom selector predicate decoded")
        } catch {
            #expect(error.description.contains("custom selector"))
        }
        // An expression where a predicate belongs.
        #expect(throws: ArchivedPredicateError.self) {
            _ = try Self.predicate { $0.keyPath("name") }
        }
    }

    @Test("an expression that contains itself throws instead of recursing forever")
    func cycle() throws {
        var archive = ExpressionArchiveBuilder()
        // Objects: 1 the list's class record, 2 the list, 3 the aggregate's class record, 4 the
        // aggregate, whose collection lists the aggregate itself.
        let list = archive.list([.uid(4)])
        let aggregate = archive.expression(
            "NSAggregateExpression", type: 14, ["NSCollection": list])
        #expect(aggregate == .uid(4))
        do {
            _ = try Expression(archivedData: archive.data(root: aggregate))
            Issue.record("a cyclic expression decoded")
        } catch {
            #expect(error.description.contains("contains itself"))
        }
    }

    @Test("nesting deeper than the limit throws")
    func tooDeep() throws {
        var archive = ExpressionArchiveBuilder()
        var predicate = archive.truePredicate()
        for _ in 0..<200 { predicate = archive.compound(0, [predicate]) }
        #expect(throws: ArchivedPredicateError.self) {
            _ = try Predicate(archivedData: archive.data(root: predicate))
        }
    }
}
