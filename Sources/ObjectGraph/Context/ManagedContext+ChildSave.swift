/// A child's save, as its parent takes it: checked for conflicts first, then applied whole as
/// the parent's own unsaved changes, in one event.
extension ManagedContext {
    /// Takes `changes` (the objects of `child`) as this context's own unsaved changes: inserts
    /// become inserts (under the child's IDs), the changed properties of updated objects are
    /// set, deleted objects are deleted. One event: observers get one objects-did-change and,
    /// with an undo manager, it is one undo step.
    ///
    /// - Throws: ``SaveError/conflicts(_:)`` (source ``ConflictSource/parentContext``) when
    ///   this context holds an object the child changed or deleted with values other than those
    ///   the child read (this context changed it since, or deleted it); then nothing changes
    ///   here. The child resolves them by its merge policy and saves again.
    func receiveChildSave(_ changes: ChangeSet, from child: ManagedContext) throws {
        // Everything that can fail happens first: the objects found and loaded, the conflicts
        // found. Nothing is changed here until the whole save is known to apply.
        var conflicts: [SaveConflict] = []
        var updates: [(theirs: ManagedObject, mine: ManagedObject)] = []
        var deletions: [ManagedObject] = []
        for entry in changes.updatedEntries + changes.deletedEntries {
            guard case .object(let any) = entry else { continue }
            let theirs = unsafeDowncast(any, to: ManagedObject.self)
            let id = forwarded(theirs.objectID)
            let wasRegistered = registry[id] != nil
            let mine = try object(with: id)
            if !mine.deletedFlag {
                do {
                    try mine.fulfill()
                } catch ObjectGraphError.objectNotFound {
                    // Gone from the store too: a conflict below, and no fault left behind.
                    if !wasRegistered { registry[id] = nil }
                }
            }
            let gone = mine.deletedFlag || mine.state == .fault
            if gone && theirs.deletedFlag { continue }  // deleted on both sides
            if gone || differs(read: theirs, now: mine) {
                conflicts.append(
                    SaveConflict(
                        objectID: theirs.objectID, expectedVersion: theirs.version,
                        storeVersion: gone ? 0 : mine.version, source: .parentContext))
                continue
            }
            if theirs.deletedFlag {
                deletions.append(mine)
            } else {
                for position in persistentChanges(of: theirs)
                where mine.schema.kinds[position] == .toMany {
                    _ = try mine.resolvedToMany(at: position)  // its committed list known
                }
                updates.append((theirs, mine))
            }
        }
        guard conflicts.isEmpty else { throw SaveError.conflicts(conflicts) }

        processPendingChanges()  // what this context did before is an event of its own
        var inserts: [(theirs: ManagedObject, mine: ManagedObject)] = []
        for entry in changes.insertedEntries {
            guard case .object(let any) = entry else { continue }
            let theirs = unsafeDowncast(any, to: ManagedObject.self)
            if let mine = registry[theirs.objectID] {
                updates.append((theirs, mine))  // pushed before (undone here, say): refilled
                continue
            }
            let mine = makeObject(
                entity: schema.entities[theirs.schema.index], id: theirs.objectID, isFault: false)
            registry[theirs.objectID] = mine
            inserts.append((theirs, mine))
        }
        // Filled once all are registered: relationships among new objects find each other.
        for (theirs, mine) in inserts {
            for position in 0..<theirs.schema.slotCount where !theirs.schema.isTransient[position] {
                mine.slots[position] = slot(fromChild: theirs.slots[position])
            }
            markInserted(mine)
        }
        for (theirs, mine) in updates {
            let positions =
                theirs.insertedFlag
                ? Array(0..<theirs.schema.slotCount).filter { !theirs.schema.isTransient[$0] }
                : persistentChanges(of: theirs)
            for position in positions {
                let slot = slot(fromChild: theirs.slots[position])
                if !ManagedObject.same(
                    mine.slots[position], slot, ordered: mine.schema.isOrdered[position])
                {
                    setSlot(mine, position, slot)
                }
            }
        }
        for object in deletions { markDeleted(object) }
        processPendingChanges()
    }

    /// The persistent positions `object` changed since it was read.
    private func persistentChanges(of object: ManagedObject) -> [Int] {
        object.changedPositions().filter { !object.schema.isTransient[$0] }
    }

    /// Whether `now` (this context's object) holds persistent values other than those the
    /// child's object `read` read (to-many relationships one side never loaded are not
    /// compared).
    private func differs(read theirs: ManagedObject, now mine: ManagedObject) -> Bool {
        let schema = theirs.schema
        for position in 0..<schema.slotCount where !schema.isTransient[position] {
            guard let read = theirs.committedSlot(at: position) else { return false }
            if !sameForChild(
                read.storedValue, mine.slots[position].storedValue,
                ordered: schema.isOrdered[position])
            {
                return true
            }
        }
        return false
    }

    /// Whether a child's stored value (its IDs as the child knows them) and this context's
    /// are the same.
    private func sameForChild(_ theirs: StoredValue, _ mine: StoredValue, ordered: Bool) -> Bool {
        switch (theirs, mine) {
        case (.value(let a), .value(let b)): return a == b
        case (.toOne(let a), .toOne(let b)): return a.map(forwarded) == b
        case (.toMany(let a?), .toMany(let b?)):
            let mapped = a.map(forwarded)
            return ordered ? mapped == b : (mapped.count == b.count && Set(mapped) == Set(b))
        case (.toMany, .toMany): return true  // one side never loaded it
        default: return false
        }
    }

    /// A child's slot as this context holds it: its objects are this context's objects of the
    /// same IDs (faults when not registered here).
    private func slot(fromChild slot: Slot) -> Slot {
        switch slot {
        case .value(let value):
            return .value(value)
        case .toOne(let target):
            return .toOne(target.flatMap { object(forChildID: $0.objectID) })
        case .toOneFault, .toOneFaultID:
            return .toOne(slot.faultTarget.flatMap(object(forChildID:)))
        case .toMany(let targets):
            return .toMany(targets.compactMap { object(forChildID: $0.objectID) })
        case .toManyFault(let ids):
            return .toManyFault(ids?.map(forwarded))
        }
    }

    /// This context's object for a child's ID (a fault when not registered).
    private func object(forChildID id: ObjectID) -> ManagedObject? {
        let id = forwarded(id)
        if let object = registry[id] { return object }
        guard let entity = schema.entity(named: id.entityName) else { return nil }
        return registerFault(id, entity: entity)
    }
}

/// A context's place among parent and child contexts.
struct ContextFamily {
    /// The parent, for a child context; `nil` for a context on the coordinator.
    var upstream: ParentContextSource?
    /// The children made on this context, held weakly (for the did-save hook).
    var children: [ContextReference] = []
    /// The permanent IDs of objects that had temporary IDs when a child may have read them
    /// (kept while a child is alive).
    var forwardedIDs: [ObjectID: ObjectID] = [:]
}
