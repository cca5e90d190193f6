/// The rows of a batch insert: each dictionary's values over the entity's defaults, checked
/// against the model, as one ``StoreInsertBatch`` (a store inserts it by itself), or as rows
/// with permanent IDs from the store's primary keys (saved like a context's).
enum BatchInsertion {
    /// The values of one new row per dictionary of `dictionaries` (in order), all checked.
    /// Each key is resolved to its attribute once per request, not once per row.
    /// - Throws: ``ObjectGraphError`` for an unknown key, a relationship or transient property,
    ///   or a value of the wrong type; ``ValidationError`` (rule `required`) listing every
    ///   required attribute left without a value.
    static func batch(of dictionaries: [[String: Value]], entity: EntitySchema) throws
        -> StoreInsertBatch
    {
        let positions = entity.attributePositions.filter { !entity.isTransient[$0] }
        var slotByName: [String: Int] = [:]
        var types: [AttributeType] = []
        var required: [Int] = []
        var template = [Value](repeating: .null, count: positions.count)
        for (slot, position) in positions.enumerated() {
            guard case .attribute(let attribute) = entity.properties[position] else { continue }
            slotByName[attribute.name] = slot
            types.append(attribute.type)
            if !attribute.isOptional { required.append(slot) }
        }
        for (position, value) in entity.defaultValues where !entity.isTransient[position] {
            if let slot = positions.firstIndex(of: position) { template[slot] = value }
        }
        let names = positions.map { entity.names[$0] }
        var problems: [ValidationError.Problem] = []
        var values: [Value] = []
        values.reserveCapacity(dictionaries.count * positions.count)
        for (index, dictionary) in dictionaries.enumerated() {
            let base = values.count
            values.append(contentsOf: template)
            for (name, value) in dictionary {
                guard let slot = slotByName[name] else {
                    // Not a persistent attribute: throws naming the key.
                    _ = try entity.persistentAttribute(named: name)
                    continue
                }
                values[base + slot] = try types[slot].coerce(
                    value, entity: entity.name, property: names[slot])
            }
            for slot in required {
                guard case .null = values[base + slot] else { continue }
                problems.append(
                    .batchRequired(
                        entity, names[slot], objectID: nil,
                        detail: "batch insert, object \(index + 1)"))
            }
        }
        if !problems.isEmpty { throw ValidationError(problems: problems) }
        return StoreInsertBatch(
            entityIndex: entity.index, positions: positions, count: dictionaries.count,
            values: values)
    }

    /// The values of each row of `batch` as a stored row's (relationships empty).
    static func storedValues(_ batch: StoreInsertBatch, entity: EntitySchema) -> [[StoredValue]] {
        let template = StoreInsertBatch.template(of: entity)
        return (0..<batch.count).map { batch.storedValues(ofRow: $0, template: template) }
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
