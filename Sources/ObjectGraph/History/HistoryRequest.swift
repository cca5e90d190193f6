import Foundation

/// A request for a store's persistent history (Core Data's `NSPersistentHistoryChangeRequest`
/// for fetching): from where to read, what to return, and which transactions and changes to
/// keep. Run it with ``ManagedContext/execute(_:)-(HistoryRequest)`` or
/// ``StoreCoordinator/fetchHistory(_:)``.
///
/// ```swift
/// var request = HistoryRequest.fetchHistory(after: lastToken)
/// request.transactionPredicate = try Predicate(format: "author != %@", "app")
/// request.changePredicate = try Predicate(format: "changedEntity == 'Person'")
/// let result = try context.execute(request)
/// ```
///
/// Predicates are evaluated in memory by the predicate evaluator, over the keys
/// ``HistoryTransaction`` and ``HistoryChange`` answer (see their `KeyValueReadable`
/// conformances): on a transaction `author`, `contextName`, `bundleID`, `processID`,
/// `timestamp`, `transactionNumber`, `storeIdentifier`; on a change `changeID`,
/// `changeType` (0 insert, 1 update, 2 delete), `changedEntity`, `changedObjectID`,
/// `updatedProperties`, `tombstone` and `transactionNumber`.
public struct HistoryRequest: Sendable {
    /// Where the history read begins.
    public enum Start: Sendable, Hashable {
        /// From the first transaction kept.
        case beginning
        /// After the transaction of the token (that one excluded); only that token's store.
        case afterToken(HistoryToken)
        /// After a date: the transactions saved later, in every store keeping history.
        case afterDate(Date)
        /// The one transaction of the token.
        case transaction(HistoryToken)
    }

    /// What the request returns (Core Data's `NSPersistentHistoryResultType`).
    public enum ResultType: Sendable, Hashable {
        /// The transactions, each with its changes (and the changes, flattened).
        case transactionsAndChanges
        /// The transactions, without their changes.
        case transactionsOnly
        /// The changes only.
        case changesOnly
    }

    /// Where reading begins.
    public var start: Start
    /// What the request returns.
    public var resultType: ResultType = .transactionsAndChanges
    /// Keeps the transactions it matches (`nil`: all).
    public var transactionPredicate: Predicate?
    /// Keeps the changes it matches (`nil`: all); transactions left with no change are
    /// dropped when it is set.
    public var changePredicate: Predicate?
    /// At most this many transactions (0: no limit), the oldest first.
    public var fetchLimit = 0

    /// A request starting at `start`.
    public init(start: Start = .beginning) {
        self.start = start
    }

    /// The history after `token` (`nil`: all of it).
    public static func fetchHistory(after token: HistoryToken?) -> HistoryRequest {
        HistoryRequest(start: token.map { .afterToken($0) } ?? .beginning)
    }

    /// The history saved after `date`.
    public static func fetchHistory(after date: Date) -> HistoryRequest {
        HistoryRequest(start: .afterDate(date))
    }

    /// The transaction of `token` alone.
    public static func fetchTransaction(_ token: HistoryToken) -> HistoryRequest {
        HistoryRequest(start: .transaction(token))
    }
}
