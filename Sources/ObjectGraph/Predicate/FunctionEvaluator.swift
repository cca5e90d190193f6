import Foundation

/// The built-in functions (`average:`, `add:to:`, `now`, …), `FUNCTION(…)` methods and `CAST`.
enum FunctionEvaluator {
    static func call(_ selector: String, _ arguments: [EvaluationValue]) throws
        -> EvaluationValue
    {
        let first = arguments.first ?? .null
        let second = arguments.count > 1 ? arguments[1] : .null
        switch selector {
        case "sum:": return try Aggregates.sum(elements(first, selector))
        case "count:": return .value(.integer(Int64(try elements(first, selector).count)))
        case "min:": return try Aggregates.extreme(elements(first, selector), smallest: true)
        case "max:": return try Aggregates.extreme(elements(first, selector), smallest: false)
        case "average:": return try Aggregates.average(elements(first, selector))
        case "median:": return try Aggregates.median(elements(first, selector))
        case "mode:": return try Aggregates.mode(elements(first, selector))
        case "stddev:": return try Aggregates.standardDeviation(elements(first, selector))
        case "add:to:": return try Arithmetic.apply(.add, first, second)
        case "from:subtract:": return try Arithmetic.apply(.subtract, first, second)
        case "multiply:by:": return try Arithmetic.apply(.multiply, first, second)
        case "divide:by:": return try Arithmetic.apply(.divide, first, second)
        case "raise:toPower:": return try Arithmetic.apply(.power, first, second)
        case "modulus:by:":
            guard let x = try Arithmetic.integerOperand(first, selector),
                let y = try Arithmetic.integerOperand(second, selector)
            else { return .null }
            if y == 0 { throw PredicateEvaluationError.divisionByZero }
            return .value(.integer(x.remainderReportingOverflow(dividingBy: y).partialValue))
        case "sqrt:": return try math(first, selector) { $0.squareRoot() }
        case "log:": return try math(first, selector) { log10($0) }
        case "ln:": return try math(first, selector) { log($0) }
        case "exp:": return try math(first, selector) { exp($0) }
        case "floor:": return try math(first, selector) { $0.rounded(.down) }
        case "ceiling:": return try math(first, selector) { $0.rounded(.up) }
        case "trunc:": return try math(first, selector) { $0.rounded(.towardZero) }
        case "abs:":
            if case .value(.integer(let n)) = first {
                guard n != Int64.min else {
                    throw PredicateEvaluationError.arithmeticOverflow("abs(\(n))")
                }
                return .value(.integer(Swift.abs(n)))
            }
            return try math(first, selector) { Swift.abs($0) }
        case "uppercase:", "lowercase:":
            if first.isNull { return .null }
            guard case .value(.string(let text)) = first else {
                throw PredicateEvaluationError.typeMismatch("\(selector) needs a string")
            }
            return .value(.string(selector == "uppercase:" ? text.uppercased() : text.lowercased()))
        case "now": return .value(.date(Date()))
        case "random": return .value(.double(Double.random(in: 0..<1)))
        case "randomn:":
            guard let n = try Arithmetic.integerOperand(first, selector), n > 0 else {
                throw PredicateEvaluationError.typeMismatch("randomn: needs a positive integer")
            }
            return .value(.integer(Int64.random(in: 0..<n)))
        case "bitwiseAnd:with:", "bitwiseOr:with:", "bitwiseXor:with:", "leftshift:by:",
            "rightshift:by:":
            guard let x = try Arithmetic.integerOperand(first, selector),
                let y = try Arithmetic.integerOperand(second, selector)
            else { return .null }
            switch selector {
            case "bitwiseAnd:with:": return .value(.integer(x & y))
            case "bitwiseOr:with:": return .value(.integer(x | y))
            case "bitwiseXor:with:": return .value(.integer(x ^ y))
            case "leftshift:by:": return .value(.integer(x << y))
            default: return .value(.integer(x >> y))
            }
        case "onesComplement:":
            guard let x = try Arithmetic.integerOperand(first, selector) else { return .null }
            return .value(.integer(~x))
        case "noindex:":
            return first
        case KeyPathNamingError.selector:
            // A key-path builder's predicate carrying its naming error.
            throw KeyPathNamingError(selector: selector, values: arguments)
                ?? PredicateEvaluationError.unsupported("function \(selector)")
        default:
            throw PredicateEvaluationError.unsupported("function \(selector)")
        }
    }

    private static func elements(_ value: EvaluationValue, _ selector: String) throws
        -> [EvaluationValue]
    {
        switch value {
        case .collection(let items): return items
        case .dictionary(let dictionary): return Array(dictionary.values)
        case .value(.null): return []
        default:
            throw PredicateEvaluationError.typeMismatch("\(selector) needs a collection")
        }
    }

    private static func math(
        _ value: EvaluationValue, _ selector: String, _ body: (Double) -> Double
    ) throws -> EvaluationValue {
        let scalar = try Arithmetic.scalar(value, selector)
        guard let x = Arithmetic.double(scalar) else { return .null }
        return .value(.double(body(x)))
    }

    /// `FUNCTION(target, "selector", …)`: a ``FunctionCallable`` object's answer, or the string
    /// methods without arguments or side effects, the same as the key path `target.selector`
    /// (``ScalarKeys``).
    static func method(
        _ selector: String, on target: EvaluationValue, _ arguments: [EvaluationValue]
    ) throws -> EvaluationValue {
        if case .object(let object) = target, let callable = object as? any FunctionCallable {
            return try callable.callFunction(selector, arguments: arguments)
        }
        if target.isNull { return .null }
        guard case .value(let scalar) = target, case .string = scalar, arguments.isEmpty,
            ScalarKeys.stringKeys.contains(selector)
        else {
            throw PredicateEvaluationError.unsupported("FUNCTION with selector \(selector)")
        }
        return try ScalarKeys.value(of: scalar, forKey: selector)
    }

    /// `CAST(value, "Class")`: `NSDate` from seconds since 2001, `NSNumber`, `NSString`,
    /// `NSDecimalNumber`, and the scalar types the canonical printer casts from strings.
    static func cast(_ value: EvaluationValue, to type: String) throws -> EvaluationValue {
        guard case .value(let scalar) = value else {
            throw PredicateEvaluationError.typeMismatch("CAST needs a single value, not \(value)")
        }
        if scalar.isNull { return .null }
        if let folded = CastFolding.fold(scalar, type) { return .value(folded) }
        switch (type, scalar) {
        case ("NSDate", .date), ("NSData", .data), ("NSUUID", .uuid), ("NSURL", .uri),
            ("NSManagedObjectID", .objectID), ("NSString", .string):
            return value
        case ("NSDate", .decimal(let d)):
            let seconds = NSDecimalNumber(decimal: d).doubleValue
            return .value(.date(Date(timeIntervalSinceReferenceDate: seconds)))
        case ("NSNumber", .date(let date)):
            return .value(.double(date.timeIntervalSinceReferenceDate))
        case ("NSNumber", .string(let text)):
            if let n = Int64(text) { return .value(.integer(n)) }
            if let d = Double(text) { return .value(.double(d)) }
            throw PredicateEvaluationError.typeMismatch("\"\(text)\" is not a number")
        case ("NSNumber", _) where Arithmetic.isNumeric(scalar):
            return value
        case ("NSDecimalNumber", _) where Arithmetic.isNumeric(scalar):
            return Arithmetic.decimal(scalar).map { .value(.decimal($0)) } ?? .null
        case ("NSDecimalNumber", .string(let text)):
            guard let d = Decimal(string: text) else {
                throw PredicateEvaluationError.typeMismatch("\"\(text)\" is not a number")
            }
            return .value(.decimal(d))
        case ("NSString", .integer(let n)): return .value(.string(String(n)))
        case ("NSString", .double(let d)): return .value(.string(String(d)))
        case ("NSString", .decimal(let d)): return .value(.string(d.description))
        case ("NSString", .bool(let b)): return .value(.string(b ? "1" : "0"))
        case ("NSString", .uuid(let u)): return .value(.string(u.uuidString))
        case ("NSString", .uri(let u)): return .value(.string(u.absoluteString))
        default:
            throw PredicateEvaluationError.unsupported("CAST of \(scalar) to \(type)")
        }
    }
}
