/// Uniqueness constraints at save, by the merge policy (Core Data's constraint conflicts): an
/// object that takes values another object holds already — inserted with them, or updated to
/// them — is resolved against that holder: merged into it (the trump policies, an upsert),
/// written over it (``MergePolicy/overwrite``), or let go of its changes
/// (``MergePolicy/rollback``); under ``MergePolicy/error`` the save throws every collision.
extension ManagedContext {
    /// Resolves the uniqueness collisions of the objects a save writes (`objects`: its new
    /// objects first, in insertion order, then its saved ones), by the merge policy.
    ///
    /// Each object taking the values of a constraint in this save (inserted, or updated with
    /// a constrained property changed) is resolved against an object holding them already (a
    /// stored one, or one of this context whose constrained properties are unchanged); among
    /// objects all taking the same values in this save, against the first of them. Returns
    /// whether it resolved anything (the save's lists change then).
    ///
    /// - Throws: ``SaveError/constraintConflicts(_:)`` with every collision, each naming the
    ///   object, the constraint, the values and the objects holding them, under
    ///   ``MergePolicy/error``.
    func resolveConstraintCollisions(_ objects: [ManagedObject]) throws -> Bool {
        let collisions = constraintCollisions(objects.filter { !$0.deletedFlag })
        guard !collisions.isEmpty else { return false }
        guard mergePolicy != .error else {
            throw SaveError.constraintConflicts(collisions.map(\.conflict))
        }
        var order: [ObjectID: Int] = [:]
        for (index, object) in objects.enumerated() { order[object.objectID] = index }
        for collision in collisions {
            let object = collision.object
            // Resolved by an earlier collision (merged, deleted, rolled back), or no longer
            // holding the values.
            guard object.context === self, !object.deletedFlag, object.state == .loaded,
                constraintKey(object, collision.properties) == collision.key
            else { continue }
            if let holder = collision.others.first(where: {
                holdsAlready($0, collision.properties)
            }) {
                try resolve(object, against: try existingObject(with: holder), bothNew: false)
                continue
            }
            // Every holder takes the values in this save too: the first of them stays.
            let first = collision.others.min { (order[$0] ?? .max) < (order[$1] ?? .max) }
            guard let first, (order[first] ?? .max) < (order[object.objectID] ?? .max),
                let held = registry[first], !held.deletedFlag
            else { continue }
            try resolve(object, against: held, bothNew: true)
        }
        return true
    }

    /// Whether the object `id` held the constrained `properties`' values before this save: a
    /// stored object this context has not changed them on (or does not hold at all).
    private func holdsAlready(_ id: ObjectID, _ properties: [String]) -> Bool {
        guard let held = registry[id] else { return true }
        return !held.deletedFlag && !takesValues(held, properties)
    }

    /// Resolves `object`, which takes the values `holder` holds, by the merge policy.
    /// `bothNew`: `holder` takes them in this save too (it comes first).
    private func resolve(_ object: ManagedObject, against holder: ManagedObject, bothNew: Bool)
        throws
    {
        switch mergePolicy {
        case .error:
            return
        case .mergeByPropertyObjectTrump:
            try merge(object, into: holder, objectWins: true)
        case .mergeByPropertyStoreTrump:
            try merge(object, into: holder, objectWins: false)
        case .overwrite:
            if bothNew {
                // The later object's whole state is what is saved.
                try merge(object, into: holder, objectWins: true)
            } else {
                // The object is saved as it is; the holder's to-many members join it and
                // the holder goes.
                try moveToManyMembers(of: holder, to: object)
                delete(holder)
            }
        case .rollback:
            // The object's changes are discarded: an insert is dropped, an update undone.
            if object.insertedFlag {
                delete(object)
            } else {
                try refresh(object, mergeChanges: false)
            }
        }
    }

    /// Moves `object` into `survivor` property by property and deletes it. With `objectWins`
    /// the object's values win — every non-empty one of an insert, the changed ones of an
    /// update; otherwise they fill only what `survivor` holds empty. `survivor` gets the
    /// members of `object`'s to-many relationships.
    private func merge(_ object: ManagedObject, into survivor: ManagedObject, objectWins: Bool)
        throws
    {
        try survivor.fulfill()
        let schema = object.schema
        let changed = object.insertedFlag ? nil : Set(object.changedPositions())
        for position in 0..<schema.slotCount where !schema.isTransient[position] {
            let name = schema.names[position]
            guard let target = survivor.schema.positionByName[name],
                !survivor.schema.isTransient[target]
            else { continue }
            let wins = objectWins && (changed?.contains(position) ?? true)
            switch object.slots[position] {
            case .value(let value):
                guard value != .null else { continue }
                var empty = false
                if case .value(.null) = survivor.slots[target] { empty = true }
                if wins || empty {
                    try survivor.set(value, for: name)
                }
            case .toOne, .toOneFault, .toOneFaultID:
                guard let related = try object.object(for: name) else { continue }
                try object.setObject(nil, for: name)
                if wins || survivor.slots[target].toOneTarget == nil {
                    try survivor.setObject(related, for: name)
                }
            case .toMany, .toManyFault:
                try moveMembers(of: object, name, to: survivor)
            }
        }
        delete(object)
    }

    /// Gives `survivor` the members of every to-many relationship of `object` (both of one
    /// entity family, so sharing the relationship names).
    private func moveToManyMembers(of object: ManagedObject, to survivor: ManagedObject) throws {
        try object.fulfill()
        for position in object.schema.relationshipPositions {
            guard case .relationship(let relationship) = object.schema.properties[position],
                relationship.isToMany,
                survivor.schema.positionByName[relationship.relationship.name] != nil
            else { continue }
            try moveMembers(of: object, relationship.relationship.name, to: survivor)
        }
    }

    /// Moves the members of `object`'s to-many relationship `name` to `survivor`'s.
    private func moveMembers(of object: ManagedObject, _ name: String, to survivor: ManagedObject)
        throws
    {
        for member in try object.objects(for: name) {
            try object.remove(member, from: name)
            try survivor.add(member, to: name)
        }
    }
}
