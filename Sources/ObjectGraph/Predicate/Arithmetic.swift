import Foundation

/// Arithmetic on predicate values: integers stay integers (overflow is an error, not a trap),
/// a double or decimal operand makes the result a double or decimal, `/` always divides as
/// floating point, and a nil operand gives nil.
enum Arithmetic {
    static func isNumeric(_ value: Value) -> Bool {
        switch value {
        case .integer, .double, .decimal, .bool: return true
        default: return false
        }
    }

    /// The value as an integer: integers and Booleans, and (unless `exact`) integral doubles.
    static func integer(_ value: Value, exact: Bool = false) -> Int64? {
        switch value {
        case .integer(let n): return n
        case .bool(let b): return b ? 1 : 0
        case .double(let d) where !exact:
            guard d.rounded(.towardZero) == d, abs(d) < 9.2e18 else { return nil }
            return Int64(d)
        default: return nil
        }
    }

    static func double(_ value: Value) -> Double? {
        switch value {
        case .integer(let n): return Double(n)
        case .bool(let b): return b ? 1 : 0
        case .double(let d): return d
        case .decimal(let d): return NSDecimalNumber(decimal: d).doubleValue
        default: return nil
        }
    }

    static func decimal(_ value: Value) -> Decimal? {
        switch value {
        case .integer(let n): return Decimal(n)
        case .bool(let b): return b ? 1 : 0
        case .double(let d): return d.isFinite ? Decimal(d) : nil
        case .decimal(let d): return d
        default: return nil
        }
    }

    static func scalar(_ value: EvaluationValue, _ operation: String) throws -> Value {
        guard case .value(let scalar) = value, scalar.isNull || isNumeric(scalar) else {
            throw PredicateEvaluationError.typeMismatch("\(operation) needs numbers, not \(value)")
        }
        return scalar
    }

    static func apply(_ op: ArithmeticOperator, _ left: EvaluationValue, _ right: EvaluationValue)
        throws -> EvaluationValue
    {
        let a = try scalar(left, op.rawValue)
        let b = try scalar(right, op.rawValue)
        if a.isNull || b.isNull { return .null }
        if op == .power {
            guard let x = double(a), let y = double(b) else { return .null }
            return .value(.double(pow(x, y)))
        }
        if op != .divide, let x = integer(a, exact: true), let y = integer(b, exact: true) {
            let result: (partialValue: Int64, overflow: Bool)
            switch op {
            case .add: result = x.addingReportingOverflow(y)
            case .subtract: result = x.subtractingReportingOverflow(y)
            default: result = x.multipliedReportingOverflow(by: y)
            }
            if result.overflow {
                throw PredicateEvaluationError.arithmeticOverflow("\(x) \(op.rawValue) \(y)")
            }
            return .value(.integer(result.partialValue))
        }
        let usesDecimal: Bool
        switch (a, b) {
        case (.double, _), (_, .double): usesDecimal = false
        case (.decimal, _), (_, .decimal): usesDecimal = true
        default: usesDecimal = false
        }
        if usesDecimal, let x = decimal(a), let y = decimal(b) {
            switch op {
            case .add: return .value(.decimal(x + y))
            case .subtract: return .value(.decimal(x - y))
            case .multiply: return .value(.decimal(x * y))
            default:
                if y == 0 { throw PredicateEvaluationError.divisionByZero }
                return .value(.decimal(x / y))
            }
        }
        guard let x = double(a), let y = double(b) else { return .null }
        switch op {
        case .add: return .value(.double(x + y))
        case .subtract: return .value(.double(x - y))
        case .multiply: return .value(.double(x * y))
        default:
            if y == 0 { throw PredicateEvaluationError.divisionByZero }
            return .value(.double(x / y))
        }
    }

    static func negate(_ value: EvaluationValue) throws -> EvaluationValue {
        switch try scalar(value, "-") {
        case .integer(let n):
            let (result, overflow) = Int64(0).subtractingReportingOverflow(n)
            if overflow { throw PredicateEvaluationError.arithmeticOverflow("-(\(n))") }
            return .value(.integer(result))
        case .bool(let b): return .value(.integer(b ? -1 : 0))
        case .double(let d): return .value(.double(-d))
        case .decimal(let d): return .value(.decimal(-d))
        default: return .null
        }
    }

    /// An integer operand of a bitwise or modulus function.
    static func integerOperand(_ value: EvaluationValue, _ operation: String) throws -> Int64? {
        let scalar = try scalar(value, operation)
        if scalar.isNull { return nil }
        guard let n = integer(scalar) else {
            throw PredicateEvaluationError.typeMismatch("\(operation) needs integers, not \(value)")
        }
        return n
    }
}
