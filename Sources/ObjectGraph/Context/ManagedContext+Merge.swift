import Foundation

/// Bringing in what another context saved (Core Data's `mergeChanges(fromContextDidSave:)`).
extension ManagedContext {
    /// Brings the changes another context saved to the same store into this context, from that
    /// context's ``ContextNotification/Kind/didSave`` notification.
    ///
    /// - Objects it deleted leave this context, faults included (their unsaved changes here
    ///   go with them).
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
        for id in notification.changes.deleted {
            guard let object = registry[id] else { continue }
            registry[id] = nil
            untouch(object)
            faultBatches[id] = nil
            object.breakReferences()
            object.context = nil
            change.deleted.insert(id)
        }
        for id in notification.changes.updated {
            guard let object = registry[id], object.state == .loaded, !object.insertedFlag
            else { continue }
            try refresh(object, mergeChanges: true)
            change.updated.insert(id)
        }
    }
}
