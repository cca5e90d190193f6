import Foundation
import KeyedArchive

/// Predicates and expressions as Foundation archives them (`NSComparisonPredicate`,
/// `NSCompoundPredicate`, `NSKeyPathExpression`…, with their `NSExpressionType`s), for
/// validation rules, fetch request templates and fetched properties.
extension ArchivedModelWriter {
    /// Foundation's `NSPredicateOperatorType` codes and the operator classes that carry them.
    private static func operatorCode(_ op: ComparisonOperator) -> (Int64, String) {
        switch op {
        case .lessThan: return (0, "NSComparisonPredicateOperator")
        case .lessThanOrEqual: return (1, "NSComparisonPredicateOperator")
        case .greaterThan: return (2, "NSComparisonPredicateOperator")
        case .greaterThanOrEqual: return (3, "NSComparisonPredicateOperator")
        case .equal: return (4, "NSEqualityPredicateOperator")
        case .notEqual: return (5, "NSEqualityPredicateOperator")
        case .matches: return (6, "NSMatchingPredicateOperator")
        case .like: return (7, "NSLikePredicateOperator")
        case .beginsWith: return (8, "NSBeginsWithPredicateOperator")
        case .endsWith: return (9, "NSEndsWithPredicateOperator")
        case .in: return (10, "NSInPredicateOperator")
        case .contains: return (99, "NSInPredicateOperator")
        case .between: return (100, "NSBetweenPredicateOperator")
        }
    }

    private static let arithmeticSelectors: [ArithmeticOperator: String] = [
        .add: "add:to:", .subtract: "from:subtract:", .multiply: "multiply:by:",
        .divide: "divide:by:", .power: "raise:toPower:",
    ]

    /// The archive object of `predicate`.
    mutating func predicate(_ predicate: Predicate) -> PropertyListObject {
        switch predicate {
        case .constant(let flag):
            return table.object(flag ? "NSTruePredicate" : "NSFalsePredicate", [:])
        case .and(let terms): return compound(1, terms)
        case .or(let terms): return compound(2, terms)
        case .not(let term): return compound(0, [term])
        case .comparison(let comparison):
            let (code, className) = Self.operatorCode(comparison.operator)
            let modifier: Int64
            switch comparison.modifier {
            case .direct: modifier = 0
            case .all: modifier = 1
            case .any: modifier = 2
            }
            var fields: [String: PropertyListObject] = [
                "NSOperatorType": .integer(code), "NSModifier": .integer(modifier),
            ]
            let options = Int64(comparison.options.rawValue)
            switch code {
            case 0...3:
                fields["NSVariant"] = .integer(code)
                fields["NSOptions"] = .integer(options)
            case 4, 5:
                fields["NSNegate"] = .bool(code == 5)
                fields["NSOptions"] = .integer(options)
            default:
                fields["NSFlags"] = .integer(options)
            }
            let op = table.object(className, fields)
            return table.object(
                "NSComparisonPredicate",
                [
                    "NSLeftExpression": expression(comparison.left),
                    "NSPredicateOperator": op,
                    "NSRightExpression": expression(comparison.right),
                ])
        }
    }

    private mutating func compound(_ type: Int64, _ terms: [Predicate]) -> PropertyListObject {
        var archived: [PropertyListObject] = []
        for term in terms { archived.append(predicate(term)) }
        return table.object(
            "NSCompoundPredicate",
            [
                "NSCompoundPredicateType": .integer(type),
                "NSSubpredicates": table.array(archived),
            ])
    }

    /// An expression object of class `className` and `NSExpressionType` `type`.
    private mutating func expressionObject(
        _ className: String, _ type: Int64, _ fields: [String: PropertyListObject] = [:]
    ) -> PropertyListObject {
        var entries = fields
        entries["NSExpressionType"] = .integer(type)
        return table.object(className, entries)
    }

    /// The archive object of `expression`.
    mutating func expression(_ expression: Expression) -> PropertyListObject {
        switch expression {
        case .constant(let value):
            return expressionObject(
                "NSConstantValueExpression", 0, ["NSConstantValue": constantValue(value)])
        case .evaluatedObject:
            return expressionObject("NSSelfExpression", 1)
        case .variable(let name):
            return expressionObject("NSVariableExpression", 2, ["NSVariable": table.string(name)])
        case .keyPath(let path):
            return keyPath(path, on: expressionObject("NSSelfExpression", 1))
        case .member(let base, let path):
            return keyPath(path, on: self.expression(base))
        case .aggregate(let elements):
            var archived: [PropertyListObject] = []
            for element in elements { archived.append(self.expression(element)) }
            return expressionObject(
                "NSAggregateExpression", 14, ["NSCollection": table.array(archived)])
        case .function(let selector, let arguments):
            return builtin(selector, arguments.map { .expression($0) })
        case .arithmetic(let left, let op, let right):
            return builtin(
                Self.arithmeticSelectors[op] ?? "add:to:", [.expression(left), .expression(right)])
        case .negate(let operand):
            return builtin(
                "from:subtract:", [.expression(.constant(.integer(0))), .expression(operand)])
        case .cast(let operand, let type):
            return builtin(
                "castObject:toType:", [.expression(operand), .expression(.constant(.string(type)))])
        case .index(let collection, let index):
            let archivedIndex: ExpressionArgument
            switch index {
            case .first: archivedIndex = .symbol("FIRST")
            case .last: archivedIndex = .symbol("LAST")
            case .size: archivedIndex = .symbol("SIZE")
            case .expression(let inner): archivedIndex = .expression(inner)
            }
            return builtin("objectFrom:withIndex:", [.expression(collection), archivedIndex])
        case .functionCall(let target, let selector, let arguments):
            let operand = self.expression(target)
            var archived: [PropertyListObject] = []
            for argument in arguments { archived.append(self.expression(argument)) }
            return expressionObject(
                "NSFunctionExpression", 4,
                [
                    "NSOperand": operand, "NSSelectorName": table.string(selector),
                    "NSArguments": table.array(archived, "NSMutableArray"),
                ])
        case .subquery(let collection, let variable, let condition):
            return expressionObject(
                "NSSubqueryExpression", 13,
                [
                    "NSExpression": self.expression(collection),
                    "NSVariable": table.string(variable),
                    "NSSubpredicate": predicate(condition),
                ])
        case .ternary(let condition, let whenTrue, let whenFalse):
            return expressionObject(
                "NSTernaryExpression", 20,
                [
                    "NSPredicate": predicate(condition),
                    "NSTrueExpression": self.expression(whenTrue),
                    "NSFalseExpression": self.expression(whenFalse),
                ])
        }
    }

    /// An argument of a built-in function: an expression, or a symbolic index.
    private enum ExpressionArgument {
        case expression(Expression)
        case symbol(String)
    }

    /// `operand.path`, as Foundation archives `valueForKeyPath:`.
    private mutating func keyPath(_ path: PredicateKeyPath, on operand: PropertyListObject)
        -> PropertyListObject
    {
        let specifier = expressionObject(
            "NSKeyPathSpecifierExpression", 10,
            ["NSKeyPath": table.string(Self.dotted(path))])
        return expressionObject(
            "NSKeyPathExpression", 3,
            [
                "NSOperand": operand, "NSSelectorName": table.string("valueForKeyPath:"),
                "NSArguments": table.array([specifier], "NSMutableArray"),
            ])
    }

    /// `path` as dotted text (`items.@sum.price`).
    static func dotted(_ path: PredicateKeyPath) -> String {
        path.components.map { component -> String in
            switch component {
            case .key(let name): return name
            case .operator(let op): return "@" + op.rawValue
            }
        }.joined(separator: ".")
    }

    /// A built-in function, called on Foundation's function holder class.
    private mutating func builtin(_ selector: String, _ arguments: [ExpressionArgument])
        -> PropertyListObject
    {
        let holder = expressionObject(
            "NSConstantValueExpression", 0,
            ["NSConstantValueClassName": table.string("_NSPredicateUtilities")])
        var archived: [PropertyListObject] = []
        for argument in arguments {
            switch argument {
            case .expression(let inner): archived.append(expression(inner))
            case .symbol(let token):
                archived.append(
                    expressionObject("NSSymbolicExpression", 11, ["NSToken": table.string(token)]))
            }
        }
        return expressionObject(
            "NSFunctionExpression", 4,
            [
                "NSOperand": holder, "NSSelectorName": table.string(selector),
                "NSArguments": table.array(archived, "NSMutableArray"),
            ])
    }

    /// A constant's value: numbers and Booleans inline, other values as their objects.
    private mutating func constantValue(_ value: Value) -> PropertyListObject {
        switch value {
        case .null, .objectID: return ArchiveObjectTable.null
        case .integer(let number): return .integer(number)
        case .double(let number): return .real(number)
        case .decimal(let number): return .real(NSDecimalNumber(decimal: number).doubleValue)
        case .bool(let flag): return .bool(flag)
        case .string(let text): return table.string(text)
        case .data(let bytes): return table.value(.data(bytes))
        case .date(let date): return self.date(date.timeIntervalSinceReferenceDate)
        case .uuid(let uuid):
            return table.object(
                "NSUUID", ["NS.uuidbytes": .data(withUnsafeBytes(of: uuid.uuid) { Data($0) })])
        case .uri(let url):
            return table.object(
                "NSURL",
                [
                    "NS.base": ArchiveObjectTable.null,
                    "NS.relative": table.string(url.absoluteString),
                ])
        }
    }
}
