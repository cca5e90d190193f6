/// The assignments of a batch update, checked against the entity, and their application to one
/// stored row: every expression reads the row's values as they were (as SQL's `UPDATE` does),
/// and its result is converted to the attribute's type.
struct BatchUpdate {
    /// The assigned attributes' names and expressions, by name.
    private let assignments: [(name: String, expression: Expression)]

    /// Checks that every name is a persistent attribute of `entity`.
    /// - Throws: ``ObjectGraphError/unknownProperty(entity:property:)`` or
    ///   ``ObjectGraphError/wrongPropertyKind(entity:property:expected:)``.
    init(_ properties: [String: Expression], of entity: EntitySchema) throws {
        for name in properties.keys.sorted() {
            _ = try entity.persistentAttribute(named: name)
        }
        assignments = properties.keys.sorted().compactMap { name in
            properties[name].map { (name: name, expression: $0) }
        }
    }

    /// The values of an update of constants only, converted and checked against `entity`'s
    /// attributes (by position), for a store to set by itself; `nil` when a value is an
    /// expression of the row.
    /// - Throws: ``ObjectGraphError/typeMismatch(entity:property:expected:got:)`` or a
    ///   ``ValidationError`` (rule `required`) for `nil` in a required attribute.
    func constants(of entity: EntitySchema) throws -> [(position: Int, value: Value)]? {
        var result: [(position: Int, value: Value)] = []
        for (name, expression) in assignments {
            guard case .constant(let value) = expression else { return nil }
            let (position, attribute) = try entity.persistentAttribute(named: name)
            result.append((position, try Self.stored(value, attribute, of: entity, id: nil)))
        }
        return result
    }

    /// Every assignment by position, for a store to evaluate on each row: constants converted
    /// and checked as by ``constants(of:)``, expressions as they are.
    /// - Throws: what ``constants(of:)`` throws for a constant.
    func expressions(of entity: EntitySchema) throws -> [(position: Int, expression: Expression)] {
        try assignments.map { name, expression in
            let (position, attribute) = try entity.persistentAttribute(named: name)
            guard case .constant(let value) = expression else { return (position, expression) }
            return (position, .constant(try Self.stored(value, attribute, of: entity, id: nil)))
        }
    }

    /// `row` with the new values, its changed positions listed.
    func apply(to row: StoreRow, graph: StoredRowGraph, schema: ModelSchema) throws -> StoreRow {
        let entity = schema.entities[row.entityIndex]
        let view = graph.view(of: row)
        var updated = row
        var positions: [Int] = []
        for (name, expression) in assignments {
            let (position, attribute) = try entity.persistentAttribute(named: name)
            guard case .value(let value) = try expression.evaluate(with: view) else {
                throw ObjectGraphError.typeMismatch(
                    entity: entity.name, property: name, expected: attribute.type.description,
                    got: "an object or collection")
            }
            let stored = try Self.stored(value, attribute, of: entity, id: row.id)
            guard position < updated.values.count else { continue }
            updated.values[position] = .value(stored)
            positions.append(position)
        }
        updated.changedPositions = positions
        return updated
    }

    /// `value` converted to `attribute`'s type, checked against its being required.
    private static func stored(
        _ value: Value, _ attribute: Attribute, of entity: EntitySchema, id: ObjectID?
    ) throws -> Value {
        let stored = try attribute.coerce(value, entity: entity.name)
        if stored == .null, !attribute.isOptional {
            throw ValidationError(problems: [
                .batchRequired(entity, attribute.name, objectID: id, detail: "batch update")
            ])
        }
        return stored
    }
}

extension EntitySchema {
    /// The persistent attribute `name` and its position: what a batch request may set.
    /// - Throws: ``ObjectGraphError/unknownProperty(entity:property:)`` or
    ///   ``ObjectGraphError/wrongPropertyKind(entity:property:expected:)``.
    func persistentAttribute(named name: String) throws -> (Int, Attribute) {
        guard let position = positionByName[name] else {
            throw ObjectGraphError.unknownProperty(entity: self.name, property: name)
        }
        guard case .attribute(let attribute) = properties[position], !attribute.isTransient
        else {
            throw ObjectGraphError.wrongPropertyKind(
                entity: self.name, property: name, expected: "a persistent attribute")
        }
        return (position, attribute)
    }
}

extension ValidationError.Problem {
    /// A required attribute of `entity` left without a value by a batch request (`detail`
    /// says which object); `objectID` is the row's, or `nil` for a new object.
    static func batchRequired(
        _ entity: EntitySchema, _ property: String, objectID: ObjectID?, detail: String
    ) -> ValidationError.Problem {
        ValidationError.Problem(
            objectID: objectID
                ?? ObjectID(space: entity.temporarySpace, key: ObjectID.newTemporaryKey()),
            entity: entity.name, property: property, rule: .required, value: .null,
            message: "a value is required (\(detail))")
    }
}
