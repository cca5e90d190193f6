/// New rows of one entity for a store to insert by itself (a batch insert), without building
/// a row per object: the values of the entity's persistent attributes, row after row, already
/// converted to the attributes' types, with defaults applied and required values checked.
/// Relationships are empty; the store gives each row a new primary key, in order.
struct StoreInsertBatch {
    /// The schema index of the entity.
    let entityIndex: Int
    /// The property positions of the values of each row, in order (the entity's persistent
    /// attributes).
    let positions: [Int]
    /// How many rows.
    let count: Int
    /// The values: `positions.count` per row, row after row.
    let values: [Value]

    /// A stored row's values of `entity` before its attributes are set: every attribute nil,
    /// every relationship empty.
    static func template(of entity: EntitySchema) -> [StoredValue] {
        var template = [StoredValue](repeating: .value(.null), count: entity.properties.count)
        for position in entity.relationshipPositions {
            if case .relationship(let relationship) = entity.properties[position] {
                template[position] = relationship.isToMany ? .toMany([]) : .toOne(nil)
            }
        }
        return template
    }

    /// The values of row `row` as a stored row's values over `template` (the entity's
    /// properties, relationships empty).
    func storedValues(ofRow row: Int, template: [StoredValue]) -> [StoredValue] {
        var result = template
        let base = row * positions.count
        for (slot, position) in positions.enumerated() {
            result[position] = .value(values[base + slot])
        }
        return result
    }
}

extension StoreCoordinator {
    /// Inserts `batch` in the store holding its entity when that store can insert it by
    /// itself and is the coordinator's only store, recording history as made by `origin`;
    /// returns the new rows' permanent IDs in order, or `nil` (then the caller saves rows).
    /// - Throws: ``SaveError/store(_:)`` with ``StoreError/readOnly(path:)`` for a read-only
    ///   store, ``StoreError/uniqueConstraint(path:entity:properties:)``, or what the store
    ///   throws (nothing is inserted then).
    func insert(_ batch: StoreInsertBatch, origin: HistoryOrigin = HistoryOrigin()) throws
        -> [ObjectID]?
    {
        try withSoleWritableStore(origin: origin) { try $0.insert(batch) }
    }
}
