/// Merging the IDs a batch request (or another process) changed, given as Core Data apps give
/// them: a dictionary of IDs by ``ChangeKey``.
extension ManagedContext {
    /// Merges the changes listed in `changes` into each of `contexts`, as
    /// `mergeChanges(fromRemoteContextSave:into:)` with a ``ContextChange`` does: deleted objects
    /// leave the contexts and their relationships, updated objects are read again from the
    /// store, inserted ones are reported. ``ChangeKey/refreshedObjects`` merge as updated,
    /// ``ChangeKey/invalidatedObjects`` as deleted; other keys are ignored.
    ///
    /// ```swift
    /// var request = BatchDeleteRequest(entityName: "Person", predicate: old)
    /// request.resultType = .objectIDs
    /// let ids = try context.execute(request).objectIDs ?? []
    /// try ManagedContext.mergeChanges(
    ///     fromRemoteContextSave: [.deletedObjects: ids], into: [viewContext])
    /// ```
    /// - Throws: what merging the IDs throws (see the `ContextChange` form).
    public static func mergeChanges(
        fromRemoteContextSave changes: ChangeKeyIDs, into contexts: [ManagedContext]
    ) throws {
        var change = ContextChange()
        for (key, ids) in changes {
            switch key {
            case .insertedObjects: change.inserted.formUnion(ids)
            case .updatedObjects, .refreshedObjects: change.updated.formUnion(ids)
            case .deletedObjects, .invalidatedObjects: change.deleted.formUnion(ids)
            default: continue
            }
        }
        change.updated.subtract(change.deleted)
        try mergeChanges(fromRemoteContextSave: change, into: contexts)
    }
}
