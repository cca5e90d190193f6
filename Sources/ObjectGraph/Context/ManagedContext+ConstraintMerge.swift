/// Uniqueness constraints at save, by the merge policy (Core Data's constraint conflicts):
/// under the trump policies an inserted object whose unique values another object holds is
/// merged into that object (an upsert); otherwise the save throws every collision.
extension ManagedContext {
    /// Resolves the uniqueness collisions of the objects a save writes. Under
    /// ``MergePolicy/mergeByPropertyObjectTrump`` and ``MergePolicy/mergeByPropertyStoreTrump``
    /// each colliding insert is merged into the object already holding its values — a stored
    /// object, or else the first of the colliding inserts — and leaves the context (the stored
    /// object keeps its ID). Returns whether it merged anything (the save's lists change then).
    ///
    /// - Throws: ``SaveError/constraintConflicts(_:)`` with every collision under the other
    ///   policies, or when an updated object collides (only inserts merge).
    func resolveConstraintCollisions(
        _ objects: [ManagedObject], inserted: ArraySlice<ManagedObject>
    )
        throws -> Bool
    {
        let collisions = constraintCollisions(objects.filter { !$0.deletedFlag })
        guard !collisions.isEmpty else { return false }
        guard mergePolicy.mergesConstraints,
            collisions.allSatisfy({ $0.object.insertedFlag })
        else {
            throw SaveError.constraintConflicts(collisions.map(\.conflict))
        }
        var order: [ObjectID: Int] = [:]
        for (index, object) in inserted.enumerated() { order[object.objectID] = index }
        for collision in collisions {
            let object = collision.object
            guard object.context === self, !object.deletedFlag else { continue }
            let stored = collision.others.first { id in
                guard let held = registry[id] else { return true }
                return !held.insertedFlag
            }
            let survivor: ManagedObject
            if let stored {
                survivor = try existingObject(with: stored)
            } else {
                let first = collision.others.min { (order[$0] ?? .max) < (order[$1] ?? .max) }
                guard let first, (order[first] ?? .max) < (order[object.objectID] ?? .max),
                    let held = registry[first], !held.deletedFlag
                else { continue }
                survivor = held
            }
            try merge(object, into: survivor)
        }
        return true
    }

    /// Moves the insert `object` into `survivor` property by property (the insert's non-empty
    /// values win under object trump; under store trump they fill only what `survivor` holds
    /// empty), gives `survivor` the members of its to-many relationships, and deletes it.
    private func merge(_ object: ManagedObject, into survivor: ManagedObject) throws {
        let insertWins = mergePolicy == .mergeByPropertyObjectTrump
        let schema = object.schema
        for position in 0..<schema.slotCount where !schema.isTransient[position] {
            let name = schema.names[position]
            guard let target = survivor.schema.positionByName[name],
                !survivor.schema.isTransient[target]
            else { continue }
            switch object.slots[position] {
            case .value(let value):
                guard value != .null else { continue }
                var empty = false
                if case .value(.null) = survivor.slots[target] { empty = true }
                if insertWins || empty {
                    try survivor.set(value, for: name)
                }
            case .toOne, .toOneFault, .toOneFaultID:
                guard let related = try object.object(for: name) else { continue }
                try object.setObject(nil, for: name)
                if insertWins || survivor.slots[target].toOneTarget == nil {
                    try survivor.setObject(related, for: name)
                }
            case .toMany, .toManyFault:
                for member in try object.objects(for: name) {
                    try object.remove(member, from: name)
                    try survivor.add(member, to: name)
                }
            }
        }
        delete(object)
    }
}
