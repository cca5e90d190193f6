/// Optimistic-locking conflicts, and unique values another writer saved first, resolved by
/// the context's ``ManagedContext/mergePolicy``.
///
/// A store finds conflicts before it writes anything (the SQLite store inside its transaction,
/// which it rolls back), so a conflicting attempt leaves the store as it was. The context then
/// reads the conflicting objects' rows as they are now, merges them into its objects by the
/// policy (the objects take the stored version) and saves again: every attempt writes all of
/// the save or nothing.
extension ManagedContext {
    /// How many times a save is retried when others keep saving the same objects meanwhile.
    static let mergeAttempts = 16

    /// Saves `changes` through the coordinator, resolving optimistic-locking conflicts and a
    /// store's unique-index refusals by the merge policy and trying again.
    /// - Throws: ``SaveError/conflicts(_:)`` with every conflict and its properties' values
    ///   under ``MergePolicy/error``, for objects the store no longer has (except under
    ///   ``MergePolicy/rollback``), or after ``mergeAttempts`` attempts.
    func saveResolvingConflicts(_ changes: inout ChangeSet) throws -> SaveOutcome {
        var attempt = 0
        while true {
            let conflicts: [SaveConflict]
            do {
                return try source.save(changes, from: self)
            } catch SaveError.conflicts(let found) {
                conflicts = found
            } catch let error as StoreError {
                guard case .uniqueConstraint = error else { throw error }
                attempt += 1
                try resolveStoredCollisions(refusedBy: error, attempt: attempt, &changes)
                continue
            }
            attempt += 1
            // Every conflicting row read again in one call per store, not one per conflict.
            let read = try source.rows(for: conflicts.map(\.objectID), in: nil)
            let rows = conflicts.map { read[$0.objectID] }
            let gone = zip(conflicts, rows).contains { conflict, row in
                row == nil && registry[conflict.objectID]?.deletedFlag == false
            }
            if mergePolicy == .error || attempt > Self.mergeAttempts
                || (gone && mergePolicy != .rollback)
            {
                throw SaveError.conflicts(zip(conflicts, rows).map(described))
            }
            for (conflict, row) in zip(conflicts, rows) {
                guard let object = registry[conflict.objectID] else { continue }
                try resolve(object, against: row)
            }
            // What is changed now: a merge may have changed related objects too.
            changes = Self.changeSet(of: SaveBatch(touched.values, count: touched.count))
        }
    }

    /// After a store's unique index refused the save (another writer saved the same unique
    /// values first; the attempt wrote nothing): finds the stored holders now, resolves the
    /// collisions by the merge policy as before any save (a trump policy merges the insert
    /// into the stored object, an update then) and rebuilds `changes`.
    /// - Throws: ``SaveError/constraintConflicts(_:)`` under ``MergePolicy/error``; `error`
    ///   itself when no collision is found (the index is not one the context checks) or
    ///   after ``mergeAttempts`` attempts.
    private func resolveStoredCollisions(
        refusedBy error: StoreError, attempt: Int, _ changes: inout ChangeSet
    ) throws {
        let objects = SaveBatch(touched.values, count: touched.count).objects
        guard attempt <= Self.mergeAttempts, try resolveConstraintCollisions(objects) else {
            throw error
        }
        forgetInsertedAndDeleted()
        let batch = SaveBatch(touched.values, count: touched.count)
        try assignPermanentIDs(batch.inserted)
        changes = Self.changeSet(of: batch)
    }

    /// `conflict` with the changed properties of its object: read, wanted, and now in `row`.
    private func described(_ conflict: SaveConflict, _ row: StoreRow?) -> SaveConflict {
        guard let object = registry[conflict.objectID], object.state == .loaded else {
            return conflict
        }
        var result = conflict
        for position in object.changedPositions() where !object.schema.isTransient[position] {
            guard let wanted = Self.conflictValue(object.slots[position]) else { continue }
            let read = object.committedSlot(at: position).flatMap(Self.conflictValue) ?? .null
            var other: Value?
            if let row, position < row.values.count {
                other = Self.conflictValue(Self.slot(row.values[position]))
            }
            result.properties.append(
                PropertyConflict(
                    property: object.schema.names[position], snapshot: read, object: wanted,
                    other: other))
        }
        return result
    }

    /// A slot as a conflict record shows it; `nil` for a to-many relationship.
    private static func conflictValue(_ slot: Slot) -> Value? {
        switch slot {
        case .value(let value): return value
        case .toOne, .toOneFault, .toOneFaultID:
            return slot.toOneTarget.map(Value.objectID) ?? .null
        case .toMany, .toManyFault: return nil
        }
    }

    /// Merges `row` (the object as stored now; `nil`: gone) into `object` by the merge policy;
    /// the object takes the row's version, so saving it again no longer conflicts.
    private func resolve(_ object: ManagedObject, against row: StoreRow?) throws {
        guard let row else {
            // Gone from the store: a deletion is done already; under rollback an update is
            // discarded with the object.
            untouch(object)
            forget(object)
            object.deletedFlag = false
            return
        }
        var undeleted = false
        if object.deletedFlag {
            guard mergePolicy == .rollback else {
                object.version = row.version
                return
            }
            object.deletedFlag = false
            untouch(object)
            undeleted = true
        }

        let schema = object.schema
        let changed = object.changedPositions().filter { !schema.isTransient[$0] }
        let read = changed.map { object.committedSlot(at: $0) }
        var mine: [Slot] = []
        mine.reserveCapacity(schema.slotCount)
        for position in 0..<schema.slotCount { mine.append(object.slots[position]) }
        load(row, into: object)
        for (position, isTransient) in schema.isTransient.enumerated() where isTransient {
            object.slots[position] = mine[position]
            object.observedChange(at: position)
        }
        var kept: [Int]
        switch mergePolicy {
        case .error, .rollback: kept = []
        case .mergeByPropertyObjectTrump: kept = changed
        case .mergeByPropertyStoreTrump:
            // Kept where the store still holds what this context read.
            kept = []
            for (index, position) in changed.enumerated()
            where ManagedObject.same(
                try storedSlot(object, at: position), read[index],
                ordered: schema.isOrdered[position])
            {
                kept.append(position)
            }
        case .overwrite:
            kept = (0..<schema.slotCount).filter { position in
                !schema.isTransient[position]
                    && !ManagedObject.same(
                        object.slots[position], mine[position], ordered: schema.isOrdered[position])
            }
        }
        for position in kept {
            object.rememberOriginal(at: position)
            object.slots[position] = mine[position]
            object.observedChange(at: position)
        }
        if !object.hasChangedValues { untouch(object) }
        // Relationships this context changed that now hold the store's members: the objects
        // on their other side follow.
        let replaced = changed.filter { position in
            schema.kinds[position] != .attribute && !kept.contains(position)
                && !ManagedObject.same(
                    object.slots[position], mine[position], ordered: schema.isOrdered[position])
        }
        try reconcileInverses(of: object, at: replaced, mine: mine)
        // The objects its discarded deletion detached point at it again (as stored now).
        if undeleted { try reattach(object) }
    }
}
