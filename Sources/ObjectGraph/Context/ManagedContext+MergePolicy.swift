/// Optimistic-locking conflicts resolved by the context's ``ManagedContext/mergePolicy``.
///
/// A store finds conflicts before it writes anything (the SQLite store inside its transaction,
/// which it rolls back), so a conflicting attempt leaves the store as it was. The context then
/// reads the conflicting objects' rows as they are now, merges them into its objects by the
/// policy (the objects take the stored version) and saves again: every attempt writes all of
/// the save or nothing.
extension ManagedContext {
    /// How many times a save is retried when others keep saving the same objects meanwhile.
    static let mergeAttempts = 16

    /// Saves `changes` through the coordinator, resolving optimistic-locking conflicts by the
    /// merge policy and trying again.
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
            }
            attempt += 1
            let rows = try conflicts.map { try source.row(for: $0.objectID, in: nil) }
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
                resolve(object, against: row)
            }
            changes = stillChanged(changes)
        }
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
    private func resolve(_ object: ManagedObject, against row: StoreRow?) {
        guard let row else {
            // Gone from the store: a deletion is done already; under rollback an update is
            // discarded with the object.
            untouch(object)
            forget(object)
            object.deletedFlag = false
            return
        }
        if object.deletedFlag {
            guard mergePolicy == .rollback else {
                object.version = row.version
                return
            }
            object.deletedFlag = false
            untouch(object)
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
        }
        var kept: [Int]
        switch mergePolicy {
        case .error, .rollback: kept = []
        case .mergeByPropertyObjectTrump: kept = changed
        case .mergeByPropertyStoreTrump:
            // Kept where the store still holds what this context read.
            kept = []
            for (index, position) in changed.enumerated() {
                let stored = object.slots[position]
                if case .toManyFault(nil) = stored {
                    kept.append(position)  // not in the row: the store's side is unknown
                } else if ManagedObject.same(
                    stored, read[index], ordered: schema.isOrdered[position])
                {
                    kept.append(position)
                }
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
        }
        if !object.hasChangedValues { untouch(object) }
    }

    /// `changes` without the objects whose changes a resolution discarded, each in the list of
    /// what it is now (a deletion rolled back leaves the deleted list).
    private func stillChanged(_ changes: ChangeSet) -> ChangeSet {
        var result = ChangeSet(reader: ManagedObjectReader.self)
        result.insertedEntries = changes.insertedEntries
        for entry in changes.updatedEntries + changes.deletedEntries {
            guard case .object(let any) = entry else { continue }
            let object = unsafeDowncast(any, to: ManagedObject.self)
            guard object.context === self else { continue }
            if object.deletedFlag {
                result.deletedEntries.append(entry)
            } else if object.hasPersistentChangedValues {
                result.updatedEntries.append(entry)
            }
        }
        return result
    }
}
