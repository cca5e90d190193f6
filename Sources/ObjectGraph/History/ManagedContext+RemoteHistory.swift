/// Remote changes merged from persistent history: a context that merges remote changes
/// (``ManagedContext/automaticallyMergesRemoteChanges``) keeps, per store that records history,
/// the token of the last transaction it brought in, and reads the transactions after it.
extension ManagedContext {
    /// Notes the newest history token of every store of the coordinator that keeps history:
    /// the first remote change merges the transactions recorded after it.
    func startRemoteHistory() {
        for description in coordinator.storeDescriptions {
            // `try?` flattens: nil when the store keeps no history or cannot be read.
            guard let token = try? coordinator.currentHistoryToken(forStore: description)
            else { continue }
            remoteHistoryTokens[description.identifier] = token
        }
    }

    /// Merges the history transactions `change`'s store recorded after the last one this
    /// context merged, and moves the context's token on to the newest; `false` (nothing done)
    /// when the change carries no history token, the context has no token for the store yet,
    /// the history after its token was deleted, or holds nothing new (the caller then compares
    /// rows instead).
    func mergeRemoteHistory(_ change: StoreRemoteChange) throws -> Bool {
        guard change.historyToken != nil,
            let last = remoteHistoryTokens[change.storeIdentifier]
        else { return false }
        let result: HistoryResult
        do {
            result = try coordinator.fetchHistory(.fetchHistory(after: last))
        } catch HistoryError.expiredToken {
            remoteHistoryTokens[change.storeIdentifier] = nil
            return false
        }
        // No transaction although the file changed: a writer without history tracking, or a
        // checkpoint; the rows tell.
        guard !result.transactions.isEmpty else { return false }
        try mergeChanges(fromHistory: result.transactions)
        if let newest = result.transactions.map(\.token).max(), newest > last {
            remoteHistoryTokens[change.storeIdentifier] = newest
        }
        return true
    }
}
