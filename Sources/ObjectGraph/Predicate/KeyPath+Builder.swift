/// The predicate builder with key paths of classes that name their properties
/// (``KeyPathNaming``, as generated classes do): the same trees as the string-keyed builder.
///
/// ```swift
/// let p = \Student.gpa >= 3.0 && (\Student.name).beginsWith("A", options: .caseInsensitive)
/// // == try Predicate(format: "gpa >= 3.0 AND name BEGINSWITH[c] 'A'")
/// ```
///
/// A key path the class does not name (or a value with no predicate form) cannot throw here:
/// the predicate carries a ``KeyPathNamingError``, ``Predicate/keyPathError`` reports it, and
/// a fetch with it throws it. The key path is never dropped or replaced.
extension Expression {
    /// The key path's model key, as an expression: `.key(\Student.name)` is `.key("name")`.
    public static func key<Root: KeyPathNaming>(_ keyPath: PartialKeyPath<Root>) -> Expression {
        KeyPathNames.expression(of: keyPath)
    }
}

extension Predicate {
    /// The key path's model key, as an expression: `Predicate.key(\Student.age) > 30`.
    public static func key<Root: KeyPathNaming>(_ keyPath: PartialKeyPath<Root>) -> Expression {
        KeyPathNames.expression(of: keyPath)
    }
}

extension KeyPath where Root: KeyPathNaming {
    /// The key path's model key as an expression.
    public var expression: Expression { KeyPathNames.expression(of: self) }

    /// `key BEGINSWITH prefix`
    public func beginsWith(_ prefix: Expression, options: ComparisonOptions = []) -> Predicate {
        expression.beginsWith(prefix, options: options)
    }

    /// `key ENDSWITH suffix`
    public func endsWith(_ suffix: Expression, options: ComparisonOptions = []) -> Predicate {
        expression.endsWith(suffix, options: options)
    }

    /// `key CONTAINS other` (a substring, or an element of a to-many relationship).
    public func contains(_ other: Expression, options: ComparisonOptions = []) -> Predicate {
        expression.contains(other, options: options)
    }

    /// `key LIKE pattern` (`*` and `?` wildcards).
    public func like(_ pattern: Expression, options: ComparisonOptions = []) -> Predicate {
        expression.like(pattern, options: options)
    }

    /// `key MATCHES regex` (ICU, whole string).
    public func matches(_ regex: Expression, options: ComparisonOptions = []) -> Predicate {
        expression.matches(regex, options: options)
    }

    /// `key IN {values…}`
    public func isIn<S: Sequence>(_ values: S, options: ComparisonOptions = []) -> Predicate {
        expression.isIn(
            KeyPathNames.constant(Array(values), comparedWith: self), options: options)
    }

    /// `key BETWEEN {low, high}` (inclusive).
    public func between(_ low: Value, _ high: Value) -> Predicate where Value: Comparable {
        expression.between(
            KeyPathNames.constant(low, comparedWith: self),
            KeyPathNames.constant(high, comparedWith: self))
    }
}

/// A comparison of a key path with a value.
private func compare<Root: KeyPathNaming>(
    _ keyPath: AnyKeyPath, _ root: Root.Type, _ op: ComparisonOperator, _ value: Any?
) -> Predicate {
    let left = KeyPathNames.expression(of: keyPath)
    return left.compared(op, KeyPathNames.constant(value, comparedWith: keyPath))
}

/// `key == value`
public func == <Root: KeyPathNaming, V: Equatable>(lhs: KeyPath<Root, V>, rhs: V) -> Predicate {
    compare(lhs, Root.self, .equal, rhs)
}
/// `key == value` for an optional property (`\Student.nickname == nil`).
public func == <Root: KeyPathNaming, V: Equatable>(lhs: KeyPath<Root, V?>, rhs: V?) -> Predicate {
    compare(lhs, Root.self, .equal, rhs)
}
/// `key != value`
public func != <Root: KeyPathNaming, V: Equatable>(lhs: KeyPath<Root, V>, rhs: V) -> Predicate {
    compare(lhs, Root.self, .notEqual, rhs)
}
/// `key != value` for an optional property (`\Student.nickname != nil`).
public func != <Root: KeyPathNaming, V: Equatable>(lhs: KeyPath<Root, V?>, rhs: V?) -> Predicate {
    compare(lhs, Root.self, .notEqual, rhs)
}
/// `key < value`
public func < <Root: KeyPathNaming, V: Comparable>(lhs: KeyPath<Root, V>, rhs: V) -> Predicate {
    compare(lhs, Root.self, .lessThan, rhs)
}
/// `key < value` for an optional property (nil never matches).
public func < <Root: KeyPathNaming, V: Comparable>(lhs: KeyPath<Root, V?>, rhs: V) -> Predicate {
    compare(lhs, Root.self, .lessThan, rhs)
}
/// `key <= value`
public func <= <Root: KeyPathNaming, V: Comparable>(lhs: KeyPath<Root, V>, rhs: V) -> Predicate {
    compare(lhs, Root.self, .lessThanOrEqual, rhs)
}
/// `key <= value` for an optional property (nil never matches).
public func <= <Root: KeyPathNaming, V: Comparable>(lhs: KeyPath<Root, V?>, rhs: V) -> Predicate {
    compare(lhs, Root.self, .lessThanOrEqual, rhs)
}
/// `key > value`
public func > <Root: KeyPathNaming, V: Comparable>(lhs: KeyPath<Root, V>, rhs: V) -> Predicate {
    compare(lhs, Root.self, .greaterThan, rhs)
}
/// `key > value` for an optional property (nil never matches).
public func > <Root: KeyPathNaming, V: Comparable>(lhs: KeyPath<Root, V?>, rhs: V) -> Predicate {
    compare(lhs, Root.self, .greaterThan, rhs)
}
/// `key >= value`
public func >= <Root: KeyPathNaming, V: Comparable>(lhs: KeyPath<Root, V>, rhs: V) -> Predicate {
    compare(lhs, Root.self, .greaterThanOrEqual, rhs)
}
/// `key >= value` for an optional property (nil never matches).
public func >= <Root: KeyPathNaming, V: Comparable>(lhs: KeyPath<Root, V?>, rhs: V) -> Predicate {
    compare(lhs, Root.self, .greaterThanOrEqual, rhs)
}
