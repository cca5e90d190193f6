extension Predicate {
    /// Replaces `$VARIABLES` with constants; variables not in the dictionary stay (and make
    /// evaluation throw unless given to `evaluate(with:variables:)`). Variables bound by a
    /// `SUBQUERY` are never replaced inside it.
    ///
    /// ```swift
    /// let template = try Predicate(format: "name == $NAME AND age > $AGE")
    /// let p = template.withSubstitutionVariables(["NAME": "Ada", "AGE": 30])
    /// print(p)  // name == "Ada" AND age > 30
    /// ```
    public func withSubstitutionVariables(_ variables: [String: Value]) -> Predicate {
        withSubstitutionVariables(expressions: variables.mapValues(Expression.constant))
    }

    /// Replaces `$VARIABLES` with expressions, such as collections for `IN`:
    ///
    /// ```swift
    /// let p = try Predicate(format: "status IN $S")
    ///     .withSubstitutionVariables(expressions: ["S": .aggregate(["open", "new"])])
    /// print(p)  // status IN {"open", "new"}
    /// ```
    public func withSubstitutionVariables(expressions variables: [String: Expression])
        -> Predicate
    {
        Substitution(variables: variables).apply(self)
    }

    /// The names of the `$VARIABLES` the predicate uses outside subquery bindings, sorted.
    public var variableNames: [String] {
        var names = Set<String>()
        Substitution.collect(self, bound: [], into: &names)
        return names.sorted()
    }
}

extension Expression {
    /// Replaces `$VARIABLES` in the expression with expressions.
    public func withSubstitutionVariables(expressions variables: [String: Expression])
        -> Expression
    {
        Substitution(variables: variables).apply(self)
    }
}

/// Rewrites variables in a tree.
struct Substitution {
    var variables: [String: Expression]

    func apply(_ predicate: Predicate) -> Predicate {
        switch predicate {
        case .constant: return predicate
        case .and(let terms): return .and(terms.map(apply))
        case .or(let terms): return .or(terms.map(apply))
        case .not(let inner): return .not(apply(inner))
        case .comparison(var c):
            c.left = apply(c.left)
            c.right = apply(c.right)
            return .comparison(c)
        }
    }

    func apply(_ expression: Expression) -> Expression {
        switch expression {
        case .constant, .evaluatedObject, .keyPath:
            return expression
        case .variable(let name):
            return variables[name] ?? expression
        case .aggregate(let elements):
            return .aggregate(elements.map(apply))
        case .member(let base, let path):
            return .member(apply(base), path)
        case .index(let base, let selector):
            if case .expression(let e) = selector {
                return .index(apply(base), .expression(apply(e)))
            }
            return .index(apply(base), selector)
        case .function(let selector, let arguments):
            return .function(selector, arguments.map(apply))
        case .functionCall(let target, let selector, let arguments):
            return .functionCall(apply(target), selector, arguments.map(apply))
        case .arithmetic(let l, let op, let r):
            return .arithmetic(apply(l), op, apply(r))
        case .negate(let inner):
            return .negate(apply(inner))
        case .subquery(let collection, let variable, let predicate):
            var inner = self
            inner.variables[variable] = nil
            return .subquery(apply(collection), variable, inner.apply(predicate))
        case .ternary(let condition, let a, let b):
            return .ternary(apply(condition), apply(a), apply(b))
        case .cast(let inner, let type):
            return CastFolding.fold(apply(inner), type)
        }
    }

    static func collect(_ predicate: Predicate, bound: Set<String>, into names: inout Set<String>) {
        switch predicate {
        case .constant: break
        case .and(let terms), .or(let terms):
            for term in terms { collect(term, bound: bound, into: &names) }
        case .not(let inner): collect(inner, bound: bound, into: &names)
        case .comparison(let c):
            collect(c.left, bound: bound, into: &names)
            collect(c.right, bound: bound, into: &names)
        }
    }

    static func collect(_ expression: Expression, bound: Set<String>, into names: inout Set<String>)
    {
        switch expression {
        case .constant, .evaluatedObject, .keyPath: break
        case .variable(let name): if !bound.contains(name) { names.insert(name) }
        case .aggregate(let elements), .function(_, let elements):
            for e in elements { collect(e, bound: bound, into: &names) }
        case .member(let base, _), .negate(let base), .cast(let base, _):
            collect(base, bound: bound, into: &names)
        case .index(let base, let selector):
            collect(base, bound: bound, into: &names)
            if case .expression(let e) = selector { collect(e, bound: bound, into: &names) }
        case .functionCall(let target, _, let arguments):
            for e in [target] + arguments { collect(e, bound: bound, into: &names) }
        case .arithmetic(let l, _, let r):
            collect(l, bound: bound, into: &names)
            collect(r, bound: bound, into: &names)
        case .subquery(let collection, let variable, let predicate):
            collect(collection, bound: bound, into: &names)
            collect(predicate, bound: bound.union([variable]), into: &names)
        case .ternary(let condition, let a, let b):
            collect(condition, bound: bound, into: &names)
            collect(a, bound: bound, into: &names)
            collect(b, bound: bound, into: &names)
        }
    }
}
