import Foundation

/// The comparison operators' semantics: numbers by value across integer, double, decimal and
/// Boolean; strings with `[c]`/`[d]` folding; dates chronologically; nil equal only to nil and
/// never ordered.
enum ValueComparison {
    static func compare(
        _ left: EvaluationValue, _ op: ComparisonOperator, _ right: EvaluationValue,
        options: ComparisonOptions
    ) throws -> Bool {
        switch op {
        case .equal:
            return try equal(left, right, options: options, strict: true)
        case .notEqual:
            return try !equal(left, right, options: options, strict: true)
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            guard let order = try order(left, right, options: options) else { return false }
            switch op {
            case .lessThan: return order == .orderedAscending
            case .lessThanOrEqual: return order != .orderedDescending
            case .greaterThan: return order == .orderedDescending
            default: return order != .orderedAscending
            }
        case .between:
            guard case .collection(let bounds) = right, bounds.count == 2 else {
                throw PredicateEvaluationError.typeMismatch(
                    "BETWEEN needs a two-element collection {low, high}, not \(right)")
            }
            guard let low = try order(left, bounds[0], options: options),
                let high = try order(left, bounds[1], options: options)
            else { return false }
            return low != .orderedAscending && high != .orderedDescending
        case .beginsWith, .endsWith, .like, .matches:
            guard let (text, pattern) = try strings(left, right, op) else { return false }
            return try StringMatching.match(text, op, pattern, options: options)
        case .contains:
            return try contains(left, right, options: options, op: "CONTAINS")
        case .in:
            return try contains(right, left, options: options, op: "IN")
        }
    }

    /// Both sides as strings; nil when either is nil; throws for other types.
    private static func strings(
        _ left: EvaluationValue, _ right: EvaluationValue, _ op: ComparisonOperator
    ) throws -> (String, String)? {
        if left.isNull || right.isNull { return nil }
        guard case .value(.string(let text)) = left, case .value(.string(let pattern)) = right
        else {
            throw PredicateEvaluationError.typeMismatch(
                "\(op.symbol) needs strings, not \(left) and \(right)")
        }
        return (text, pattern)
    }

    /// Whether `container` holds `element`: membership in a collection or a dictionary's values,
    /// or a substring of a string.
    private static func contains(
        _ container: EvaluationValue, _ element: EvaluationValue, options: ComparisonOptions,
        op: String
    ) throws -> Bool {
        switch container {
        case .value(.null):
            return false
        case .collection(let items):
            for item in items where try equal(item, element, options: options) { return true }
            return false
        case .dictionary(let dictionary):
            for item in dictionary.values where try equal(item, element, options: options) {
                return true
            }
            return false
        case .value(.string(let text)):
            if element.isNull { return false }
            guard case .value(.string(let part)) = element else {
                throw PredicateEvaluationError.typeMismatch(
                    "\(op) on a string needs a string, not \(element)")
            }
            return StringMatching.contains(text, part, options: options)
        default:
            if element.isNull { return false }
            throw PredicateEvaluationError.typeMismatch(
                "\(op) needs a collection or a string, not \(container)")
        }
    }

    /// Equality. With `strict`, a collection compared with a scalar is an error (a to-many key
    /// path needs `ANY`/`ALL`), as in a Core Data fetch.
    static func equal(
        _ left: EvaluationValue, _ right: EvaluationValue, options: ComparisonOptions,
        strict: Bool = false
    ) throws -> Bool {
        switch (left, right) {
        case (.value(let a), .value(let b)):
            return scalarEqual(a, b, options: options)
        case (.value(.null), _), (_, .value(.null)):
            return false
        case (.collection(let a), .collection(let b)):
            guard a.count == b.count else { return false }
            for (x, y) in zip(a, b) where try !equal(x, y, options: options) { return false }
            return true
        case (.collection, .value), (.value, .collection):
            if strict {
                throw PredicateEvaluationError.typeMismatch(
                    "a collection compared with a single value; use ANY or ALL")
            }
            return false
        case (.dictionary(let a), .dictionary(let b)):
            guard a.count == b.count else { return false }
            for (key, x) in a {
                guard let y = b[key], try equal(x, y, options: options) else { return false }
            }
            return true
        case (.object(let a), .object(let b)):
            if let x = a.predicateObjectID, let y = b.predicateObjectID { return x == y }
            if type(of: a) is AnyObject.Type, type(of: b) is AnyObject.Type {
                return (a as AnyObject) === (b as AnyObject)
            }
            return false
        case (.object(let a), .value(.objectID(let id))),
            (.value(.objectID(let id)), .object(let a)):
            return a.predicateObjectID == id
        default:
            return false
        }
    }

    static func scalarEqual(_ a: Value, _ b: Value, options: ComparisonOptions) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.string(let x), .string(let y)):
            return StringMatching.fold(x, options) == StringMatching.fold(y, options)
        case (.date(let x), .date(let y)): return x == y
        case (.data(let x), .data(let y)): return x == y
        case (.uuid(let x), .uuid(let y)): return x == y
        case (.uri(let x), .uri(let y)): return x == y
        case (.objectID(let x), .objectID(let y)): return x == y
        default:
            return numericOrder(a, b) == .orderedSame
        }
    }

    /// The order of two values; nil when either is nil (an ordering with nil is false).
    static func order(
        _ left: EvaluationValue, _ right: EvaluationValue, options: ComparisonOptions
    ) throws -> ComparisonResult? {
        guard case .value(let a) = left, case .value(let b) = right else {
            if left.isNull || right.isNull { return nil }
            throw PredicateEvaluationError.typeMismatch(
                "cannot order \(left) and \(right) (use ANY or ALL for collections)")
        }
        switch (a, b) {
        case (.null, _), (_, .null):
            return nil
        case (.string(let x), .string(let y)):
            let fx = StringMatching.fold(x, options)
            let fy = StringMatching.fold(y, options)
            return fx == fy ? .orderedSame : fx < fy ? .orderedAscending : .orderedDescending
        case (.date(let x), .date(let y)):
            return x == y ? .orderedSame : x < y ? .orderedAscending : .orderedDescending
        default:
            if Arithmetic.isNumeric(a), Arithmetic.isNumeric(b) { return numericOrder(a, b) }
            throw PredicateEvaluationError.typeMismatch("cannot order \(a) and \(b)")
        }
    }

    /// Compares two numeric scalars exactly across integer, double, decimal and Boolean;
    /// nil when either is not a number or is NaN.
    static func numericOrder(_ a: Value, _ b: Value) -> ComparisonResult? {
        switch (a, b) {
        case (.double(let x), .double(let y)):
            return order(x, y)
        case (.double(let x), _):
            guard let y = Arithmetic.integer(b, exact: true) else { break }
            return invert(compare(y, x))
        case (_, .double(let y)):
            guard let x = Arithmetic.integer(a, exact: true) else { break }
            return compare(x, y)
        case (.decimal, _), (_, .decimal):
            guard let x = Arithmetic.decimal(a), let y = Arithmetic.decimal(b) else { return nil }
            return x == y ? .orderedSame : x < y ? .orderedAscending : .orderedDescending
        default:
            guard let x = Arithmetic.integer(a, exact: true),
                let y = Arithmetic.integer(b, exact: true)
            else { return nil }
            return x == y ? .orderedSame : x < y ? .orderedAscending : .orderedDescending
        }
        // A double against a decimal.
        guard let x = Arithmetic.double(a), let y = Arithmetic.double(b) else { return nil }
        return order(x, y)
    }

    private static func order(_ x: Double, _ y: Double) -> ComparisonResult? {
        if x.isNaN || y.isNaN { return nil }
        return x == y ? .orderedSame : x < y ? .orderedAscending : .orderedDescending
    }

    private static func invert(_ result: ComparisonResult?) -> ComparisonResult? {
        switch result {
        case .orderedAscending?: return .orderedDescending
        case .orderedDescending?: return .orderedAscending
        default: return result
        }
    }

    /// An integer against a double, exactly (no rounding of large integers).
    private static func compare(_ x: Int64, _ y: Double) -> ComparisonResult? {
        if y.isNaN { return nil }
        if y >= 9_223_372_036_854_775_808.0 { return .orderedAscending }
        if y < -9_223_372_036_854_775_808.0 { return .orderedDescending }
        let floor = y.rounded(.down)
        let whole = Int64(floor)
        if x < whole { return .orderedAscending }
        if x > whole { return .orderedDescending }
        return floor == y ? .orderedSame : .orderedAscending
    }
}
