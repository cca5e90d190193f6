import Foundation
import KeyedArchive

/// Builds keyed archives of `NSExpression`s and `NSPredicate`s as Foundation writes them (its
/// class names, `$classes` and keys), for the archived-expression tests.
struct ExpressionArchiveBuilder {
    var builder = KeyedArchiveBuilder()

    mutating func string(_ text: String) -> PropertyListObject { builder.add(.string(text)) }

    mutating func expression(
        _ className: String, type: Int64, _ fields: [String: PropertyListObject],
        superclasses: [String] = ["NSExpression", "NSObject"]
    ) -> PropertyListObject {
        var entries = fields
        entries["NSExpressionType"] = .integer(type)
        return builder.addObject(className: className, superclasses: superclasses, fields: entries)
    }

    /// A constant: numbers and Booleans inline, strings and data as objects.
    mutating func constant(_ value: PropertyListObject) -> PropertyListObject {
        let field: PropertyListObject
        switch value {
        case .string, .data: field = builder.add(value)
        default: field = value
        }
        return expression("NSConstantValueExpression", type: 0, ["NSConstantValue": field])
    }

    mutating func evaluatedObject() -> PropertyListObject {
        expression("NSSelfExpression", type: 1, [:])
    }

    mutating func variable(_ name: String) -> PropertyListObject {
        expression("NSVariableExpression", type: 2, ["NSVariable": string(name)])
    }

    mutating func list(_ elements: [PropertyListObject]) -> PropertyListObject {
        builder.addObject(
            className: "NSMutableArray", superclasses: ["NSArray", "NSObject"],
            fields: ["NS.objects": .array(elements)])
    }

    /// `operand.path` (`path` alone on the evaluated object).
    mutating func keyPath(_ path: String, on operand: PropertyListObject? = nil)
        -> PropertyListObject
    {
        let base = operand ?? evaluatedObject()
        let specifier = expression(
            "NSKeyPathSpecifierExpression", type: 10, ["NSKeyPath": string(path)])
        return expression(
            "NSKeyPathExpression", type: 3,
            [
                "NSOperand": base, "NSSelectorName": string("valueForKeyPath:"),
                "NSArguments": list([specifier]),
            ], superclasses: ["NSFunctionExpression", "NSExpression", "NSObject"])
    }

    /// `FUNCTION(operand, "selector", arguments…)`.
    mutating func function(
        _ selector: String, on operand: PropertyListObject, _ arguments: [PropertyListObject]
    )
        -> PropertyListObject
    {
        expression(
            "NSFunctionExpression", type: 4,
            [
                "NSOperand": operand, "NSSelectorName": string(selector),
                "NSArguments": list(arguments),
            ])
    }

    /// A built-in function: its operand is Foundation's function holder class.
    mutating func builtin(_ selector: String, _ arguments: [PropertyListObject])
        -> PropertyListObject
    {
        let holder = expression(
            "NSConstantValueExpression", type: 0,
            ["NSConstantValueClassName": string("_NSPredicateUtilities")])
        return function(selector, on: holder, arguments)
    }

    mutating func comparison(
        _ left: PropertyListObject, _ type: Int64, _ right: PropertyListObject, modifier: Int64 = 0,
        options: Int64 = 0, operatorClass: String = "NSEqualityPredicateOperator",
        optionsKey: String = "NSOptions"
    ) -> PropertyListObject {
        let op = builder.addObject(
            className: operatorClass, superclasses: ["NSPredicateOperator", "NSObject"],
            fields: [
                "NSOperatorType": .integer(type), "NSModifier": .integer(modifier),
                optionsKey: .integer(options),
            ])
        return builder.addObject(
            className: "NSComparisonPredicate", superclasses: ["NSPredicate", "NSObject"],
            fields: [
                "NSLeftExpression": left, "NSRightExpression": right, "NSPredicateOperator": op,
            ])
    }

    mutating func compound(_ type: Int64, _ terms: [PropertyListObject]) -> PropertyListObject {
        builder.addObject(
            className: "NSCompoundPredicate", superclasses: ["NSPredicate", "NSObject"],
            fields: ["NSCompoundPredicateType": .integer(type), "NSSubpredicates": list(terms)])
    }

    mutating func truePredicate() -> PropertyListObject {
        builder.addObject(
            className: "NSTruePredicate", superclasses: ["NSPredicate", "NSObject"], fields: [:])
    }

    func data(root: PropertyListObject) -> Data { builder.archive(root: root) }
}
