import KeyedArchive

extension ArchivedPredicateDecoder {
    /// The selectors of Foundation's functions that ObjectGraph writes as arithmetic.
    private static let arithmetic: [String: ArithmeticOperator] = [
        "add:to:": .add, "from:subtract:": .subtract, "multiply:by:": .multiply,
        "divide:by:": .divide, "raise:toPower:": .power,
    ]

    /// A function expression (`NSFunctionExpression`, and its subclass `NSKeyPathExpression`):
    /// a key path (`valueForKeyPath:`), a built-in function on Foundation's function holder
    /// (`average:`, `add:to:`, an index, a cast), or `FUNCTION(target, "selector", …)`.
    mutating func function(_ object: ArchivedObject, depth: Int) throws(ArchivedPredicateError)
        -> Expression
    {
        let selector = try string(object, "NSSelectorName")
        let operandValue = try field(object, "NSOperand")
        let arguments = try argumentValues(object)
        if selector == "valueForKeyPath:" {
            guard arguments.count == 1 else { throw arity(object, selector, arguments.count) }
            let path = try keyPath(arguments[0], in: object, depth: depth)
            return Self.member(try expression(operandValue, depth: depth + 1), path)
        }
        if try isFunctionHolder(operandValue, depth: depth) {
            return try builtin(selector, arguments, in: object, depth: depth)
        }
        let target = try expression(operandValue, depth: depth + 1)
        var decoded: [Expression] = []
        for argument in arguments { decoded.append(try expression(argument, depth: depth + 1)) }
        return .functionCall(target, selector, decoded)
    }

    /// `path` applied to `base`: on the evaluated object it is a plain key path, and a path on a
    /// key path continues it, as the predicate parser builds `$source.a.b`.
    static func member(_ base: Expression, _ path: PredicateKeyPath) -> Expression {
        switch base {
        case .evaluatedObject: return .keyPath(path)
        case .keyPath(let first):
            return .keyPath(PredicateKeyPath(first.components + path.components))
        case .member(let inner, let first):
            return .member(inner, PredicateKeyPath(first.components + path.components))
        default: return .member(base, path)
        }
    }

    /// A built-in function's call, from its selector.
    private mutating func builtin(
        _ selector: String, _ arguments: [ArchivedValue], in object: ArchivedObject, depth: Int
    ) throws(ArchivedPredicateError) -> Expression {
        if selector == "objectFrom:withIndex:" {
            guard arguments.count == 2 else { throw arity(object, selector, arguments.count) }
            let collection = try expression(arguments[0], depth: depth + 1)
            return .index(collection, try index(arguments[1], depth: depth))
        }
        var decoded: [Expression] = []
        for argument in arguments { decoded.append(try expression(argument, depth: depth + 1)) }
        if let op = Self.arithmetic[selector] {
            guard decoded.count == 2 else { throw arity(object, selector, decoded.count) }
            return .arithmetic(decoded[0], op, decoded[1])
        }
        if selector == "castObject:toType:" {
            guard decoded.count == 2, case .constant(.string(let type)) = decoded[1] else {
                throw mismatch(object, "NSArguments", "a value and a class name")
            }
            return CastFolding.fold(decoded[0], type)
        }
        guard let function = BuiltinFunction.lookup(selector), function.selector == selector else {
            throw ArchivedPredicateError(
                className: object.className,
                reason: "archived \(object.className): function \(selector) has no ObjectGraph form"
            )
        }
        guard decoded.count == function.arity else { throw arity(object, selector, decoded.count) }
        return .function(selector, decoded)
    }

    /// An index: `FIRST`, `LAST`, `SIZE` (archived as symbolic expressions) or an expression.
    private mutating func index(_ value: ArchivedValue, depth: Int) throws(ArchivedPredicateError)
        -> ExpressionIndex
    {
        if case .object(let symbol) = value, symbol.className == "NSSymbolicExpression" {
            switch try string(symbol, "NSToken") {
            case "FIRST": return .first
            case "LAST": return .last
            case "SIZE": return .size
            case let token:
                throw ArchivedPredicateError(
                    className: symbol.className, reason: "unknown index symbol \(token)")
            }
        }
        return .expression(try expression(value, depth: depth + 1))
    }

    /// The key path of `valueForKeyPath:`'s argument: a key path specifier (or a constant
    /// string, which Foundation also accepts).
    private mutating func keyPath(_ value: ArchivedValue, in object: ArchivedObject, depth: Int)
        throws(ArchivedPredicateError) -> PredicateKeyPath
    {
        switch try expression(value, depth: depth + 1) {
        case .keyPath(let path): return path
        case .constant(.string(let text)): return PredicateKeyPath(text)
        default: throw mismatch(object, "NSArguments", "a key path")
        }
    }

    /// Whether `operand` is the constant class Foundation calls its built-in functions on
    /// (`NSConstantValueClassName` `_NSPredicateUtilities`, archived without a value).
    private func isFunctionHolder(_ operand: ArchivedValue, depth: Int)
        throws(ArchivedPredicateError) -> Bool
    {
        guard case .object(let object) = operand, object.className == "NSConstantValueExpression"
        else { return false }
        guard try optionalField(object, "NSConstantValue") == nil else { return false }
        return try optionalField(object, "NSConstantValueClassName") != nil
    }

    /// The archived argument list (absent: none).
    private func argumentValues(_ object: ArchivedObject) throws(ArchivedPredicateError)
        -> [ArchivedValue]
    {
        guard let value = try optionalField(object, "NSArguments"), !value.isNull else { return [] }
        guard let elements = value.elements else {
            throw mismatch(object, "NSArguments", "a collection of expressions")
        }
        return elements
    }

    private func arity(_ object: ArchivedObject, _ selector: String, _ count: Int)
        -> ArchivedPredicateError
    {
        ArchivedPredicateError(
            className: object.className,
            reason: "archived \(object.className): \(selector) with \(count) argument(s)")
    }
}
