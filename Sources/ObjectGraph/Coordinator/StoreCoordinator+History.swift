import Foundation

/// Persistent history: reading, deleting and bookmarking what the stores recorded.
extension StoreCoordinator {
    /// Runs a history request over the stores that keep history (see ``HistoryRequest``).
    ///
    /// ```swift
    /// let result = try coordinator.fetchHistory(.fetchHistory(after: lastToken))
    /// lastToken = result.transactions.last?.token ?? lastToken
    /// ```
    /// - Throws: ``HistoryError/expiredToken(_:oldestKept:)`` when history after the token
    ///   was deleted, ``HistoryError/unknownStore(_:)`` for a token of no store here, a
    ///   predicate's evaluation error, or a store error.
    public func fetchHistory(_ request: HistoryRequest) throws -> HistoryResult {
        let includeChanges =
            request.resultType != .transactionsOnly || request.changePredicate != nil
        var transactions = try withStoresLocked { stores -> [HistoryTransaction] in
            var found: [HistoryTransaction] = []
            let target = Self.storeIdentifier(of: request.start)
            if let target, !stores.contains(where: { $0.description.identifier == target }) {
                throw HistoryError.unknownStore(target)
            }
            for store in stores {
                guard let history = store.history,
                    target == nil || store.description.identifier == target
                else { continue }
                found += try history.fetchHistory(request.start, includeChanges: includeChanges)
            }
            return found
        }
        if Self.storeIdentifier(of: request.start) == nil {
            transactions.sort { ($0.timestamp, $0.token) < ($1.timestamp, $1.token) }
        }
        return try Self.filter(transactions, by: request)
    }

    /// Deletes the history of `token`'s store up to and including `token`'s transaction (Core
    /// Data's `deleteHistory(before:)`); a later fetch after an older token then throws
    /// ``HistoryError/expiredToken(_:oldestKept:)``.
    /// - Returns: the number of transactions deleted.
    @discardableResult
    public func deleteHistory(before token: HistoryToken) throws -> Int {
        try withStoresLocked { stores in
            guard
                let store = stores.first(where: {
                    $0.description.identifier == token.storeIdentifier
                }), let history = store.history
            else { throw HistoryError.unknownStore(token.storeIdentifier) }
            try Self.checkWritable(store)
            return try history.deleteHistory(
                throughTransaction: token.transactionNumber, before: nil)
        }
    }

    /// Deletes, in every store keeping history, the transactions saved before `date`.
    /// - Returns: the number of transactions deleted.
    @discardableResult
    public func deleteHistory(before date: Date) throws -> Int {
        try withStoresLocked { stores in
            var count = 0
            for store in stores {
                guard let history = store.history else { continue }
                try Self.checkWritable(store)
                count += try history.deleteHistory(throughTransaction: nil, before: date)
            }
            return count
        }
    }

    /// The token of the last transaction the store recorded (Core Data's
    /// `currentPersistentHistoryToken(fromStores:)`); `nil` when the store keeps no history.
    ///
    /// ```swift
    /// let token = try coordinator.currentHistoryToken(forStore: description)
    /// ```
    public func currentHistoryToken(forStore description: StoreDescription) throws
        -> HistoryToken?
    {
        try withStoresLocked { stores in
            guard
                let store = stores.first(where: {
                    $0.description.identifier == description.identifier
                })
            else { throw ObjectGraphError.unknownStore(description.identifier) }
            return try store.history?.currentHistoryToken()
        }
    }

    /// The store a request is limited to (a token's), or `nil` for all.
    private static func storeIdentifier(of start: HistoryRequest.Start) -> String? {
        switch start {
        case .afterToken(let token), .transaction(let token): return token.storeIdentifier
        case .beginning, .afterDate: return nil
        }
    }

    /// Refuses to delete history in a read-only store.
    private static func checkWritable(_ store: any PersistentStore) throws {
        if store.description.isReadOnly {
            throw SaveError.store(.readOnly(path: store.description.displayPath))
        }
    }

    /// Applies the request's predicates, limit and result type to `transactions`.
    static func filter(_ transactions: [HistoryTransaction], by request: HistoryRequest) throws
        -> HistoryResult
    {
        var kept: [HistoryTransaction] = []
        for var transaction in transactions {
            if let predicate = request.transactionPredicate,
                try !predicate.evaluate(with: transaction)
            {
                continue
            }
            if let predicate = request.changePredicate {
                transaction.changes = try transaction.changes.filter {
                    try predicate.evaluate(with: $0)
                }
                if transaction.changes.isEmpty { continue }
            }
            kept.append(transaction)
            if request.fetchLimit > 0, kept.count == request.fetchLimit { break }
        }
        switch request.resultType {
        case .transactionsAndChanges:
            return HistoryResult(transactions: kept, changes: kept.flatMap(\.changes))
        case .transactionsOnly:
            return HistoryResult(
                transactions: kept.map {
                    var bare = $0
                    bare.changes = []
                    return bare
                })
        case .changesOnly:
            return HistoryResult(changes: kept.flatMap(\.changes))
        }
    }
}
