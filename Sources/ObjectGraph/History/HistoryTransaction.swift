import Foundation

/// One recorded save or batch request (Core Data's `NSPersistentHistoryTransaction`): who made
/// it, when, and what it changed.
///
/// ```swift
/// let result = try context.execute(HistoryRequest.fetchHistory(after: lastToken))
/// for transaction in result.transactions where transaction.author != "app" {
///     try context.mergeChanges(fromHistory: [transaction])
/// }
/// ```
public struct HistoryTransaction: Sendable, Hashable {
    /// The token of this transaction: ask for the history after it to continue from here.
    public var token: HistoryToken
    /// When the change was saved.
    public var timestamp: Date
    /// The saving context's ``ManagedContext/transactionAuthor``.
    public var author: String?
    /// The saving context's ``ManagedContext/name``.
    public var contextName: String?
    /// The bundle identifier of the saving process (on Linux: its process name when it has no
    /// bundle identifier).
    public var bundleID: String?
    /// The saving process (its name, as Core Data records it).
    public var processID: String?
    /// The changes, in the order recorded (empty when the request asked for transactions only).
    public var changes: [HistoryChange]

    /// The transaction's number in its store.
    public var transactionNumber: Int64 { token.transactionNumber }
    /// The identifier of the store that recorded it.
    public var storeIdentifier: String { token.storeIdentifier }

    /// A transaction (they are made by the stores; public for tests and tools).
    public init(
        token: HistoryToken, timestamp: Date, author: String? = nil, contextName: String? = nil,
        bundleID: String? = nil, processID: String? = nil, changes: [HistoryChange] = []
    ) {
        self.token = token
        self.timestamp = timestamp
        self.author = author
        self.contextName = contextName
        self.bundleID = bundleID
        self.processID = processID
        self.changes = changes
    }

    /// The objects the transaction inserted, updated and deleted, as a save's change lists
    /// (Core Data's `objectIDNotification()`): hand them to
    /// ``ManagedContext/mergeChanges(fromRemoteContextSave:into:)-(ContextChange,_)``.
    public func objectIDChanges() -> ContextChange {
        var result = ContextChange()
        for change in changes {
            switch change.changeType {
            case .insert: result.inserted.insert(change.changedObjectID)
            case .update: result.updated.insert(change.changedObjectID)
            case .delete: result.deleted.insert(change.changedObjectID)
            }
        }
        // An object inserted then deleted in later transactions is merged as deleted only.
        result.inserted.subtract(result.deleted)
        result.updated.subtract(result.deleted)
        return result
    }
}
