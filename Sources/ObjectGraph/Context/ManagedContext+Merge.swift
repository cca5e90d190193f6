import Foundation

/// Bringing in what another context saved (Core Data's `mergeChanges(fromContextDidSave:)`).
extension ManagedContext {
    /// Brings the changes another context saved to the same store into this context, from that
    /// context's ``ContextNotification/Kind/didSave`` notification.
    ///
    /// - Objects it deleted are deleted here, as in Core Data, and leave this context at once
    ///   (faults included; their unsaved changes here go with them), so a later save has
    ///   nothing to delete again. Their cascading relationships delete here what this context
    ///   added to them since (an unsaved new object, say); no relationship of the objects here
    ///   holds them any more — loaded or not, no inverse included, current and committed
    ///   values alike — so nothing dangles and a later save writes no reference to them. Undo
    ///   history is cleared then (it could bring them back).
    /// - Objects it updated that this context holds loaded are read again, and this context's
    ///   unsaved changes to them are kept on top (``refresh(_:mergeChanges:)`` with `true`);
    ///   relationships come back as faults, so they show the saved members.
    /// - Objects it inserted need nothing: fetches and relationships find them (Core Data
    ///   faults them in).
    ///
    /// The context then processes its pending changes (``processPendingChanges()``): observers
    /// get one ``ContextNotification/Kind/objectsDidChange`` listing the inserted objects
    /// (those the same save did not also delete) as ``ContextChange/inserted``, as Core Data's
    /// `NSInsertedObjectsKey` does after a merge, the deleted objects it held as
    /// ``ContextChange/deleted``, the objects read again as
    /// ``ContextChange/refreshed``, or as ``ContextChange/updated`` when they have unsaved
    /// changes here. A notification of another kind changes nothing.
    ///
    /// ```swift
    /// let observation = background.observe { note in
    ///     guard note.kind == .didSave else { return }
    ///     try? viewContext.mergeChanges(fromContextDidSave: note)
    /// }
    /// ```
    /// - Throws: ``ObjectGraphError`` or a store error when an updated object cannot be read
    ///   again; the objects merged before it stay merged.
    public func mergeChanges(fromContextDidSave notification: ContextNotification) throws {
        guard notification.kind == .didSave else { return }
        rowCache.removeAll()
        // Objects read again below are read from the newest generation.
        advanceQueryGeneration()
        defer {
            processPendingChanges()
            for observer in mergeObservers.values { observer(notification.changes) }
        }
        let observed = !observers.isEmpty
        let deleted = notification.changes.deleted
        if observed {
            pendingChange.inserted.formUnion(notification.changes.inserted.subtracting(deleted))
        }
        let merged = deleted.compactMap { registry[$0] }
        cascadeLocally(from: merged, deleted: deleted)
        for object in merged {
            untouch(object)
            forget(object)
            if observed { pendingChange.deleted.insert(object.objectID) }
        }
        for id in deleted { faultBatches[id] = nil }
        for id in notification.changes.updated {
            guard let object = registry[id], object.state == .loaded, !object.insertedFlag
            else { continue }
            let dirty = object.hasChanges
            try refresh(object, mergeChanges: true)
            if observed, dirty { pendingChange.updated.insert(id) }
        }
        // After the refreshes: a relationship with no inverse reads the deleted object back.
        if !deleted.isEmpty, forgetReferences(to: deleted) || !merged.isEmpty {
            undoManager?.removeAllActions()
        }
    }

    /// Deletes here what the cascading relationships of the `merged` objects (deleted by the
    /// other context) hold and that context did not delete: objects this context inserted or
    /// added to them since. Only loaded relationships are followed (what the store holds, the
    /// other context's save cascaded already).
    private func cascadeLocally(from merged: [ManagedObject], deleted: Set<ObjectID>) {
        for object in merged where object.state == .loaded {
            for position in object.schema.relationshipPositions {
                guard case .relationship(let relationship) = object.schema.properties[position],
                    relationship.relationship.deleteRule == .cascade
                else { continue }
                let targets: [ManagedObject]
                switch object.slots[position] {
                case .toOne(let target?): targets = [target]
                case .toMany(let list): targets = list
                default: targets = []
                }
                for target in targets where !deleted.contains(target.objectID) {
                    delete(target)
                }
            }
        }
    }

    /// Takes the objects with the `removed` IDs out of every relationship of the loaded
    /// objects the context holds: resolved or not, current and committed values alike (the
    /// store no longer has them). Returns whether a relationship held any of them (then the
    /// undo history, which may put them back, must go).
    private func forgetReferences(to removed: Set<ObjectID>) -> Bool {
        var held = false
        func cleaned(_ slot: Slot) -> Slot? {
            switch slot {
            case .toOne(let target?) where removed.contains(target.objectID):
                return .toOne(nil)
            case .toOneFault, .toOneFaultID:
                guard let target = slot.faultTarget, removed.contains(target) else { return nil }
                return .toOne(nil)
            case .toMany(let targets)
            where targets.contains(where: { removed.contains($0.objectID) }):
                return .toMany(targets.filter { !removed.contains($0.objectID) })
            case .toManyFault(let ids?) where ids.contains(where: removed.contains):
                return .toManyFault(ids.filter { !removed.contains($0) })
            default:
                return nil
            }
        }
        for object in registry.values where object.state == .loaded {
            let slots = object.slots
            for position in object.schema.relationshipPositions {
                if let slot = cleaned(slots[position]) {
                    slots[position] = slot
                    object.observedChange(at: position)
                    held = true
                }
                object.originals.update(at: position) { cleaned($0) ?? $0 }
            }
        }
        return held
    }
}
