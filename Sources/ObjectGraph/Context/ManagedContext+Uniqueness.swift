/// Uniqueness constraints, checked across the context's objects and the stores' rows.
extension ManagedContext {
    /// An object holding the values of a uniqueness constraint that other objects hold too.
    struct ConstraintCollision {
        /// The entity declaring the constraint.
        let declaring: EntitySchema
        /// The constraint's properties.
        let properties: [String]
        /// The values they share.
        let key: [Value]
        /// The object checked.
        let object: ManagedObject
        /// The other holders: stored objects, or objects of this context.
        let others: [ObjectID]

        /// The public record of the collision.
        var conflict: ConstraintConflict {
            ConstraintConflict(
                entity: declaring.name, properties: properties, values: key,
                objectID: object.objectID, conflictingIDs: others)
        }
    }

    /// The uniqueness collisions of `objects` (live ones: not deleted), constraint by
    /// constraint, each object's in the order of `objects`.
    func constraintCollisions(_ objects: [ManagedObject]) -> [ConstraintCollision] {
        var checks: [(declaring: EntitySchema, properties: [String])] = []
        for object in objects {
            var entity: EntitySchema? = object.schema
            while let current = entity {
                for constraint in current.entity.uniquenessConstraints
                where !checks.contains(where: {
                    $0.declaring === current && $0.properties == constraint
                }) {
                    checks.append((current, constraint))
                }
                entity = current.parentIndex.map { schema.entities[$0] }
            }
        }
        var collisions: [ConstraintCollision] = []
        for (declaring, properties) in checks {
            collisions += collisionsFor(
                declaring: declaring, properties: properties, changed: objects)
        }
        return collisions
    }

    private func collisionsFor(
        declaring: EntitySchema, properties: [String], changed: [ManagedObject]
    ) -> [ConstraintCollision] {
        let family = schema.family(of: declaring)
        let familyIndexes = Set(family.map(\.index))
        var holders: [[Value]: [ObjectID]] = [:]
        var live = Set<ObjectID>()
        for object in registry.values where familyIndexes.contains(object.schema.index) {
            guard object.state == .loaded else { continue }
            live.insert(object.objectID)
            if object.deletedFlag { continue }
            if let key = constraintKey(object, properties) {
                holders[key, default: []].append(object.objectID)
            }
        }
        var scanned = false
        for object in changed where familyIndexes.contains(object.schema.index) {
            guard let key = constraintKey(object, properties) else { continue }
            if let ids = storeIDs(matching: key, properties, declaring: declaring, familyIndexes) {
                for id in ids where !live.contains(id) { holders[key, default: []].append(id) }
            } else if !scanned {
                scanned = true
                let rows = (try? source.rows(ofEntities: familyIndexes, in: nil)) ?? []
                for row in rows where !live.contains(row.id) {
                    if let rowKey = constraintKey(row, properties) {
                        holders[rowKey, default: []].append(row.id)
                    }
                }
            }
        }
        var collisions: [ConstraintCollision] = []
        for object in changed where familyIndexes.contains(object.schema.index) {
            guard let key = constraintKey(object, properties),
                let others = holders[key]?.filter({ $0 != object.objectID }), !others.isEmpty
            else { continue }
            collisions.append(
                ConstraintCollision(
                    declaring: declaring, properties: properties, key: key, object: object,
                    others: others))
        }
        return collisions
    }

    /// The IDs of stored objects holding `key`, asked of the store as a query; `nil` when the
    /// store leaves queries to the context.
    private func storeIDs(
        matching key: [Value], _ properties: [String], declaring: EntitySchema,
        _ familyIndexes: Set<Int>
    ) -> [ObjectID]? {
        let format = properties.map { _ in "%K == %@" }.joined(separator: " AND ")
        var arguments: [Any?] = []
        for (name, value) in zip(properties, key) { arguments += [name, value] }
        guard let predicate = try? Predicate(format: format, argumentArray: arguments) else {
            return nil
        }
        let query = StoreQuery(
            entityIndex: declaring.index, entityIndexes: familyIndexes, predicate: predicate,
            sortDescriptors: [], offset: 0, limit: 0, result: .ids)
        guard let rows = try? source.rows(answering: query, in: nil) else { return nil }
        return rows.map(\.id)
    }

    /// The constraint's values for a live object; `nil` when one is nil (never a conflict).
    private func constraintKey(_ object: ManagedObject, _ properties: [String]) -> [Value]? {
        var key: [Value] = []
        for name in properties {
            guard let position = object.schema.positionByName[name] else { return nil }
            switch object.slots[position] {
            case .value(let value):
                if value == .null { return nil }
                key.append(value)
            case .toOne(let target):
                guard let target else { return nil }
                key.append(.objectID(target.objectID))
            case .toOneFault, .toOneFaultID:
                guard let id = object.slots[position].faultTarget else { return nil }
                key.append(.objectID(id))
            case .toMany, .toManyFault:
                return nil
            }
        }
        return key
    }

    private func constraintKey(_ row: StoreRow, _ properties: [String]) -> [Value]? {
        let entity = schema.entities[row.entityIndex]
        var key: [Value] = []
        for name in properties {
            guard let position = entity.positionByName[name], position < row.values.count else {
                return nil
            }
            switch row.values[position] {
            case .value(let value):
                if value == .null { return nil }
                key.append(value)
            case .toOne(let id):
                guard let id else { return nil }
                key.append(.objectID(id))
            case .toMany:
                return nil
            }
        }
        return key
    }
}
