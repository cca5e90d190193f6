/// What a ``HistoryRequest`` returns.
///
/// ```swift
/// let result = try coordinator.fetchHistory(.fetchHistory(after: token))
/// let next = result.transactions.last?.token ?? token
/// ```
public struct HistoryResult: Sendable, Hashable {
    /// The transactions, oldest first (empty for ``HistoryRequest/ResultType/changesOnly``;
    /// without changes for ``HistoryRequest/ResultType/transactionsOnly``).
    public var transactions: [HistoryTransaction]
    /// Every change of the transactions, in order (empty for
    /// ``HistoryRequest/ResultType/transactionsOnly``).
    public var changes: [HistoryChange]

    /// A result.
    public init(transactions: [HistoryTransaction] = [], changes: [HistoryChange] = []) {
        self.transactions = transactions
        self.changes = changes
    }
}
