/// The rows of a batch insert: each dictionary's values over the entity's defaults, checked
/// against the model, then given permanent IDs from the store's primary keys.
enum BatchInsertion {
    /// The values of one new row per dictionary of `dictionaries` (by position), all checked.
    /// - Throws: ``ObjectGraphError`` for an unknown key, a relationship or transient property,
    ///   or a value of the wrong type; ``ValidationError`` (rule `required`) listing every
    ///   required attribute left without a value.
    static func values(of dictionaries: [[String: Value]], entity: EntitySchema) throws
        -> [[StoredValue]]
    {
        guard !dictionaries.isEmpty else { return [] }
        var template = [StoredValue](repeating: .value(.null), count: entity.properties.count)
        for position in entity.relationshipPositions {
            if case .relationship(let relationship) = entity.properties[position] {
                template[position] = relationship.isToMany ? .toMany([]) : .toOne(nil)
            }
        }
        for (position, value) in entity.defaultValues where !entity.isTransient[position] {
            template[position] = .value(value)
        }
        var problems: [ValidationError.Problem] = []
        var valueRows: [[StoredValue]] = []
        valueRows.reserveCapacity(dictionaries.count)
        for dictionary in dictionaries {
            var values = template
            for (name, value) in dictionary {
                let (position, attribute) = try entity.persistentAttribute(named: name)
                values[position] = .value(try attribute.coerce(value, entity: entity.name))
            }
            for position in entity.attributePositions where values[position] == .value(.null) {
                guard case .attribute(let attribute) = entity.properties[position],
                    !attribute.isOptional, !attribute.isTransient
                else { continue }
                problems.append(
                    .batchRequired(
                        entity, attribute.name, objectID: nil,
                        detail: "batch insert, object \(valueRows.count + 1)"))
            }
            valueRows.append(values)
        }
        if !problems.isEmpty { throw ValidationError(problems: problems) }
        return valueRows
    }

    /// New rows of `entity` holding `valueRows`, with permanent IDs from the store's keys.
    static func rows(
        _ valueRows: [[StoredValue]], entity: EntitySchema, schema: ModelSchema,
        coordinator: StoreCoordinator
    ) throws -> [StoreRow] {
        guard !valueRows.isEmpty else { return [] }
        let root = schema.root(of: entity).index
        let (keys, store) = try coordinator.newPrimaryKeys(
            rootEntity: root, count: valueRows.count)
        let space = ObjectIDSpace.named(entity.name, storeIdentifier: store)
        return zip(keys, valueRows).map { key, values in
            StoreRow(
                id: ObjectID(space: space, key: .permanent(key)), entityIndex: entity.index,
                version: 0, values: values)
        }
    }
}
