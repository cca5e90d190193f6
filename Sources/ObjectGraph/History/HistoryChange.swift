import Foundation

/// One object's change in a ``HistoryTransaction`` (Core Data's `NSPersistentHistoryChange`).
///
/// ```swift
/// for change in transaction.changes where change.changeType == .update {
///     print(change.changedObjectID, change.updatedProperties ?? [])
/// }
/// ```
public struct HistoryChange: Sendable, Hashable {
    /// The change's number in its store (its `Z_PK` in `ACHANGE`).
    public var changeID: Int64
    /// The object changed.
    public var changedObjectID: ObjectID
    /// Insert, update or delete.
    public var changeType: HistoryChangeType
    /// For an update, the names of the properties that changed; `nil` for inserts and deletes,
    /// and for an update that did not record them (a batch delete nullifying relationships).
    public var updatedProperties: Set<String>?
    /// For a delete, the values of the attributes the model marks
    /// ``Attribute/preservesValueInHistoryOnDeletion``, by name; `nil` otherwise.
    public var tombstone: [String: Value]?
    /// The token of the transaction holding the change.
    public var transactionToken: HistoryToken

    /// A change (they are made by the stores; public for tests and tools that build history).
    public init(
        changeID: Int64, changedObjectID: ObjectID, changeType: HistoryChangeType,
        updatedProperties: Set<String>? = nil, tombstone: [String: Value]? = nil,
        transactionToken: HistoryToken
    ) {
        self.changeID = changeID
        self.changedObjectID = changedObjectID
        self.changeType = changeType
        self.updatedProperties = updatedProperties
        self.tombstone = tombstone
        self.transactionToken = transactionToken
    }
}
