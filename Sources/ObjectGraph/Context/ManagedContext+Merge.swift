import Foundation

/// Bringing in what another context saved (Core Data's `mergeChanges(fromContextDidSave:)`).
extension ManagedContext {
    /// Brings the changes another context saved to the same store into this context, from that
    /// context's ``ContextNotification/Kind/didSave`` notification.
    ///
    /// - Objects it deleted leave this context, faults included (their unsaved changes here
    ///   go with them), and the loaded relationships of the objects here let go of them. Undo
    ///   history is cleared then (it could bring them back).
    /// - Objects it updated that this context holds loaded are read again, and this context's
    ///   unsaved changes to them are kept on top (``refresh(_:mergeChanges:)`` with `true`);
    ///   relationships come back as faults, so they show the saved members.
    /// - Objects it inserted need nothing: fetches and relationships find them.
    ///
    /// Observers get one ``ContextNotification/Kind/objectsDidChange`` listing the objects
    /// that left and those read again. A notification of another kind changes nothing.
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
        var change = ContextChange()
        defer {
            if !observers.isEmpty, !change.isEmpty {
                post(ContextNotification(kind: .objectsDidChange, changes: change))
            }
        }
        var removed: Set<ObjectIdentifier> = []
        for id in notification.changes.deleted {
            guard let object = registry[id] else { continue }
            untouch(object)
            faultBatches[id] = nil
            forget(object)
            removed.insert(ObjectIdentifier(object))
            change.deleted.insert(id)
        }
        if !removed.isEmpty {
            forgetReferences(to: removed)
            undoManager?.removeAllActions()
        }
        for id in notification.changes.updated {
            guard let object = registry[id], object.state == .loaded, !object.insertedFlag
            else { continue }
            try refresh(object, mergeChanges: true)
            change.updated.insert(id)
        }
    }

    /// Takes the `removed` objects out of every loaded relationship of the objects the context
    /// holds, current and committed values alike (the store no longer has them). Relationships
    /// not loaded hold IDs and read the store when used.
    private func forgetReferences(to removed: Set<ObjectIdentifier>) {
        func cleaned(_ slot: Slot) -> Slot? {
            switch slot {
            case .toOne(let target?) where removed.contains(ObjectIdentifier(target)):
                return .toOne(nil)
            case .toMany(let targets)
            where targets.contains(where: { removed.contains(ObjectIdentifier($0)) }):
                return .toMany(targets.filter { !removed.contains(ObjectIdentifier($0)) })
            default:
                return nil
            }
        }
        for object in registry.values where object.state == .loaded {
            let slots = object.slots
            for position in object.schema.relationshipPositions {
                if let slot = cleaned(slots[position]) { slots[position] = slot }
                object.originals.update(at: position) { cleaned($0) ?? $0 }
            }
        }
    }
}
