import Foundation

extension Predicate {
    /// Converts Foundation's `#Predicate` to an ObjectGraph predicate (and so to SQL), naming
    /// key paths through the class's ``KeyPathNaming`` table (generated classes conform).
    ///
    /// ```swift
    /// let minimum = 20
    /// let p = try ObjectGraph.Predicate(#Predicate<Student> {
    ///     $0.name.starts(with: "A") && $0.age > minimum
    /// })
    /// print(p)  // name BEGINSWITH "A" AND age > 20
    /// ```
    ///
    /// Comparisons, `==`/`!=`, `&&`/`||`/`!`, arithmetic, `nil` checks, optional chaining and
    /// `??`, `starts(with:)` (BEGINSWITH), string `contains` (CONTAINS), sequence `contains`
    /// (IN), ranges (BETWEEN), `contains(where:)`/`allSatisfy`/`filter` over to-many
    /// relationships (SUBQUERY), `count`/`isEmpty` (`@count`), conditionals (TERNARY) and
    /// captured values convert. Anything else throws.
    /// - Throws: ``FoundationPredicateError`` naming the construct, key path or value.
    public init<Input: KeyPathNaming>(_ predicate: Foundation.Predicate<Input>)
        throws(FoundationPredicateError)
    {
        var conversion = PredicateConversion()
        conversion.bind(predicate.variable.key, to: .evaluatedObject)
        self = try conversion.predicate(predicate.expression)
    }
}

/// A `PredicateExpressions` construct that has an ObjectGraph form.
protocol FoundationPredicateConvertible {
    /// The construct's ObjectGraph form.
    func converted(_ conversion: inout PredicateConversion) throws(FoundationPredicateError)
        -> ConvertedTerm
}

/// What a construct converts to.
enum ConvertedTerm {
    /// A condition.
    case predicate(Predicate)
    /// A value.
    case expression(Expression)
    /// A condition inside an optional's `flatMap`, which is nil (not false) when the optional
    /// is nil: only `?? Bool` gives it a meaning.
    case optionalPredicate(Expression, Predicate)
    /// A range `lower...upper` (closed) or `lower..<upper`.
    case range(Expression, Expression, closed: Bool)
}

/// The state of one conversion: what each of the predicate's variables stands for.
struct PredicateConversion {
    /// The input variable is the evaluated object; a `flatMap` variable is the wrapped value's
    /// expression; a `contains(where:)`/`filter` variable is a SUBQUERY variable.
    /// Each with the SUBQUERY depth it was bound at.
    var bindings: [PredicateExpressions.VariableID: (value: Expression, depth: Int)] = [:]
    /// How many SUBQUERY variables are in use (they are named `$v1`, `$v2`, …).
    var subqueryDepth = 0

    /// Makes `variable` stand for `value` at the current SUBQUERY depth.
    mutating func bind(_ variable: PredicateExpressions.VariableID, to value: Expression) {
        bindings[variable] = (value, subqueryDepth)
    }

    /// Whether `value` is rooted at a SUBQUERY variable (`$v1`, `$v1.title`), which a nested
    /// SUBQUERY may name.
    static func isVariable(_ value: Expression) -> Bool {
        switch value {
        case .variable: return true
        case .member(let base, _): return isVariable(base)
        default: return false
        }
    }

    /// Converts a construct.
    mutating func term(_ construct: Any) throws(FoundationPredicateError) -> ConvertedTerm {
        guard let convertible = construct as? any FoundationPredicateConvertible else {
            throw .unsupported(construct, "no Core Data predicate has this meaning")
        }
        return try convertible.converted(&self)
    }

    /// Converts a construct used as a condition (a Boolean value `b` is `b == YES`).
    mutating func predicate(_ construct: Any) throws(FoundationPredicateError) -> Predicate {
        switch try term(construct) {
        case .predicate(let predicate): return predicate
        case .expression(.constant(.bool(let value))): return .constant(value)
        case .expression(let expression): return expression.equals(true)
        case .optionalPredicate:
            throw .unsupported(construct, "an optional condition needs `?? true` or `?? false`")
        case .range: throw .unsupported(construct, "a range is not a condition")
        }
    }

    /// Converts a construct used as a value (a condition is `TERNARY(c, YES, NO)`).
    mutating func expression(_ construct: Any) throws(FoundationPredicateError) -> Expression {
        switch try term(construct) {
        case .expression(let expression): return expression
        case .predicate(.constant(let value)): return .constant(.bool(value))
        case .predicate(let predicate): return .ternary(predicate, true, false)
        case .optionalPredicate:
            throw .unsupported(construct, "an optional condition needs `?? true` or `?? false`")
        case .range: throw .unsupported(construct, "a range is a value only for contains")
        }
    }

    /// A SUBQUERY over `sequence` whose variable is `variable`, with the condition `test`.
    mutating func subquery(
        _ sequence: Any, _ variable: PredicateExpressions.VariableID, _ test: Any,
        negated: Bool = false
    ) throws(FoundationPredicateError) -> Expression {
        let collection = try expression(sequence)
        subqueryDepth += 1
        defer { subqueryDepth -= 1 }
        let name = "v\(subqueryDepth)"
        bind(variable, to: .variable(name))
        let condition = try predicate(test)
        return .subquery(collection, name, negated ? !condition : condition)
    }

    /// A key path continued by `components`: `department` + `name` is `department.name`.
    static func appending(_ components: [PredicateKeyPath.Component], to base: Expression)
        -> Expression
    {
        switch base {
        case .evaluatedObject: return .keyPath(PredicateKeyPath(components))
        case .keyPath(let path): return .keyPath(PredicateKeyPath(path.components + components))
        case .member(let inner, let path):
            return .member(inner, PredicateKeyPath(path.components + components))
        default: return .member(base, PredicateKeyPath(components))
        }
    }

    /// A captured value as a constant (raw-representable values by their raw value).
    static func constant(_ value: Any, in construct: Any) throws(FoundationPredicateError)
        -> Expression
    {
        var argument = FormatArgument.unwrap(value)
        if let raw = argument as? any RawRepresentable { argument = raw.rawValue }
        do {
            return try FormatArgument.expression(from: argument)
        } catch {
            throw .unsupportedValue(
                type: "\(type(of: argument ?? value))",
                in: FoundationPredicateError.constructName(type(of: construct)))
        }
    }
}
