import Foundation
import SQLiteDatabase

extension SQLPredicateTranslator {
    /// Translates one side of a comparison.
    func operand(_ expression: Expression, _ scope: SQLScope) throws(SQLTranslationError)
        -> SQLOperand
    {
        if let columns = scope.resultColumns, let named = try resultColumn(expression, columns) {
            return .scalar(named)
        }
        if let read = try subqueryOperand(expression, scope) { return read }
        switch expression {
        case .aggregate(let elements):
            var items: [SQLFragment] = []
            for element in elements {
                guard case .scalar(let item) = try operand(element, scope) else {
                    throw .unsupported(
                        expression.description, reason: "nested collections are not supported")
                }
                items.append(item)
            }
            return .list(items)
        case .keyPath(let path):
            return try walk(path.components[...], from: scope.object, fragment: expression)
        case .member(.variable(let name), let path):
            guard let bound = scope.variables[name] else {
                throw .unsupported(expression.description, reason: "$\(name) is not bound")
            }
            return try walk(path.components[...], from: bound, fragment: expression)
        case .member(.evaluatedObject, let path):
            return try walk(path.components[...], from: scope.object, fragment: expression)
        default:
            return .scalar(try scalar(expression, scope))
        }
    }

    /// Translates an expression that must give one value.
    func scalar(_ expression: Expression, _ scope: SQLScope) throws(SQLTranslationError)
        -> SQLFragment
    {
        var text: String { expression.description }
        if let columns = scope.resultColumns, let named = try resultColumn(expression, columns) {
            return named
        }
        if let bound = try boundValue(expression, scope) { return bound }
        switch expression {
        case .constant(let value):
            return try constant(value, fragment: text)
        case .evaluatedObject:
            return objectFragment(scope.object)
        case .variable(let name):
            guard let bound = scope.variables[name] else {
                throw .unsupported(text, reason: "$\(name) is not bound (substitute it first)")
            }
            return objectFragment(bound)
        case .keyPath, .member(.variable, _), .member(.evaluatedObject, _):
            guard case .scalar(let value) = try operand(expression, scope) else {
                throw .unsupported(
                    text, reason: "a to-many key path needs ANY, ALL, @count or an aggregate")
            }
            return value
        case .member(.subquery, _), .index(.subquery, .size):
            return try subqueryScalar(expression, scope)
        case .arithmetic:
            return try arithmeticChain(expression, scope, fragment: text)
        case .negate(let inner):
            var zero = SQLFragment(.bound(.integer(0)), kind: .number, nullable: false)
            zero.isInteger = true
            let value = try scalar(inner, scope)
            var negated = try arithmetic(.subtract, zero, value, fragment: text)
            negated.mayBeNaN = value.mayBeNaN  // 0 - x is NaN only when x is
            return negated
        case .function(let selector, let arguments):
            return try function(selector, arguments, scope, fragment: text)
        case .functionCall(let target, let selector, let arguments):
            let value = try scalar(target, scope)
            if dialect == .postgres {
                throw .unsupported(text, reason: Self.postgresSwiftOnly)
            }
            guard arguments.isEmpty, value.kind == .string || value.kind == .null,
                let result = SQLFunctions.methodResults[selector]
            else {
                throw .unsupported(
                    text, reason: "FUNCTION methods other than string case and length")
            }
            return methodCall(selector, on: value, result: result)
        case .ternary(let condition, let whenTrue, let whenFalse):
            let test = try self.condition(condition, scope)
            let yes = try scalar(whenTrue, scope)
            let no = try scalar(whenFalse, scope)
            let kind = yes.kind == .null ? no.kind : yes.kind
            guard yes.kind == no.kind || yes.kind == .null || no.kind == .null, kind != .object
            else {
                throw .unsupported(text, reason: "TERNARY branches of different kinds")
            }
            return SQLFragment(
                "(CASE WHEN " + test + " THEN " + yes.piece + " ELSE " + no.piece
                    + " END)", kind: kind)
        case .aggregate:
            throw .unsupported(text, reason: "a collection is not a single value")
        case .cast:
            throw .unsupported(text, reason: "CAST of a non-constant is evaluated in memory")
        case .subquery:
            throw .unsupported(text, reason: "a SUBQUERY is a collection; use .@count")
        case .index, .member:
            throw .unsupported(text, reason: "not supported in SQL")
        }
    }

    /// The most operators one `og_arithmetic` call applies (two arguments each, well inside
    /// SQLite's limit of 127 arguments).
    static let arithmeticChainLength = 50

    /// A left-associative chain `a + b - c * d …` (the left spine of arithmetic nodes, as the
    /// parser builds it) as `og_arithmetic(op₁, a, b, op₂, c, …)`, which applies the operators
    /// in order as `Arithmetic.apply` does: one call per ``arithmeticChainLength`` operators
    /// instead of one nested call per operator, so a long sum does not overflow SQLite's
    /// parser stack.
    private func arithmeticChain(
        _ expression: Expression, _ scope: SQLScope, fragment: String
    ) throws(SQLTranslationError) -> SQLFragment {
        var operators: [ArithmeticOperator] = []
        var rights: [Expression] = []
        var base = expression
        while case .arithmetic(let left, let op, let right) = base {
            operators.append(op)
            rights.append(right)
            base = left
        }
        operators.reverse()
        rights.reverse()
        var operands = [try scalar(base, scope)]
        for right in rights { operands.append(try scalar(right, scope)) }
        if dialect == .postgres {
            throw .unsupported(fragment, reason: Self.postgresSwiftOnly)
        }
        for side in operands where side.kind != .number && side.kind != .null {
            throw .unsupported(fragment, reason: "arithmetic needs numbers")
        }
        if operands.contains(where: { $0.kind == .null }) { return .null }
        if operators.count <= Self.arithmeticChainLength,
            let native = SQLNativeArithmetic.chain(operators, operands)
        {
            return native
        }
        var piece = operands[0].piece
        var start = 0
        while start < operators.count {
            let end = min(start + Self.arithmeticChainLength, operators.count)
            var arguments: [SQLPiece] = []
            for index in start..<end {
                arguments.append(.bound(.integer(SQLFunctions.arithmeticCode(operators[index]))))
                if index == start { arguments.append(piece) }
                arguments.append(operands[index + 1].piece)
            }
            let list = SQLPiece.joined(arguments, separator: ", ")
            piece = SQLPiece("\(SQLFunctions.arithmetic)(") + list + ")"
            start = end
        }
        var result = SQLFragment(piece, kind: .number)
        result.isInteger =
            operands.allSatisfy(\.isInteger) && !operators.contains(.divide)
            && !operators.contains(.power)
        result.mayBeNaN = !result.isInteger || operands.contains(where: \.mayBeNaN)
        return result
    }

    /// `a op b` through `og_arithmetic`, as `Arithmetic.apply`.
    private func arithmetic(
        _ op: ArithmeticOperator, _ l: SQLFragment, _ r: SQLFragment, fragment: String
    ) throws(SQLTranslationError) -> SQLFragment {
        for side in [l, r] where side.kind != .number && side.kind != .null {
            throw .unsupported(fragment, reason: "arithmetic needs numbers")
        }
        if dialect == .postgres {
            throw .unsupported(fragment, reason: Self.postgresSwiftOnly)
        }
        if l.kind == .null || r.kind == .null { return .null }
        if let native = SQLNativeArithmetic.apply(op, l, r) { return native }
        var result = SQLFragment(
            SQLPiece("\(SQLFunctions.arithmetic)(")
                + SQLPiece.bound(.integer(SQLFunctions.arithmeticCode(op))) + ", " + l.piece
                + ", " + r.piece + ")",
            kind: .number)
        let integers = l.isInteger && r.isInteger
        result.isInteger = integers && op != .divide && op != .power
        result.mayBeNaN = !result.isInteger || l.mayBeNaN || r.mayBeNaN
        return result
    }

    /// A built-in function (`abs:`, `sqrt:`, `uppercase:`, …) through `og_function`, which
    /// calls the evaluator's implementation.
    private func function(
        _ selector: String, _ arguments: [Expression], _ scope: SQLScope, fragment: String
    ) throws(SQLTranslationError) -> SQLFragment {
        if let op = SQLFunctions.arithmeticSelectors[selector], arguments.count == 2 {
            return try arithmetic(
                op, scalar(arguments[0], scope), scalar(arguments[1], scope), fragment: fragment)
        }
        if selector == "noindex:", arguments.count == 1 {
            return try scalar(arguments[0], scope)
        }
        guard dialect == .sqlite, let signature = SQLFunctions.signatures[selector],
            signature.arguments.count == arguments.count
        else {
            throw .unsupported(fragment, reason: "the function \(selector) runs in memory only")
        }
        var pieces: [SQLPiece] = [.bound(.text(selector))]
        var mayBeNaN = signature.mayBeNaN
        var integers = true
        for (argument, kind) in zip(arguments, signature.arguments) {
            let value = try scalar(argument, scope)
            guard value.kind == kind || value.kind == .null else {
                throw .unsupported(fragment, reason: "\(selector) needs \(kind) arguments")
            }
            // The evaluator throws on a fraction (or a zero divisor) in whichever row it meets
            // first, a row SQL may never evaluate: integers only, a constant divisor.
            if signature.integerResult, value.kind != .null, !value.isInteger {
                throw .unsupported(
                    fragment, reason: "\(selector) of a value that may not be an integer")
            }
            if selector == "modulus:by:", pieces.count == 2 {
                guard value.piece.sql == "?",
                    case .integer(let divisor)? = value.piece.arguments.first,
                    divisor != 0
                else {
                    throw .unsupported(
                        fragment, reason: "modulus:by: needs a constant divisor other than 0")
                }
            }
            mayBeNaN = mayBeNaN || value.mayBeNaN
            integers = integers && value.isInteger
            pieces.append(value.piece)
        }
        var call = SQLFragment(
            "\(SQLFunctions.function)(" + SQLPiece.joined(pieces, separator: ", ") + ")",
            kind: signature.result)
        call.isInteger = signature.integerResult || (signature.keepsIntegers && integers)
        call.mayBeNaN = mayBeNaN
        return call
    }

    /// A constant as a bound argument, encoded as the store encodes attribute values.
    func constant(_ value: Value, fragment: String) throws(SQLTranslationError) -> SQLFragment {
        if dialect == .postgres, let typed = postgresConstant(value) { return typed }
        switch value {
        case .null:
            return .null
        case .integer(let n):
            var fragment = SQLFragment(.bound(.integer(n)), kind: .number, nullable: false)
            fragment.isInteger = true
            return fragment
        case .bool(let b):
            var fragment = SQLFragment(.bound(.integer(b ? 1 : 0)), kind: .number, nullable: false)
            fragment.isInteger = true
            return fragment
        case .double(let d):
            guard !d.isNaN else {
                throw .unsupported(fragment, reason: "NaN cannot be bound (SQLite makes it NULL)")
            }
            var fragment = SQLFragment(.bound(.real(d)), kind: .number, nullable: false)
            fragment.isReal = true
            return fragment
        case .decimal(let d):
            let double = NSDecimalNumber(decimal: d).doubleValue
            var fragment = SQLFragment(.bound(.real(double)), kind: .number, nullable: false)
            fragment.isReal = !double.isNaN
            return fragment
        case .string(let s):
            return SQLFragment(.bound(.text(s)), kind: .string, nullable: false)
        case .date(let date):
            return SQLFragment(
                .bound(.real(date.timeIntervalSinceReferenceDate)), kind: .date, nullable: false)
        case .data(let bytes):
            return SQLFragment(.bound(.blob(bytes)), kind: .data, nullable: false)
        case .uuid(let uuid):
            let u = uuid.uuid
            let bytes = Data([
                u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14,
                u.15,
            ])
            return SQLFragment(.bound(.blob(bytes)), kind: .uuid, nullable: false)
        case .uri(let url):
            return SQLFragment(.bound(.text(url.absoluteString)), kind: .uri, nullable: false)
        case .objectID(let id):
            guard case .permanent(let key) = id.key else {
                throw .unsupported(fragment, reason: "a temporary object ID has no row")
            }
            if let store = schema.storeIdentifier, store != id.storeIdentifier {
                throw .unsupported(fragment, reason: "the object ID belongs to another store")
            }
            guard let entity = schema.layout.entity(named: id.entityName) else {
                throw .unsupported(fragment, reason: "no entity '\(id.entityName)' in the layout")
            }
            return SQLFragment(
                .bound(.integer(key)), kind: .object,
                entity: .bound(.integer(Int64(entity.entityNumber))), nullable: false)
        }
    }

    /// The object of a scope: its `Z_PK` and `Z_ENT` (never nil: the fetched row, a
    /// collection element, unless reached through a LEFT JOIN).
    func objectFragment(_ object: SQLObjectScope, nullable: Bool = false) -> SQLFragment {
        var fragment = SQLFragment(
            SQLPiece(object.alias + ".\"Z_PK\""), kind: .object,
            entity: SQLPiece(object.alias + ".\"Z_ENT\""), nullable: nullable)
        fragment.isColumn = true
        return fragment
    }
}
