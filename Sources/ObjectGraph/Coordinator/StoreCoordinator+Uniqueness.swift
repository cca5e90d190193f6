/// Uniqueness constraints checked by the coordinator, under its lock, for the stores without a
/// unique index of their own (in-memory and atomic stores): values another context saved first
/// refuse a save the way a SQLite file's unique index does, so contexts saving at once on one
/// coordinator never store two objects with one unique value.
extension StoreCoordinator {
    /// Throws when a row `changes` writes to `store` takes the values of a uniqueness
    /// constraint (inserted, or a constrained property changed) that another row holds: one
    /// stored and neither changed nor deleted by this save, or another row of the save.
    /// - Throws: ``StoreError/uniqueConstraint(path:entity:properties:)``.
    static func checkUniqueness(
        _ changes: ChangeSet, in store: any PersistentStore, schema: ModelSchema
    ) throws {
        guard schema.hasUniquenessConstraints, !store.enforcesUniqueness else { return }
        let inserted = changes.inserted
        let updated = changes.updated
        var taking: [PendingRow] = []
        for row in inserted where hasConstraints(schema.entities[row.entityIndex], schema) {
            taking.append(row)
        }
        for row in updated where hasConstraints(schema.entities[row.entityIndex], schema) {
            taking.append(row)
        }
        guard !taking.isEmpty else { return }
        var replaced = Set(updated.map(\.id))
        for row in changes.deleted { replaced.insert(row.id) }
        for (declaring, properties) in constraints(of: taking, schema) {
            let family = Set(schema.family(of: declaring).map(\.index))
            var keys: [[Value]: ObjectID] = [:]
            let refused = StoreError.uniqueConstraint(
                path: store.description.displayPath, entity: declaring.name,
                properties: properties)
            for row in taking where family.contains(row.entityIndex) {
                let entity = schema.entities[row.entityIndex]
                if let changed = row.changedPositions,
                    !properties.contains(where: { name in
                        entity.positionByName[name].map(changed.contains) ?? false
                    })
                {
                    continue  // keeps its stored values
                }
                guard let key = constraintKey(entity, properties, row.value(at:)) else {
                    continue
                }
                if keys.updateValue(row.id, forKey: key) != nil { throw refused }
            }
            guard !keys.isEmpty else { continue }
            for row in try store.rows(ofEntities: family) where !replaced.contains(row.id) {
                let entity = schema.entities[row.entityIndex]
                let key = constraintKey(entity, properties) { position in
                    position < row.values.count ? row.values[position] : .value(.null)
                }
                if let key, let holder = keys[key], holder != row.id { throw refused }
            }
        }
    }

    /// The values of the constraint `properties` of a row of `entity` whose stored values
    /// `value` gives by position; `nil` when one is empty (never a collision).
    static func constraintKey(
        _ entity: EntitySchema, _ properties: [String], _ value: (Int) -> StoredValue
    ) -> [Value]? {
        var key: [Value] = []
        for name in properties {
            guard let position = entity.positionByName[name] else { return nil }
            switch value(position) {
            case .value(let stored):
                if stored == .null { return nil }
                key.append(stored)
            case .toOne(let id):
                guard let id else { return nil }
                key.append(.objectID(id))
            case .toMany:
                return nil
            }
        }
        return key
    }

    /// Whether `entity` or an ancestor declares a uniqueness constraint.
    private static func hasConstraints(_ entity: EntitySchema, _ schema: ModelSchema) -> Bool {
        var current: EntitySchema? = entity
        while let checked = current {
            if !checked.entity.uniquenessConstraints.isEmpty { return true }
            current = checked.parentIndex.map { schema.entities[$0] }
        }
        return false
    }

    /// The constraints of the entities of `rows` (declared on them or their ancestors), each
    /// once, with its declaring entity.
    private static func constraints(of rows: [PendingRow], _ schema: ModelSchema) -> [(
        EntitySchema, [String]
    )] {
        var result: [(EntitySchema, [String])] = []
        var seen = Set<Int>()
        for row in rows where seen.insert(row.entityIndex).inserted {
            var current: EntitySchema? = schema.entities[row.entityIndex]
            while let checked = current {
                for constraint in checked.entity.uniquenessConstraints
                where !result.contains(where: { $0.0 === checked && $0.1 == constraint }) {
                    result.append((checked, constraint))
                }
                current = checked.parentIndex.map { schema.entities[$0] }
            }
        }
        return result
    }
}

extension PersistentStore {
    /// Stores leave uniqueness to the coordinator unless they say otherwise.
    var enforcesUniqueness: Bool { false }
}
