import Foundation

// The `PredicateExpressions` constructs of Foundation's `#Predicate` that have an ObjectGraph
// form. A construct not listed here is refused by name (`FoundationPredicateError`).

extension PredicateExpressions.Variable: FoundationPredicateConvertible {
    func converted(_ conversion: inout PredicateConversion) throws(FoundationPredicateError)
        -> ConvertedTerm
    {
        guard let bound = conversion.bindings[key] else {
            throw .unsupported(self, "a variable declared outside the predicate")
        }
        if bound.depth < conversion.subqueryDepth && !PredicateConversion.isVariable(bound.value) {
            // Inside SUBQUERY a key path reads the element: the outer object has no name there.
            throw .unsupported(
                self, "an outer object used inside a to-many's closure (SUBQUERY cannot name it)")
        }
        return .expression(bound.value)
    }
}

extension PredicateExpressions.Value: FoundationPredicateConvertible {
    func converted(_ conversion: inout PredicateConversion) throws(FoundationPredicateError)
        -> ConvertedTerm
    {
        .expression(try PredicateConversion.constant(value, in: self))
    }
}

extension PredicateExpressions.NilLiteral: FoundationPredicateConvertible {
    func converted(_ conversion: inout PredicateConversion) throws(FoundationPredicateError)
        -> ConvertedTerm
    {
        .expression(.constant(.null))
    }
}

extension PredicateExpressions.KeyPath: FoundationPredicateConvertible {
    func converted(_ conversion: inout PredicateConversion) throws(FoundationPredicateError)
        -> ConvertedTerm
    {
        let base = try conversion.expression(root)
        let count = PredicateConversion.appending([.operator(.count)], to: base)
        switch kind {
        case .collectionCount: return .expression(count)
        case .collectionIsEmpty: return .predicate(count.equals(0))
        case .collectionFirst, .bidirectionalCollectionLast:
            throw .unsupported(self, "first and last of a to-many relationship have no order")
        case nil: break
        }
        let name: String
        do {
            name = try KeyPathNames.name(of: keyPath as AnyKeyPath)
        } catch {
            throw .keyPath(error)
        }
        return .expression(
            PredicateConversion.appending(PredicateKeyPath(name).components, to: base))
    }
}

extension PredicateExpressions.Conjunction: FoundationPredicateConvertible {
    func converted(_ conversion: inout PredicateConversion) throws(FoundationPredicateError)
        -> ConvertedTerm
    {
        .predicate(try conversion.predicate(lhs) && conversion.predicate(rhs))
    }
}

extension PredicateExpressions.Disjunction: FoundationPredicateConvertible {
    func converted(_ conversion: inout PredicateConversion) throws(FoundationPredicateError)
        -> ConvertedTerm
    {
        .predicate(try conversion.predicate(lhs) || conversion.predicate(rhs))
    }
}

extension PredicateExpressions.Negation: FoundationPredicateConvertible {
    func converted(_ conversion: inout PredicateConversion) throws(FoundationPredicateError)
        -> ConvertedTerm
    {
        .predicate(!(try conversion.predicate(wrapped)))
    }
}

extension PredicateExpressions.Comparison: FoundationPredicateConvertible {
    func converted(_ conversion: inout PredicateConversion) throws(FoundationPredicateError)
        -> ConvertedTerm
    {
        let ours: ComparisonOperator
        switch op {
        case .lessThan: ours = .lessThan
        case .lessThanOrEqual: ours = .lessThanOrEqual
        case .greaterThan: ours = .greaterThan
        case .greaterThanOrEqual: ours = .greaterThanOrEqual
        }
        return .predicate(try conversion.expression(lhs).compared(ours, conversion.expression(rhs)))
    }
}

extension PredicateExpressions.Arithmetic: FoundationPredicateConvertible {
    func converted(_ conversion: inout PredicateConversion) throws(FoundationPredicateError)
        -> ConvertedTerm
    {
        let ours: ArithmeticOperator
        switch op {
        case .add: ours = .add
        case .subtract: ours = .subtract
        case .multiply: ours = .multiply
        }
        return try .expression(
            .arithmetic(conversion.expression(lhs), ours, conversion.expression(rhs)))
    }
}

extension PredicateExpressions.FloatDivision: FoundationPredicateConvertible {
    func converted(_ conversion: inout PredicateConversion) throws(FoundationPredicateError)
        -> ConvertedTerm
    {
        .expression(try conversion.expression(lhs).dividedBy(conversion.expression(rhs)))
    }
}

extension PredicateExpressions.IntDivision: FoundationPredicateConvertible {
    /// Swift's integer division truncates toward zero; the predicate `/` divides as floating
    /// point, so the quotient is truncated: `trunc:(a / b)`.
    func converted(_ conversion: inout PredicateConversion) throws(FoundationPredicateError)
        -> ConvertedTerm
    {
        let quotient = try conversion.expression(lhs).dividedBy(conversion.expression(rhs))
        return .expression(.function("trunc:", [quotient]))
    }
}

extension PredicateExpressions.IntRemainder: FoundationPredicateConvertible {
    func converted(_ conversion: inout PredicateConversion) throws(FoundationPredicateError)
        -> ConvertedTerm
    {
        try .expression(
            .function("modulus:by:", [conversion.expression(lhs), conversion.expression(rhs)]))
    }
}

extension PredicateExpressions.UnaryMinus: FoundationPredicateConvertible {
    func converted(_ conversion: inout PredicateConversion) throws(FoundationPredicateError)
        -> ConvertedTerm
    {
        switch try conversion.expression(wrapped) {
        case .constant(.integer(let n)) where n != .min: return .expression(.constant(.integer(-n)))
        case .constant(.double(let d)): return .expression(.constant(.double(-d)))
        case .constant(.decimal(let d)): return .expression(.constant(.decimal(-d)))
        case let value: return .expression(.negate(value))
        }
    }
}

extension PredicateExpressions.ForcedUnwrap: FoundationPredicateConvertible {
    /// `x!` is `x`: a nil value compares as nil (false) instead of failing.
    func converted(_ conversion: inout PredicateConversion) throws(FoundationPredicateError)
        -> ConvertedTerm
    {
        try conversion.term(inner)
    }
}

extension PredicateExpressions.OptionalFlatMap: FoundationPredicateConvertible {
    /// `a?.b` and `a.flatMap { … }`: the variable stands for `a`'s expression (key paths carry
    /// nil through); a condition inside is nil when `a` is, so it keeps `a` for a `??`.
    func converted(_ conversion: inout PredicateConversion) throws(FoundationPredicateError)
        -> ConvertedTerm
    {
        let base = try conversion.expression(wrapped)
        conversion.bind(variable.key, to: base)
        switch try conversion.term(transform) {
        case .predicate(let predicate): return .optionalPredicate(base, predicate)
        case .range: throw .unsupported(self, "a range is a value only for contains")
        case let other: return other
        }
    }
}

extension PredicateExpressions.NilCoalesce: FoundationPredicateConvertible {
    /// `a ?? b` is `TERNARY(a != nil, a, b)`; an optional condition `c ?? d` is
    /// `(a != nil AND c) OR (a == nil AND d)`.
    func converted(_ conversion: inout PredicateConversion) throws(FoundationPredicateError)
        -> ConvertedTerm
    {
        switch try conversion.term(lhs) {
        case .optionalPredicate(let base, let condition):
            let fallback = try conversion.predicate(rhs)
            switch fallback {
            case .constant(false): return .predicate(base.notEquals(nil) && condition)
            case .constant(true): return .predicate(base.equals(nil) || condition)
            default:
                return .predicate(
                    (base.notEquals(nil) && condition) || (base.equals(nil) && fallback))
            }
        case .expression(let value):
            let fallback = try conversion.expression(rhs)
            return .expression(.ternary(value.notEquals(nil), value, fallback))
        case .predicate, .range:
            throw .unsupported(self, "the left side of ?? is not optional")
        }
    }
}

extension PredicateExpressions.Conditional: FoundationPredicateConvertible {
    /// `c ? a : b` is `TERNARY(c, a, b)`; with conditions for branches,
    /// `(c AND a) OR (NOT c AND b)`.
    func converted(_ conversion: inout PredicateConversion) throws(FoundationPredicateError)
        -> ConvertedTerm
    {
        let condition = try conversion.predicate(test)
        let whenTrue = try conversion.term(trueBranch)
        let whenFalse = try conversion.term(falseBranch)
        switch (whenTrue, whenFalse) {
        case (.predicate, _), (_, .predicate):
            let a = try conversion.predicate(trueBranch)
            let b = try conversion.predicate(falseBranch)
            return .predicate((condition && a) || (!condition && b))
        default: break
        }
        return .expression(
            .ternary(
                condition, try conversion.expression(trueBranch),
                try conversion.expression(falseBranch)))
    }
}

extension PredicateExpressions.SequenceContainsWhere: FoundationPredicateConvertible {
    /// `c.contains { test }` is `SUBQUERY(c, $v, test).@count > 0`.
    func converted(_ conversion: inout PredicateConversion) throws(FoundationPredicateError)
        -> ConvertedTerm
    {
        let matches = try conversion.subquery(sequence, variable.key, test)
        return .predicate(PredicateConversion.appending([.operator(.count)], to: matches) > 0)
    }
}

extension PredicateExpressions.SequenceAllSatisfy: FoundationPredicateConvertible {
    /// `c.allSatisfy { test }` is `SUBQUERY(c, $v, NOT test).@count == 0`.
    func converted(_ conversion: inout PredicateConversion) throws(FoundationPredicateError)
        -> ConvertedTerm
    {
        let failures = try conversion.subquery(sequence, variable.key, test, negated: true)
        return .predicate(
            PredicateConversion.appending([.operator(.count)], to: failures).equals(0))
    }
}

extension PredicateExpressions.Filter: FoundationPredicateConvertible {
    /// `c.filter { test }` is `SUBQUERY(c, $v, test)` (count it with `.count`).
    func converted(_ conversion: inout PredicateConversion) throws(FoundationPredicateError)
        -> ConvertedTerm
    {
        .expression(try conversion.subquery(sequence, variable.key, filter))
    }
}

extension PredicateExpressions.ClosedRange: FoundationPredicateConvertible {
    func converted(_ conversion: inout PredicateConversion) throws(FoundationPredicateError)
        -> ConvertedTerm
    {
        try .range(conversion.expression(lower), conversion.expression(upper), closed: true)
    }
}

extension PredicateExpressions.Range: FoundationPredicateConvertible {
    func converted(_ conversion: inout PredicateConversion) throws(FoundationPredicateError)
        -> ConvertedTerm
    {
        try .range(conversion.expression(lower), conversion.expression(upper), closed: false)
    }
}

extension PredicateExpressions.RangeExpressionContains: FoundationPredicateConvertible {
    /// `(a...b).contains(x)` is `x BETWEEN {a, b}`; `(a..<b).contains(x)` is
    /// `x >= a AND x < b`.
    func converted(_ conversion: inout PredicateConversion) throws(FoundationPredicateError)
        -> ConvertedTerm
    {
        guard case .range(let lower, let upper, let closed) = try conversion.term(range) else {
            throw .unsupported(self, "only a range written in the predicate (a...b, a..<b)")
        }
        let value = try conversion.expression(element)
        if closed { return .predicate(value.between(lower, upper)) }
        return .predicate(value >= lower && value < upper)
    }
}

/// A construct that is one comparison of two converted operands.
protocol FoundationComparisonConstruct: FoundationPredicateConvertible {
    /// The comparison's operator.
    static var comparisonOperator: ComparisonOperator { get }
    /// The left and right operands, in the comparison's order.
    var operands: (left: Any, right: Any) { get }
}

extension FoundationComparisonConstruct {
    func converted(_ conversion: inout PredicateConversion) throws(FoundationPredicateError)
        -> ConvertedTerm
    {
        let (left, right) = operands
        return try .predicate(
            conversion.expression(left).compared(
                Self.comparisonOperator, conversion.expression(right)))
    }
}

extension PredicateExpressions.Equal: FoundationComparisonConstruct {
    static var comparisonOperator: ComparisonOperator { .equal }
    var operands: (left: Any, right: Any) { (lhs, rhs) }
}

extension PredicateExpressions.NotEqual: FoundationComparisonConstruct {
    static var comparisonOperator: ComparisonOperator { .notEqual }
    var operands: (left: Any, right: Any) { (lhs, rhs) }
}

/// `s.starts(with: p)` is `s BEGINSWITH p`.
extension PredicateExpressions.SequenceStartsWith: FoundationComparisonConstruct {
    static var comparisonOperator: ComparisonOperator { .beginsWith }
    var operands: (left: Any, right: Any) { (base, prefix) }
}

/// `s.contains(t)` of strings is `s CONTAINS t`.
extension PredicateExpressions.CollectionContainsCollection: FoundationComparisonConstruct {
    static var comparisonOperator: ComparisonOperator { .contains }
    var operands: (left: Any, right: Any) { (base, other) }
}

/// `list.contains(x)` is `x IN list`.
extension PredicateExpressions.SequenceContains: FoundationComparisonConstruct {
    static var comparisonOperator: ComparisonOperator { .in }
    var operands: (left: Any, right: Any) { (element, sequence) }
}
