import SQLiteDatabase

/// `SUBQUERY(collection, $variable, predicate)` in SQL: the rows of the collection's correlated
/// subquery that the predicate (evaluated with `SELF` and `$variable` as the element) keeps.
///
/// The collection may be anything whose elements are rows of the store:
/// - a to-many key path, through to-one and further to-many relationships (`children`,
///   `team.members`, `children.tags`, `$c.tags`): each element is an object;
/// - such a path ending on a to-one (`children.team`): each element is that object, nil for
///   a row without one (a LEFT JOIN inside the subquery);
/// - such a path ending on an attribute or a key of a string (`tags.name`,
///   `tags.name.length`): each element is the column's value, nil included.
///
/// The result is counted (`.@count`, `[SIZE]`), aggregated (`.@sum.key`, `.@avg`, `.@min`,
/// `.@max`), or read as a collection by `ANY`/`ALL`/`NONE`, `IN` and `CONTAINS`, also after
/// keys of its elements (`SUBQUERY(…).name`). A constant collection (`{1, 2}`, or a variable
/// substituted with one) is counted term by term. What has no rows in the store — an
/// attribute whose value is itself a collection (a transformable holding an archived array),
/// a to-one or a single value — stays untranslatable, and the store evaluates the predicate
/// in memory, where the evaluator gives its answer or its error.
extension SQLPredicateTranslator {
    /// The rows of a `SUBQUERY`, filtered by its predicate.
    struct SubqueryRows {
        var source: SQLCollectionSource
        /// Whether each element is the object at `source.scope` (so key paths continue from
        /// it); otherwise elements are the values `source.element`.
        var elementsAreObjects: Bool
    }

    /// The most elements of a constant collection a `SUBQUERY` counts term by term.
    static let constantSubqueryLength = 100

    /// Translates an operand that reads a `SUBQUERY` or an element bound by one, nil for
    /// any other expression.
    func subqueryOperand(_ expression: Expression, _ scope: SQLScope)
        throws(SQLTranslationError) -> SQLOperand?
    {
        if let value = try boundValue(expression, scope) { return .scalar(value) }
        var text: String { expression.description }
        switch expression {
        case .subquery(let collection, let variable, let predicate):
            return .collection(
                try subqueryRows(collection, variable, predicate, scope, fragment: text).source)
        case .member(.subquery(let collection, let variable, let predicate), let path):
            let components = PredicateKeyPath.normalized(path.components[...])
            if components.elementsEqual([.operator(.count)]) {
                return .scalar(
                    try subqueryCount(collection, variable, predicate, scope, fragment: text))
            }
            let rows = try subqueryRows(collection, variable, predicate, scope, fragment: text)
            return try member(components, of: rows, fragment: text)
        case .index(.subquery(let collection, let variable, let predicate), .size):
            return .scalar(
                try subqueryCount(collection, variable, predicate, scope, fragment: text))
        default:
            return nil
        }
    }

    /// A `SUBQUERY` expression that gives one value (its count or an aggregate).
    func subqueryScalar(_ expression: Expression, _ scope: SQLScope)
        throws(SQLTranslationError) -> SQLFragment
    {
        guard case .scalar(let value)? = try subqueryOperand(expression, scope) else {
            throw .unsupported(
                expression.description,
                reason: "a SUBQUERY is a collection: count it (.@count) or aggregate it")
        }
        return value
    }

    /// `SELF`, a variable, or a key of either, when a `SUBQUERY` bound it to a value (a
    /// column, or a possibly nil object); nil when it is an object row or not bound.
    func boundValue(_ expression: Expression, _ scope: SQLScope)
        throws(SQLTranslationError) -> SQLFragment?
    {
        switch expression {
        case .variable(let name):
            return scope.values[name]
        case .evaluatedObject:
            return scope.selfValue
        case .keyPath(let path), .member(.evaluatedObject, let path):
            guard let value = scope.selfValue else { return nil }
            return try keys(path, of: value, isRow: true, fragment: expression.description)
        case .member(.variable(let name), let path):
            guard let value = scope.values[name] else { return nil }
            return try keys(
                path, of: value, isRow: scope.variables[name] != nil,
                fragment: expression.description)
        default:
            return nil
        }
    }

    /// The keys of `path` read from a bound element: the element itself for an empty path
    /// (`$x.#self`), string keys of a value (`$n.length`), nil to walk from an object row.
    private func keys(
        _ path: PredicateKeyPath, of value: SQLFragment, isRow: Bool, fragment: String
    ) throws(SQLTranslationError) -> SQLFragment? {
        let components = PredicateKeyPath.normalized(path.components[...])
        if components.isEmpty { return value }
        if isRow && value.kind == .object { return nil }
        return try stringKeys(components, of: value, fragment: fragment)
    }

    /// Keys of a string value (`length`, `uppercaseString`, …), one after another.
    private func stringKeys(
        _ components: ArraySlice<PredicateKeyPath.Component>, of value: SQLFragment,
        fragment: String
    ) throws(SQLTranslationError) -> SQLFragment {
        var result = value
        for component in components {
            if case .key(let key) = component, key.hasPrefix("@") {
                throw .unsupported(
                    fragment, reason: "\(key) is not a collection operator (an evaluation error)")
            }
            result = try scalarKey(component, of: result, after: "SUBQUERY", fragment: fragment)
        }
        return result
    }

    /// The collection of a `SUBQUERY` as a collection subquery, with its predicate added to
    /// the subquery's conditions.
    func subqueryRows(
        _ collection: Expression, _ variable: String, _ predicate: Predicate, _ scope: SQLScope,
        fragment: String
    ) throws(SQLTranslationError) -> SubqueryRows {
        guard case .collection(var source) = try subqueryCollection(collection, scope) else {
            throw .unsupported(
                fragment, reason: "SUBQUERY needs a to-many key path (or a constant collection)")
        }
        let elementsAreObjects = source.endsOnObjects || source.element.kind == .object
        var inner = scope
        inner.values[variable] = source.element
        inner.selfValue = source.element
        if elementsAreObjects {
            inner.object = source.scope
            inner.variables[variable] = source.scope
        } else {
            inner.variables[variable] = nil
        }
        source.conditions.append(try condition(predicate, inner))
        return SubqueryRows(source: source, elementsAreObjects: elementsAreObjects)
    }

    /// The collection operand: key paths join a last to-one so its objects are rows.
    private func subqueryCollection(_ collection: Expression, _ scope: SQLScope)
        throws(SQLTranslationError) -> SQLOperand
    {
        if try boundValue(collection, scope) == nil {
            switch collection {
            case .keyPath(let path), .member(.evaluatedObject, let path):
                return try walk(
                    path.components[...], from: scope.object, fragment: collection,
                    joiningLastToOne: true)
            case .member(.variable(let name), let path):
                if let bound = scope.variables[name] {
                    return try walk(
                        path.components[...], from: bound, fragment: collection,
                        joiningLastToOne: true)
                }
            default:
                break
            }
        }
        return try operand(collection, scope)
    }

    /// `SUBQUERY(…).@count`: `COUNT(*)` of its rows, or for a constant collection the sum of
    /// the predicate's 0-or-1 tests, one per element.
    private func subqueryCount(
        _ collection: Expression, _ variable: String, _ predicate: Predicate, _ scope: SQLScope,
        fragment: String
    ) throws(SQLTranslationError) -> SQLFragment {
        if case .aggregate = collection,
            case .list(let items) = try operand(collection, scope)
        {
            guard items.count <= Self.constantSubqueryLength else {
                throw .unsupported(
                    fragment,
                    reason: "SUBQUERY over more than \(Self.constantSubqueryLength) constants")
            }
            var tests: [SQLPiece] = []
            for item in items {
                var inner = scope
                inner.values[variable] = item
                inner.variables[variable] = nil
                inner.selfValue = item
                tests.append(dialect.integer(try condition(predicate, inner)))
            }
            var count = SQLFragment(
                tests.isEmpty
                    ? SQLPiece.bound(.integer(0))
                    : "(" + SQLPiece.joined(tests, separator: " + ") + ")",
                kind: .number, nullable: false)
            count.isInteger = true
            return count
        }
        let rows = try subqueryRows(collection, variable, predicate, scope, fragment: fragment)
        return Self.count(rows.source)
    }

    /// `(SELECT COUNT(*) …)`: the number of elements, nil ones included.
    private static func count(_ source: SQLCollectionSource) -> SQLFragment {
        var count = SQLFragment(
            source.scalar(SQLPiece("COUNT(*)")), kind: .number, nullable: false)
        count.isInteger = true
        return count
    }

    /// `SUBQUERY(…).keys.@op.keys`: keys of each element (a collection), then a collection
    /// operator over them.
    private func member(
        _ components: ArraySlice<PredicateKeyPath.Component>, of subquery: SubqueryRows,
        fragment: String
    ) throws(SQLTranslationError) -> SQLOperand {
        var rows = subquery
        let split =
            components.firstIndex {
                if case .operator = $0 { return true }
                return false
            } ?? components.endIndex
        let keys = components[..<split]
        if !keys.isEmpty {
            rows.source.element = try element(keys, of: rows, fragment: fragment)
            rows.elementsAreObjects = false
        }
        guard split < components.endIndex, case .operator(let op) = components[split] else {
            return .collection(rows.source)
        }
        let rest = components[(split + 1)...]
        if rest.contains(where: {
            if case .operator = $0 { return true }
            return false
        }) {
            throw .unsupported(fragment, reason: "a collection operator after another")
        }
        if op == .count {
            guard rest.isEmpty else {
                throw .unsupported(fragment, reason: "a key after @count")
            }
            return .scalar(Self.count(rows.source))
        }
        let value: SQLFragment
        if rows.elementsAreObjects {
            guard !rest.isEmpty,
                case .scalar(let found) = try walk(
                    rest, from: rows.source.scope, fragment: .keyPath(PredicateKeyPath(Array(rest)))
                )
            else {
                throw .unsupported(fragment, reason: "@\(op.rawValue) needs a value of each object")
            }
            value = found
        } else {
            value = try stringKeys(rest, of: rows.source.element, fragment: fragment)
        }
        return .scalar(
            try collectionAggregate(op, of: value, over: rows.source, fragment: fragment))
    }

    /// The value of `keys` read from each element of a `SUBQUERY`.
    private func element(
        _ keys: ArraySlice<PredicateKeyPath.Component>, of rows: SubqueryRows, fragment: String
    ) throws(SQLTranslationError) -> SQLFragment {
        guard rows.elementsAreObjects else {
            return try stringKeys(keys, of: rows.source.element, fragment: fragment)
        }
        guard
            case .scalar(let value) = try walk(
                keys, from: rows.source.scope, fragment: .keyPath(PredicateKeyPath(Array(keys))))
        else {
            throw .unsupported(fragment, reason: "a to-many key after a SUBQUERY")
        }
        // A nil element (through a to-one) has nil keys: its LEFT JOINed columns are NULL.
        return value
    }
}
