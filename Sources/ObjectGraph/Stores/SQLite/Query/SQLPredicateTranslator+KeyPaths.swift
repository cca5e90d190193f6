import SQLiteDatabase

extension SQLPredicateTranslator {
    /// Follows a key path from an object: attributes are columns, to-one relationships LEFT
    /// JOINs, the first to-many relationship starts a correlated subquery whose rows are the
    /// elements, and a collection operator aggregates over that subquery. With
    /// `joiningLastToOne`, a path that ends on a to-one inside a collection (`children.team`)
    /// LEFT JOINs its destination into the subquery and ends there (the collection's scope is
    /// the destination, its element the destination's nullable key), so a `SUBQUERY` over it
    /// can read the keys of each element.
    func walk(
        _ components: ArraySlice<PredicateKeyPath.Component>, from start: SQLObjectScope,
        fragment expression: Expression, joiningLastToOne: Bool = false
    ) throws(SQLTranslationError) -> SQLOperand {
        var text: String { expression.description }
        let components = PredicateKeyPath.normalized(components)
        var current = start
        var source: SQLCollectionSource?
        var toOneInsideCollection = false
        var index = components.startIndex
        func finish(_ value: SQLFragment, endsOnObjects: Bool) -> SQLOperand {
            guard var collection = source else { return .scalar(value) }
            collection.scope = current
            collection.element = value
            collection.endsOnObjects = endsOnObjects
            return .collection(collection)
        }
        if components.isEmpty { return .scalar(objectFragment(current)) }
        while index < components.endIndex {
            let isLast = index == components.endIndex - 1
            switch components[index] {
            case .operator(let op):
                guard let collection = source else {
                    throw .unsupported(text, reason: "@\(op.rawValue) needs a to-many key path")
                }
                var scoped = collection
                scoped.scope = current
                scoped.endsOnObjects = !toOneInsideCollection
                return .scalar(
                    try aggregate(
                        op, over: scoped, rest: components[(index + 1)...], fragment: text))
            case .key(let key):
                if let attribute = schema.attribute(key, of: current.entity) {
                    var value = try column(of: attribute, in: current, fragment: text)
                    for method in components[(index + 1)...] {
                        value = try scalarKey(method, of: value, after: key, fragment: text)
                    }
                    return finish(value, endsOnObjects: false)
                }
                if key.hasPrefix("@") {
                    throw .unsupported(
                        text, reason: "\(key) is not a collection operator (an evaluation error)")
                }
                guard let relationship = schema.relationship(key, of: current.entity) else {
                    throw .unsupported(
                        text, reason: "'\(current.entity)' has no stored property '\(key)'")
                }
                let storage = try schema.entity(current.entity).relationships[key]
                if !relationship.isToMany {
                    guard case .foreignKey(_, let fk, let entityColumn)? = storage else {
                        throw .unsupported(text, reason: "'\(key)' has no foreign key column")
                    }
                    if isLast, !(joiningLastToOne && source != nil) {
                        return finish(
                            try foreignObject(
                                current, fk, entityColumn, relationship, fragment: text),
                            endsOnObjects: false)
                    }
                    current = try joinToOne(current, key, fk, relationship, fragment: text)
                    if source != nil { toOneInsideCollection = true }
                } else {
                    if toOneInsideCollection {
                        throw .unsupported(
                            text,
                            reason: "a to-many after a to-one inside a collection (nil elements)")
                    }
                    guard let storage else {
                        throw .unsupported(text, reason: "'\(key)' has no storage")
                    }
                    if var collection = source {
                        current = try joinToMany(
                            into: &collection, from: current, storage, relationship,
                            fragment: text)
                        source = collection
                    } else {
                        let started = try startCollection(
                            from: current, storage, relationship, fragment: text)
                        source = started
                        current = started.scope
                    }
                    if isLast { return finish(objectFragment(current), endsOnObjects: true) }
                }
            }
            index += 1
        }
        return finish(objectFragment(current, nullable: true), endsOnObjects: false)
    }

    /// A key of a string value (`name.length`, `name.uppercaseString`) through `og_method`,
    /// which reads it as the evaluator does (``ScalarKeys``).
    func scalarKey(
        _ component: PredicateKeyPath.Component, of value: SQLFragment, after attribute: String,
        fragment: String
    ) throws(SQLTranslationError) -> SQLFragment {
        guard case .key(let key) = component, value.kind == .string,
            let result = SQLFunctions.methodResults[key]
        else {
            throw .unsupported(
                fragment, reason: "the key path continues after the attribute '\(attribute)'")
        }
        if dialect == .postgres { throw .unsupported(fragment, reason: Self.postgresSwiftOnly) }
        return methodCall(key, on: value, result: result)
    }

    /// `og_method(selector, value)`: a string method without arguments, as
    /// `FunctionEvaluator.method` runs it.
    func methodCall(_ selector: String, on value: SQLFragment, result: SQLValueKind)
        -> SQLFragment
    {
        var call = SQLFragment(
            SQLPiece("\(SQLFunctions.method)(") + SQLPiece.bound(.text(selector)) + ", "
                + value.piece + ")", kind: result)
        call.isInteger = result == .number
        return call
    }

    /// The column of an attribute of the object in `scope`.
    private func column(of attribute: Attribute, in scope: SQLObjectScope, fragment: String)
        throws(SQLTranslationError) -> SQLFragment
    {
        guard let kind = SQLValueKind(attributeType: attribute.type),
            let column = try schema.entity(scope.entity).attributeColumns[attribute.name]
        else {
            throw .unsupported(
                fragment, reason: "the attribute '\(attribute.name)' has no column")
        }
        var piece = SQLPiece(scope.alias + "." + quoteIdentifier(column.name))
        if dialect == .postgres, attribute.type == .boolean {
            piece = "CAST(" + piece + " AS integer)"  // Booleans are numbers to predicates
        }
        var fragment = SQLFragment(piece, kind: kind)
        fragment.attributeType = attribute.type
        fragment.isColumn = true
        fragment.isInteger = attribute.type.isInteger || attribute.type == .boolean
        fragment.isDouble = attribute.type == .double || attribute.type == .float
        fragment.source = SQLColumnSource(
            table: try schema.entity(scope.entity).tableName, column: column.name)
        fragment.isReal = attribute.type == .double || attribute.type == .float
        return fragment
    }

    /// The destination of a to-one relationship, read from the foreign key columns.
    private func foreignObject(
        _ scope: SQLObjectScope, _ fk: String, _ entityColumn: String?,
        _ relationship: Relationship, fragment: String
    ) throws(SQLTranslationError) -> SQLFragment {
        let entity: SQLPiece
        if let entityColumn {
            entity = SQLPiece(scope.alias + "." + quoteIdentifier(entityColumn))
        } else {
            let destination = try schema.entity(relationship.destinationEntityName)
            entity = .bound(.integer(Int64(destination.entityNumber)))
        }
        var object = SQLFragment(
            SQLPiece(scope.alias + "." + quoteIdentifier(fk)), kind: .object, entity: entity)
        object.isColumn = true
        return object
    }

    /// LEFT JOINs the destination of a to-one relationship (once per path).
    private func joinToOne(
        _ scope: SQLObjectScope, _ key: String, _ fk: String, _ relationship: Relationship,
        fragment: @autoclosure () -> String
    ) throws(SQLTranslationError) -> SQLObjectScope {
        let destination = try schema.entity(relationship.destinationEntityName)
        let joinKey = scope.alias + "." + key
        if let alias = scope.context.joinedAlias(joinKey) {
            return SQLObjectScope(alias: alias, entity: destination.name, context: scope.context)
        }
        let alias = newAlias()
        try scope.context.append(
            SQLPiece(
                " LEFT JOIN " + quoteIdentifier(destination.tableName) + " AS " + alias + " ON "
                    + alias + ".\"Z_PK\" = " + scope.alias + "." + quoteIdentifier(fk)),
            tables: 1, fragment: fragment())
        scope.context.remember(joinKey, alias: alias)
        return SQLObjectScope(alias: alias, entity: destination.name, context: scope.context)
    }

    /// A subquery over the destinations of a to-many relationship of the object in `scope`.
    private func startCollection(
        from scope: SQLObjectScope, _ storage: RelationshipStorage,
        _ relationship: Relationship, fragment: String
    ) throws(SQLTranslationError) -> SQLCollectionSource {
        let destination = try schema.entity(relationship.destinationEntityName)
        let alias = newAlias()
        let table = quoteIdentifier(destination.tableName) + " AS " + alias
        var conditions: [SQLPiece] = []
        let context: SQLSelectContext
        switch storage {
        case .inverseForeignKey(_, let column, _, _):
            context = SQLSelectContext(from: SQLPiece(table))
            conditions.append(
                SQLPiece(
                    alias + "." + quoteIdentifier(column) + " = " + scope.alias + ".\"Z_PK\""))
        case .joinTable(let joinTable, let owner, let target, _):
            let link = newAlias()
            context = SQLSelectContext(
                from: SQLPiece(
                    quoteIdentifier(joinTable) + " AS " + link + " JOIN " + table + " ON "
                        + alias + ".\"Z_PK\" = " + link + "." + quoteIdentifier(target)),
                tables: 2)
            conditions.append(
                SQLPiece(link + "." + quoteIdentifier(owner) + " = " + scope.alias + ".\"Z_PK\""))
        case .foreignKey:
            throw .unsupported(fragment, reason: "a to-many relationship stored as a foreign key")
        }
        if let numbers = schema.restriction(for: destination) {
            conditions.append(alias + ".\"Z_ENT\" IN " + SQLPiece.list(numbers))
        }
        let element = SQLObjectScope(alias: alias, entity: destination.name, context: context)
        return SQLCollectionSource(
            context: context, conditions: conditions, scope: element,
            element: objectFragment(element), endsOnObjects: true)
    }

    /// Joins a further to-many relationship into a collection subquery (flattening).
    private func joinToMany(
        into source: inout SQLCollectionSource, from scope: SQLObjectScope,
        _ storage: RelationshipStorage, _ relationship: Relationship,
        fragment: @autoclosure () -> String
    ) throws(SQLTranslationError) -> SQLObjectScope {
        let destination = try schema.entity(relationship.destinationEntityName)
        let alias = newAlias()
        let table = quoteIdentifier(destination.tableName) + " AS " + alias
        var restriction = SQLPiece("")
        if let numbers = schema.restriction(for: destination) {
            restriction = " AND " + alias + ".\"Z_ENT\" IN " + SQLPiece.list(numbers)
        }
        switch storage {
        case .inverseForeignKey(_, let column, _, _):
            try source.context.append(
                " JOIN " + table + " ON " + alias + "." + quoteIdentifier(column) + " = "
                    + scope.alias + ".\"Z_PK\"" + restriction, tables: 1, fragment: fragment())
        case .joinTable(let joinTable, let owner, let target, _):
            let link = newAlias()
            try source.context.append(
                SQLPiece(
                    " JOIN " + quoteIdentifier(joinTable) + " AS " + link + " ON " + link + "."
                        + quoteIdentifier(owner) + " = " + scope.alias + ".\"Z_PK\" JOIN "
                        + table + " ON " + alias + ".\"Z_PK\" = " + link + "."
                        + quoteIdentifier(target)) + restriction, tables: 2, fragment: fragment())
        case .foreignKey:
            throw .unsupported(
                fragment(), reason: "a to-many relationship stored as a foreign key")
        }
        return SQLObjectScope(alias: alias, entity: destination.name, context: source.context)
    }

    /// `@count`, `@sum`, `@avg`, `@min`, `@max` over a collection subquery.
    private func aggregate(
        _ op: CollectionOperator, over source: SQLCollectionSource,
        rest: ArraySlice<PredicateKeyPath.Component>, fragment: String
    ) throws(SQLTranslationError) -> SQLFragment {
        if op == .count {
            guard source.endsOnObjects, rest.isEmpty else {
                throw .unsupported(fragment, reason: "@count must follow a to-many relationship")
            }
            var count = SQLFragment(
                source.scalar(SQLPiece("COUNT(*)")), kind: .number, nullable: false)
            count.isInteger = true
            return count
        }
        guard source.endsOnObjects, !rest.isEmpty else {
            throw .unsupported(fragment, reason: "@\(op.rawValue) needs a key after it")
        }
        guard
            case .scalar(let value) = try walk(
                rest, from: source.scope,
                fragment: .keyPath(
                    PredicateKeyPath(Array(rest))))
        else {
            throw .unsupported(fragment, reason: "@\(op.rawValue) over a nested collection")
        }
        return try collectionAggregate(op, of: value, over: source, fragment: fragment)
    }

    /// `@sum`, `@avg`, `@min` or `@max` of `value`, read from each row of `source`: SQL's
    /// aggregates skip NULLs as the evaluator's skip nils.
    func collectionAggregate(
        _ op: CollectionOperator, of value: SQLFragment, over source: SQLCollectionSource,
        fragment: String
    ) throws(SQLTranslationError) -> SQLFragment {
        if dialect == .postgres {
            return try postgresCollectionAggregate(op, of: value, over: source, fragment: fragment)
        }
        switch (op, value.kind) {
        case (.sum, .number):
            var sum = SQLFragment(
                source.scalar("IFNULL(SUM(" + value.piece + "), 0)"), kind: .number,
                nullable: false)
            sum.isInteger = value.isInteger
            return sum
        case (.avg, .number):
            return SQLFragment(source.scalar("AVG(" + value.piece + ")"), kind: .number)
        case (.min, .number), (.min, .date), (.max, .number), (.max, .date):
            let name = op == .min ? "MIN(" : "MAX("
            return SQLFragment(source.scalar(name + value.piece + ")"), kind: value.kind)
        case (.min, .string), (.max, .string):
            let name = op == .min ? "MIN(" : "MAX("
            return SQLFragment(
                source.scalar(
                    name + value.piece + " COLLATE \(SQLFunctions.standardCollation))"),
                kind: .string)
        default:
            throw .unsupported(
                fragment, reason: "@\(op.rawValue) over values of kind \(value.kind)")
        }
    }
}
