import Foundation

/// Bringing in a save this process learned of some other way (Core Data's
/// `NSManagedObjectContext.mergeChanges(fromRemoteContextSave:into:)`): another process's, or
/// another coordinator's, on the same store file.
extension ManagedContext {
    /// Merges a save made elsewhere into each of `contexts`, from the IDs it inserted,
    /// updated and deleted (a did-save notification's ``ContextNotification/changes``, sent
    /// over; only those three lists are read).
    ///
    /// In each context, as ``mergeChanges(fromContextDidSave:)`` does for a save on its own
    /// coordinator:
    /// - deleted objects leave the context (faults too, with their unsaved changes here), and
    ///   no relationship of its objects holds them any more;
    /// - updated objects it holds loaded are read again from the store, with this context's
    ///   unsaved changes kept on top;
    /// - inserted objects are reported: fetches and relationships find them.
    ///
    /// Each context then posts one ``ContextNotification/Kind/objectsDidChange`` listing the
    /// inserted IDs as ``ContextChange/inserted``, the deleted objects it held as
    /// ``ContextChange/deleted``, and the objects read again as ``ContextChange/refreshed`` (or
    /// ``ContextChange/updated`` when they have unsaved changes here). Each context merges
    /// inside its own queue (``performAndWait(_:)``): a main-queue context on the main queue,
    /// a private-queue one on its queue (inline when the caller is inside it already).
    ///
    /// ```swift
    /// // Another coordinator (another process) on the same file saved; it sent its IDs:
    /// try ManagedContext.mergeChanges(fromRemoteContextSave: note.changes, into: [viewContext])
    /// ```
    /// - Throws: ``ObjectGraphError`` or a store error when an updated object cannot be read
    ///   again; the contexts (and objects) merged before it stay merged.
    public static func mergeChanges(
        fromRemoteContextSave changes: ContextChange, into contexts: [ManagedContext]
    ) throws {
        let notification = ContextNotification(kind: .didSave, changes: changes)
        for context in contexts {
            try context.performAndWait { () throws -> Void in
                try context.mergeChanges(fromContextDidSave: notification)
            }
        }
    }

    /// Merges a save made elsewhere into each of `contexts`, from the URIs of the objects it
    /// inserted, updated and deleted; see
    /// ``mergeChanges(fromRemoteContextSave:into:)``. Every URI is resolved
    /// in every context's coordinator before anything is merged.
    ///
    /// ```swift
    /// let uris = try JSONDecoder().decode(SavedObjectURIs.self, from: received)
    /// try ManagedContext.mergeChanges(fromRemoteContextSave: uris, into: [viewContext])
    /// ```
    /// - Throws: ``ObjectGraphError/invalidObjectURI(_:)`` for a URI that is malformed or
    ///   names no store or entity of a context's coordinator (then nothing is merged), or
    ///   what merging the IDs throws.
    public static func mergeChanges(
        fromRemoteContextSave uris: SavedObjectURIs, into contexts: [ManagedContext]
    ) throws {
        let resolved = try contexts.map { try uris.objectIDs(in: $0.coordinator) }
        for (context, changes) in zip(contexts, resolved) {
            try mergeChanges(fromRemoteContextSave: changes, into: [context])
        }
    }
}
