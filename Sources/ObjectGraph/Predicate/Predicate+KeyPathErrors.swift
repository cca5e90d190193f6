extension Predicate {
    /// The first key-path error a predicate built from key paths carries (a key path its root
    /// type does not name, a value with no predicate form), or nil. Fetches throw it before
    /// running the predicate.
    ///
    /// ```swift
    /// let p = \Student.transientCache == 3
    /// p.keyPathError  // .unnamedKeyPath("\\Student.transientCache", type: "Student")
    /// ```
    public var keyPathError: KeyPathNamingError? {
        switch self {
        case .constant: return nil
        case .and(let terms), .or(let terms):
            for term in terms { if let error = term.keyPathError { return error } }
            return nil
        case .not(let inner): return inner.keyPathError
        case .comparison(let comparison):
            return comparison.left.keyPathError ?? comparison.right.keyPathError
        }
    }
}

extension Expression {
    /// The first key-path error this expression carries, or nil (see
    /// ``Predicate/keyPathError``).
    public var keyPathError: KeyPathNamingError? {
        switch self {
        case .constant, .evaluatedObject, .keyPath, .variable: return nil
        case .aggregate(let elements): return Self.firstError(elements)
        case .member(let base, _), .negate(let base), .cast(let base, _): return base.keyPathError
        case .index(let base, let index):
            if let error = base.keyPathError { return error }
            if case .expression(let key) = index { return key.keyPathError }
            return nil
        case .function(let selector, let arguments):
            return KeyPathNamingError(selector: selector, arguments: arguments)
                ?? Self.firstError(arguments)
        case .functionCall(let target, _, let arguments):
            return target.keyPathError ?? Self.firstError(arguments)
        case .arithmetic(let left, _, let right): return left.keyPathError ?? right.keyPathError
        case .subquery(let collection, _, let predicate):
            return collection.keyPathError ?? predicate.keyPathError
        case .ternary(let test, let then, let otherwise):
            return test.keyPathError ?? then.keyPathError ?? otherwise.keyPathError
        }
    }

    private static func firstError(_ expressions: [Expression]) -> KeyPathNamingError? {
        for expression in expressions { if let error = expression.keyPathError { return error } }
        return nil
    }
}
