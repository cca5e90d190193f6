/// The Swift builder: expressions and comparisons without format strings, producing the same
/// trees as the parser.
///
/// ```swift
/// let p = Expression.key("age") > 30
///     && Expression.key("name").beginsWith("J", options: .caseInsensitive)
///     || .any(Expression.key("tags.name").equals("swift"))
/// // == try Predicate(format: "age > 30 AND name BEGINSWITH[c] 'J' OR ANY tags.name == 'swift'")
/// ```
///
/// Only `<`, `<=`, `>`, `>=` (on ``Expression``) and `&&`, `||`, `!` (on ``Predicate``) are
/// operators; everything else is a named method, so `==` keeps its `Equatable` meaning and the
/// type checker stays fast. Equality with nil is `equals(nil)`, which (as in Core Data) matches
/// a missing or null value.
extension Expression {
    /// A key path on the evaluated object, split at the dots: `.key("items.@sum.price")`.
    public static func key(_ path: String) -> Expression { .keyPath(PredicateKeyPath(path)) }

    /// A comparison with this expression on the left.
    public func compared(
        _ op: ComparisonOperator, _ other: Expression, options: ComparisonOptions = []
    ) -> Predicate {
        .comparison(Comparison(self, op, other, options: options))
    }

    /// `self == other`
    public func equals(_ other: Expression, options: ComparisonOptions = []) -> Predicate {
        compared(.equal, other, options: options)
    }

    /// `self != other`
    public func notEquals(_ other: Expression, options: ComparisonOptions = []) -> Predicate {
        compared(.notEqual, other, options: options)
    }

    /// `self BEGINSWITH other`
    public func beginsWith(_ other: Expression, options: ComparisonOptions = []) -> Predicate {
        compared(.beginsWith, other, options: options)
    }

    /// `self ENDSWITH other`
    public func endsWith(_ other: Expression, options: ComparisonOptions = []) -> Predicate {
        compared(.endsWith, other, options: options)
    }

    /// `self CONTAINS other`
    public func contains(_ other: Expression, options: ComparisonOptions = []) -> Predicate {
        compared(.contains, other, options: options)
    }

    /// `self LIKE pattern` (`*` and `?` wildcards).
    public func like(_ pattern: Expression, options: ComparisonOptions = []) -> Predicate {
        compared(.like, pattern, options: options)
    }

    /// `self MATCHES regex` (ICU, whole string).
    public func matches(_ regex: Expression, options: ComparisonOptions = []) -> Predicate {
        compared(.matches, regex, options: options)
    }

    /// `self IN collection`
    public func isIn(_ collection: Expression, options: ComparisonOptions = []) -> Predicate {
        compared(.in, collection, options: options)
    }

    /// `self BETWEEN {low, high}` (inclusive).
    public func between(_ low: Expression, _ high: Expression) -> Predicate {
        compared(.between, .aggregate([low, high]))
    }

    /// `self + other`
    public func plus(_ other: Expression) -> Expression { .arithmetic(self, .add, other) }
    /// `self - other`
    public func minus(_ other: Expression) -> Expression { .arithmetic(self, .subtract, other) }
    /// `self * other`
    public func times(_ other: Expression) -> Expression { .arithmetic(self, .multiply, other) }
    /// `self / other`
    public func dividedBy(_ other: Expression) -> Expression { .arithmetic(self, .divide, other) }

    /// `self < rhs`
    public static func < (lhs: Expression, rhs: Expression) -> Predicate {
        lhs.compared(.lessThan, rhs)
    }
    /// `self <= rhs`
    public static func <= (lhs: Expression, rhs: Expression) -> Predicate {
        lhs.compared(.lessThanOrEqual, rhs)
    }
    /// `self > rhs`
    public static func > (lhs: Expression, rhs: Expression) -> Predicate {
        lhs.compared(.greaterThan, rhs)
    }
    /// `self >= rhs`
    public static func >= (lhs: Expression, rhs: Expression) -> Predicate {
        lhs.compared(.greaterThanOrEqual, rhs)
    }
}

extension Expression: ExpressibleByIntegerLiteral {
    /// An integer constant.
    public init(integerLiteral value: Int64) { self = .constant(.integer(value)) }
}

extension Expression: ExpressibleByFloatLiteral {
    /// A double constant.
    public init(floatLiteral value: Double) { self = .constant(.double(value)) }
}

extension Expression: ExpressibleByStringLiteral {
    /// A string constant (not a key path: use ``key(_:)-(String)`` for those).
    public init(stringLiteral value: String) { self = .constant(.string(value)) }
}

extension Expression: ExpressibleByBooleanLiteral {
    /// A Boolean constant.
    public init(booleanLiteral value: Bool) { self = .constant(.bool(value)) }
}

extension Expression: ExpressibleByNilLiteral {
    /// The nil constant.
    public init(nilLiteral: ()) { self = .constant(.null) }
}

extension Expression: ExpressibleByArrayLiteral {
    /// An aggregate `{…}`.
    public init(arrayLiteral elements: Expression...) { self = .aggregate(elements) }
}

extension Predicate {
    /// `lhs AND rhs`, flattening a left-hand `AND` so that `a && b && c` is one `AND` of three,
    /// as the parser reads `a AND b AND c`.
    public static func && (lhs: Predicate, rhs: Predicate) -> Predicate {
        if case .and(let terms) = lhs { return .and(terms + [rhs]) }
        return .and([lhs, rhs])
    }

    /// `lhs OR rhs`, flattening a left-hand `OR`.
    public static func || (lhs: Predicate, rhs: Predicate) -> Predicate {
        if case .or(let terms) = lhs { return .or(terms + [rhs]) }
        return .or([lhs, rhs])
    }

    /// `NOT predicate`
    public static prefix func ! (predicate: Predicate) -> Predicate { .not(predicate) }

    /// `ANY comparison`: the comparison's left side is a collection and one element must match.
    public static func any(_ predicate: Predicate) -> Predicate { quantified(predicate, .any) }

    /// `ALL comparison`: every element must match (true for an empty collection).
    public static func all(_ predicate: Predicate) -> Predicate { quantified(predicate, .all) }

    /// `NONE comparison`, which is `NOT ANY comparison`.
    public static func none(_ predicate: Predicate) -> Predicate {
        .not(quantified(predicate, .any))
    }

    private static func quantified(_ predicate: Predicate, _ modifier: ComparisonModifier)
        -> Predicate
    {
        guard case .comparison(var comparison) = predicate else { return predicate }
        comparison.modifier = modifier
        return .comparison(comparison)
    }

    /// A key path expression, so that `Predicate.key("age") > 30` reads naturally.
    public static func key(_ path: String) -> Expression { .key(path) }
}
