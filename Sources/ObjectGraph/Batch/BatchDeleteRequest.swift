/// Deletes the objects of an entity that match a predicate, or the objects of a list of IDs,
/// in the store, without loading them into a context (Core Data's `NSBatchDeleteRequest`).
///
/// The store deletes the rows in one transaction and applies the delete rules of their
/// relationships as a context's delete would: ``DeleteRule/cascade`` deletes the related rows
/// (and theirs, in turn), the relationships of the other rows that held a deleted row are
/// nullified (join-table rows removed), and a ``DeleteRule/deny`` relationship that still holds
/// a row left alive fails the request with a ``ValidationError`` (rule
/// ``ValidationError/Problem/Rule/deleteDenied``) naming the entity and relationship; nothing
/// is deleted then. Contexts do not see the deletion until it is merged
/// (`ManagedContext.mergeChanges(fromRemoteContextSave:into:)`).
///
/// ```swift
/// var request = BatchDeleteRequest(
///     entityName: "Person", predicate: try Predicate(format: "age > 99"))
/// request.resultType = .objectIDs
/// let result = try context.execute(request)
/// try ManagedContext.mergeChanges(fromRemoteContextSave: result.changes, into: [context])
/// ```
public struct BatchDeleteRequest: Sendable, Hashable {
    /// The entity whose objects are deleted.
    public var entityName: String
    /// The objects to delete (`nil`: every object); ignored when ``objectIDs`` is set.
    public var predicate: Predicate?
    /// The objects to delete, all of one entity (Core Data's `init(objectIDs:)`), or `nil`.
    public var objectIDs: [ObjectID]?
    /// Whether objects of the entity's subentities are deleted too (as by a fetch).
    public var includesSubentities = true
    /// What ``ManagedContext/execute(_:)-(BatchDeleteRequest)`` returns.
    public var resultType: BatchResultType = .statusOnly

    /// A request deleting the objects of `entityName` that match `predicate` (all of them
    /// without one).
    public init(entityName: String, predicate: Predicate? = nil) {
        self.entityName = entityName
        self.predicate = predicate
    }

    /// A request deleting the objects `objectIDs` (all of one entity; an empty list deletes
    /// nothing). Mixing entities fails when the request runs.
    public init(objectIDs: [ObjectID]) {
        self.entityName = objectIDs.first?.entityName ?? ""
        self.objectIDs = objectIDs
    }
}
