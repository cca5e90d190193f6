import Foundation

/// Evaluates predicate trees against objects: the reference semantics that every store's query
/// translation must agree with. Key paths are already split; nothing is parsed here.
struct PredicateEvaluator {
    /// Variables: those passed to `evaluate` and those bound by enclosing `SUBQUERY`s.
    var variables: [String: EvaluationValue]

    // MARK: Predicates

    func evaluate(_ predicate: Predicate, _ object: EvaluationValue) throws -> Bool {
        switch predicate {
        case .constant(let value):
            return value
        case .and(let terms):
            for term in terms where try !evaluate(term, object) { return false }
            return true
        case .or(let terms):
            for term in terms where try evaluate(term, object) { return true }
            return false
        case .not(let inner):
            return try !evaluate(inner, object)
        case .comparison(let comparison):
            return try evaluate(comparison, object)
        }
    }

    func evaluate(_ comparison: Comparison, _ object: EvaluationValue) throws -> Bool {
        let left = try value(comparison.left, object)
        let right = try value(comparison.right, object)
        let op = comparison.operator
        let options = comparison.options
        switch comparison.modifier {
        case .direct:
            return try ValueComparison.compare(left, op, right, options: options)
        case .any:
            for element in try quantified(left, "ANY")
            where try ValueComparison.compare(element, op, right, options: options) {
                return true
            }
            return false
        case .all:
            for element in try quantified(left, "ALL")
            where try !ValueComparison.compare(element, op, right, options: options) {
                return false
            }
            return true
        }
    }

    /// The elements an `ANY`/`ALL` ranges over; nil counts as an empty collection.
    private func quantified(_ value: EvaluationValue, _ word: String) throws
        -> [EvaluationValue]
    {
        switch value {
        case .collection(let items): return items
        case .dictionary(let dictionary): return Array(dictionary.values)
        case .value(.null): return []
        default:
            throw PredicateEvaluationError.typeMismatch(
                "\(word) needs a collection on its left side, not \(value)")
        }
    }

    // MARK: Expressions

    func value(_ expression: Expression, _ object: EvaluationValue) throws -> EvaluationValue {
        switch expression {
        case .constant(let constant):
            return .value(constant)
        case .aggregate(let elements):
            return .collection(try elements.map { try value($0, object) })
        case .evaluatedObject:
            return object
        case .keyPath(let path):
            return try KeyPathWalker.walk(object, path.components[...])
        case .member(let base, let path):
            return try KeyPathWalker.walk(value(base, object), path.components[...])
        case .variable(let name):
            guard let bound = variables[name] else {
                throw PredicateEvaluationError.unboundVariable(name)
            }
            return bound
        case .index(let base, let selector):
            return try index(value(base, object), selector, object)
        case .function(let selector, let arguments):
            let values = try arguments.map { try value($0, object) }
            return try FunctionEvaluator.call(selector, values)
        case .functionCall(let target, let selector, let arguments):
            let values = try arguments.map { try value($0, object) }
            return try FunctionEvaluator.method(selector, on: value(target, object), values)
        case .arithmetic(let left, let op, let right):
            let l = try value(left, object)
            let r = try value(right, object)
            return try Arithmetic.apply(op, l, r)
        case .negate(let inner):
            return try Arithmetic.negate(value(inner, object))
        case .subquery(let collection, let variable, let predicate):
            let source = try value(collection, object)
            let elements: [EvaluationValue]
            switch source {
            case .collection(let items): elements = items
            case .dictionary(let dictionary): elements = Array(dictionary.values)
            case .value(.null): elements = []
            default:
                throw PredicateEvaluationError.typeMismatch(
                    "SUBQUERY needs a collection, not \(source)")
            }
            var inner = self
            var kept: [EvaluationValue] = []
            for element in elements {
                inner.variables[variable] = element
                if try inner.evaluate(predicate, element) { kept.append(element) }
            }
            return .collection(kept)
        case .ternary(let condition, let whenTrue, let whenFalse):
            return try value(evaluate(condition, object) ? whenTrue : whenFalse, object)
        case .cast(let inner, let type):
            return try FunctionEvaluator.cast(value(inner, object), to: type)
        }
    }

    private func index(
        _ base: EvaluationValue, _ selector: ExpressionIndex, _ object: EvaluationValue
    ) throws -> EvaluationValue {
        switch (base, selector) {
        case (.value(.null), _):
            return .null
        case (.collection(let items), .first):
            return items.first ?? .null
        case (.collection(let items), .last):
            return items.last ?? .null
        case (.collection(let items), .size):
            return .value(.integer(Int64(items.count)))
        case (.dictionary(let dictionary), .size):
            return .value(.integer(Int64(dictionary.count)))
        case (.value(.string(let text)), .size):
            return .value(.integer(Int64(text.count)))
        case (.collection(let items), .expression(let position)):
            let at = try value(position, object)
            guard case .value(let scalar) = at, let n = Arithmetic.integer(scalar) else {
                throw PredicateEvaluationError.typeMismatch("an array index must be a number")
            }
            guard n >= 0, n < Int64(items.count) else {
                throw PredicateEvaluationError.indexOutOfRange(n, count: items.count)
            }
            return items[Int(n)]
        case (.dictionary, .expression(let key)), (.object, .expression(let key)):
            guard case .value(.string(let name)) = try value(key, object) else {
                throw PredicateEvaluationError.typeMismatch("a dictionary key must be a string")
            }
            return try base.predicateValue(forKey: name)
        default:
            throw PredicateEvaluationError.typeMismatch("cannot index \(base)")
        }
    }
}

extension Predicate {
    /// Evaluates the predicate against `object` with Apple's semantics (see the predicate
    /// language notes): `$VARIABLES` take their values from `variables`.
    ///
    /// ```swift
    /// let adults = try Predicate(format: "age >= 18 AND name BEGINSWITH[c] $P")
    /// let person: [String: EvaluationValue] = ["name": "Ada", "age": 36]
    /// try adults.evaluate(with: person, variables: ["P": "a"])  // true
    /// ```
    /// - Throws: ``PredicateEvaluationError`` for type errors, unbound variables and invalid
    ///   regular expressions, or what the object's ``KeyValueReadable`` methods throw.
    public func evaluate(
        with object: some KeyValueReadable, variables: [String: EvaluationValue] = [:]
    ) throws -> Bool {
        let evaluator = PredicateEvaluator(variables: variables)
        return try evaluator.evaluate(self, EvaluationValue.wrapping(object))
    }
}

extension Expression {
    /// Evaluates the expression against `object` (`SELF`), with `$VARIABLES` from `variables`.
    ///
    /// ```swift
    /// let total = try Expression(format: "items.@sum.price")
    /// try total.evaluate(with: order)  // .value(.double(42.5))
    /// ```
    public func evaluate(
        with object: some KeyValueReadable, variables: [String: EvaluationValue] = [:]
    ) throws -> EvaluationValue {
        let evaluator = PredicateEvaluator(variables: variables)
        return try evaluator.value(self, EvaluationValue.wrapping(object))
    }
}

extension EvaluationValue {
    /// The evaluation value of any readable: itself, or a dictionary, array or object.
    static func wrapping(_ object: some KeyValueReadable) -> EvaluationValue {
        if let value = object as? EvaluationValue { return value }
        if let dictionary = object as? [String: EvaluationValue] { return .dictionary(dictionary) }
        if let array = object as? [EvaluationValue] { return .collection(array) }
        return .object(object)
    }
}
