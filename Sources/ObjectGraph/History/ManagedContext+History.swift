/// Persistent history through a context: reading it and bringing its changes in.
extension ManagedContext {
    /// Who this context's saves are by, as the stores record it.
    var historyOrigin: HistoryOrigin {
        HistoryOrigin(author: transactionAuthor, contextName: name)
    }

    /// Runs a history request over the coordinator's stores (see ``HistoryRequest``; the same
    /// as ``StoreCoordinator/fetchHistory(_:)``).
    ///
    /// ```swift
    /// let result = try context.execute(HistoryRequest.fetchHistory(after: lastToken))
    /// try context.mergeChanges(fromHistory: result.transactions)
    /// ```
    /// - Throws: ``HistoryError/expiredToken(_:oldestKept:)`` when the history after the
    ///   token was deleted; what ``StoreCoordinator/fetchHistory(_:)`` throws.
    public func execute(_ request: HistoryRequest) throws -> HistoryResult {
        try coordinator.fetchHistory(request)
    }

    /// Brings the changes of `transactions` into this context, as
    /// ``mergeChanges(fromRemoteContextSave:into:)-(ContextChange,_)`` does for a save made elsewhere: deleted
    /// objects leave it, updated objects it holds are read again (its unsaved changes kept on
    /// top), inserted ones are reported.
    ///
    /// ```swift
    /// let result = try context.execute(HistoryRequest.fetchHistory(after: lastToken))
    /// try context.mergeChanges(fromHistory: result.transactions)
    /// ```
    /// - Throws: what ``mergeChanges(fromRemoteContextSave:into:)-(ContextChange,_)`` throws.
    public func mergeChanges(fromHistory transactions: [HistoryTransaction]) throws {
        var all = HistoryTransaction(
            token: HistoryToken(storeIdentifier: "", transactionNumber: 0),
            timestamp: .distantPast)
        all.changes = transactions.flatMap(\.changes)
        let changes = all.objectIDChanges()
        if changes.inserted.isEmpty, changes.updated.isEmpty, changes.deleted.isEmpty { return }
        try Self.mergeChanges(fromRemoteContextSave: changes, into: [self])
    }
}
