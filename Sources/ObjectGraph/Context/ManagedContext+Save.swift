import Foundation

/// Saving: hooks, validation, permanent IDs, one change set per store, and committing.
extension ManagedContext {
    /// Saves every change. Validation runs first and reports every problem at once; a failed
    /// save changes nothing in the stores and the context keeps its changes (and its undo
    /// history), so they can be fixed or undone.
    ///
    /// Conflicts are resolved by ``mergePolicy``: uniqueness collisions of inserted and updated
    /// objects after validation, optimistic-locking conflicts and unique values another writer
    /// saved first when a store reports them (nothing is written by an attempt that conflicts;
    /// the save is tried again once they are merged).
    ///
    /// - Throws: ``SaveError`` — validation problems, uniqueness or optimistic-locking
    ///   conflicts (under ``MergePolicy/error``), or a store failure (with the stores that did
    ///   save, when several stores take part).
    public func save() throws {
        checkQueue("save")
        // A save reads the stores as they are now; a pinned context then moves to the newest
        // generation (`ManagedContext+QueryGenerations.swift`).
        let pin = unpinForSave()
        var wrote = false
        defer { repin(pin, saved: wrote) }
        rowCache.removeAll()
        processPendingChanges()
        forgetInsertedAndDeleted()
        var batch = SaveBatch(touched.values, count: touched.count)
        rejectedWrites.removeDeleted()
        guard !batch.isEmpty || !rejectedWrites.isEmpty else {
            return commitTransientChanges(batch.transientOnly)
        }
        // Like Core Data, deleted objects get willSave/didSave too (`isDeleted` tells them).
        let before = changeCount
        for object in batch.objects { object.willSave() }
        if changeCount != before {
            batch = SaveBatch(touched.values, count: touched.count)
        }
        let problems = validationProblems(batch.objects)
        guard problems.isEmpty else {
            throw SaveError.validation(ValidationError(problems: problems))
        }
        // Then uniqueness, as in Core Data: collisions are merged or thrown by the policy.
        // (Constraints are the store's: a child's save into its parent does not check them.)
        if schema.hasUniquenessConstraints, family.upstream == nil,
            try resolveConstraintCollisions(batch.objects)
        {
            forgetInsertedAndDeleted()
            batch = SaveBatch(touched.values, count: touched.count)
        }
        if family.upstream == nil {
            // A child's inserts keep their temporary IDs: they get permanent ones when the
            // store saves them.
            let temporary = hasLiveChildren() ? batch.inserted.map(\.objectID) : []
            try assignPermanentIDs(batch.inserted)
            if !temporary.isEmpty {
                rememberPermanentIDs(Array(zip(temporary, batch.inserted.map(\.objectID))))
            }
        }
        if !observers.isEmpty {
            post(ContextNotification(kind: .willSave, changes: changeSummary(batch.objects)))
        }
        // From here the change set's lists are the only lists of the objects saved (the
        // batch's is emptied once they are made): the stores write, and the context commits,
        // from them.
        var changes = Self.changeSet(of: batch)
        let transientOnly = batch.transientOnly
        batch = SaveBatch()
        let outcome = try saveResolvingConflicts(&changes)
        let saved = outcome.saved
        if let failure = outcome.failure {
            for part in saved { commit(part, everything: false) }
            throw failure
        }
        let notifiesChildren = hasLiveChildren()
        let reports = wantsDidSave || notifiesChildren || family.upstream != nil
        let summary = reports ? changeSummary(saved.lazy.flatMap(Self.objects(of:))) : nil
        // Cleared first: what `didSave` hooks change is a new change.
        commitTransientChanges(transientOnly)
        untouchAll()
        for part in saved { commit(part, everything: true) }
        releaseUnregistered()
        wrote = true
        guard let summary else { return }
        let notification = ContextNotification(kind: .didSave, changes: summary)
        if !observers.isEmpty { post(notification) }
        if notifiesChildren { notifyChildren(of: notification, except: nil) }
        if let upstream = family.upstream {
            upstream.childDidSave(notification, from: self)
        } else {
            // Reached the stores: other contexts of the coordinator hear of it.
            broadcastSave(notification)
        }
    }

    /// The change set writing `batch`: its new objects inserted, its saved ones updated or
    /// deleted.
    static func changeSet(of batch: SaveBatch) -> ChangeSet {
        var changes = ChangeSet(reader: ManagedObjectReader.self)
        changes.insertedEntries.reserveCapacity(batch.inserted.count)
        changes.updatedEntries.reserveCapacity(batch.updatedCount)
        changes.deletedEntries.reserveCapacity(batch.deletedCount)
        for object in batch.inserted { changes.insertedEntries.append(.object(object)) }
        for object in batch.saved {
            if object.deletedFlag {
                changes.deletedEntries.append(.object(object))
            } else {
                changes.updatedEntries.append(.object(object))
            }
        }
        return changes
    }

    /// The context's objects in a saved change set (every object of a context's change set is
    /// one of its managed objects: ``ManagedObjectReader`` reads them as such).
    private static func objects(of changes: ChangeSet) -> some Sequence<ManagedObject> {
        changes.objects.lazy.map { unsafeDowncast($0, to: ManagedObject.self) }
    }

    /// Makes the saved state of the objects of `changes` their committed state, list by list.
    /// `everything`: the change sets are every change the context had (the caller untouched
    /// them all first).
    private func commit(_ changes: ChangeSet, everything: Bool) {
        for list in [changes.insertedEntries, changes.updatedEntries, changes.deletedEntries] {
            for entry in list {
                guard case .object(let object) = entry else { continue }
                commit(unsafeDowncast(object, to: ManagedObject.self), everything: everything)
            }
        }
    }

    /// Objects inserted and then deleted have nothing to save: they leave the context, neither
    /// inserted nor deleted any more (undoing their deletion brings them back).
    func forgetInsertedAndDeleted() {
        for object in touched.values where object.insertedFlag && object.deletedFlag {
            untouch(object)
            forget(object)
            object.insertedFlag = false
            object.deletedFlag = false
        }
    }

    /// Makes the saved state of `object` its committed state. `everything`: the object's change
    /// is committed with every other change the context had (so it is untouched already).
    private func commit(_ object: ManagedObject, everything: Bool) {
        if !everything { untouch(object) }
        if object.deletedFlag {
            // `didSave` sees `isDeleted`; then the object is gone from the context as in Core
            // Data: no longer registered, its context `nil`, and no longer deleted (undoing
            // the deletion brings it back as an insert).
            forget(object)
            object.didSave()
            object.deletedFlag = false
            return
        }
        object.version = object.insertedFlag ? 1 : object.version + 1
        object.insertedFlag = false
        object.commitValues()
        object.didSave()
    }

    private func changeSummary(_ objects: some Sequence<ManagedObject>) -> ContextChange {
        var change = ContextChange()
        for object in objects {
            if object.insertedFlag && object.deletedFlag { continue }
            if object.deletedFlag {
                change.deleted.insert(object.objectID)
            } else if object.insertedFlag {
                change.inserted.insert(object.objectID)
            } else {
                change.updated.insert(object.objectID)
            }
        }
        return change
    }
}
