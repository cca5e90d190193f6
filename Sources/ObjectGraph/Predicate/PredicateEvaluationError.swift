/// Why evaluating a predicate failed for one object.
///
/// ```swift
/// do { _ = try Predicate(format: "name MATCHES '('").evaluate(with: record) }
/// catch PredicateEvaluationError.invalidRegularExpression(let pattern, _) { print(pattern) }
/// ```
public enum PredicateEvaluationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Operands of types the operator cannot combine (`"a" < 3`, `ANY` on a scalar).
    case typeMismatch(String)
    /// A `$VARIABLE` had no value: substitute it, or pass it to `evaluate(with:variables:)`.
    case unboundVariable(String)
    /// A `MATCHES` pattern that is not a valid ICU regular expression, and the reason.
    case invalidRegularExpression(String, String)
    /// An object that has no such key, and the object's type.
    case unknownKey(String, in: String)
    /// An index outside a collection (`items[5]` of three items).
    case indexOutOfRange(Int64, count: Int)
    /// Integer arithmetic that does not fit in 64 bits.
    case arithmeticOverflow(String)
    /// A division or modulus by zero.
    case divisionByZero
    /// A `FUNCTION(…)` selector or `CAST` class that ObjectGraph does not implement.
    case unsupported(String)
    /// An `@name` key path component that is not a collection operator (`items.@lastObject`):
    /// the parser accepts it, as Apple's does, and evaluating it fails, as on Apple platforms.
    case unknownCollectionOperator(String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .typeMismatch(let message): return "type mismatch: \(message)"
        case .unboundVariable(let name):
            return "variable $\(name) has no value (substitute it or pass it to evaluate)"
        case .invalidRegularExpression(let pattern, let reason):
            return "invalid regular expression \"\(pattern)\": \(reason)"
        case .unknownKey(let key, let type): return "\(type) has no key '\(key)'"
        case .indexOutOfRange(let index, let count):
            return "index \(index) is outside a collection of \(count) element(s)"
        case .arithmeticOverflow(let operation): return "integer overflow in \(operation)"
        case .divisionByZero: return "division by zero"
        case .unsupported(let what): return "unsupported: \(what)"
        case .unknownCollectionOperator(let name):
            return "\(name) is not a collection operator (@count, @sum, @avg, @min, @max,"
                + " @unionOfObjects, @distinctUnionOfObjects, @unionOfArrays,"
                + " @distinctUnionOfArrays, @distinctUnionOfSets)"
        }
    }
}
