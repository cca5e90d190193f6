/// What a batch request returned (Core Data's `NSBatchDeleteResult`, `NSBatchUpdateResult` and
/// `NSBatchInsertResult`): the answer its ``BatchResultType`` asked for, and every object the
/// request changed, by kind and entity, for merging into contexts.
///
/// ```swift
/// let result = try context.execute(BatchDeleteRequest(entityName: "Person", predicate: old))
/// try ManagedContext.mergeChanges(fromRemoteContextSave: result.changes, into: [viewContext])
/// ```
public struct BatchResult: Sendable, Hashable {
    /// The answer of a batch request (Core Data's `result`).
    public enum Outcome: Sendable, Hashable {
        /// The request succeeded (``BatchResultType/statusOnly``).
        case status(Bool)
        /// The number of objects the request deleted, updated or inserted
        /// (``BatchResultType/count``).
        case count(Int)
        /// The IDs of the objects the request deleted, updated or inserted
        /// (``BatchResultType/objectIDs``).
        case objectIDs([ObjectID])
    }

    /// The type the request asked for.
    public let resultType: BatchResultType
    /// The answer, as ``resultType`` asked.
    public let result: Outcome
    /// Every object the request changed, by kind (``ChangeKey/insertedObjects``,
    /// ``ChangeKey/updatedObjects``, ``ChangeKey/deletedObjects``) and entity name: a batch
    /// delete lists the rows it deleted by cascade too, and the rows whose relationships it
    /// nullified as updated. The same for every result type.
    public let changesByEntity: [ChangeKey: [String: [ObjectID]]]

    /// Creates a result of `changed` (the objects the request's answer counts or lists) and
    /// every change it made.
    init(
        resultType: BatchResultType, changed: [ObjectID],
        changesByEntity: [ChangeKey: [String: [ObjectID]]]
    ) {
        self.resultType = resultType
        self.changesByEntity = changesByEntity
        switch resultType {
        case .statusOnly: result = .status(true)
        case .count: result = .count(changed.count)
        case .objectIDs: result = .objectIDs(changed)
        }
    }

    /// Whether the request succeeded: `true` (a failed request throws).
    public var status: Bool { true }

    /// The count, for ``BatchResultType/count``; else `nil`.
    public var count: Int? {
        if case .count(let count) = result { return count }
        return nil
    }

    /// The IDs, for ``BatchResultType/objectIDs``; else `nil`.
    public var objectIDs: [ObjectID]? {
        if case .objectIDs(let ids) = result { return ids }
        return nil
    }

    /// Every object the request changed, by kind, whatever the result type: what
    /// `ManagedContext.mergeChanges(fromRemoteContextSave:into:)` takes.
    ///
    /// ```swift
    /// try ManagedContext.mergeChanges(fromRemoteContextSave: result.changes, into: [context])
    /// ```
    public var changes: [ChangeKey: [ObjectID]] {
        changesByEntity.mapValues { byEntity in
            byEntity.keys.sorted().flatMap { byEntity[$0] ?? [] }
        }
    }
}
