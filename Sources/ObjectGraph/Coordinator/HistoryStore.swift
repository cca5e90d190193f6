import Foundation

/// A store that keeps persistent history (the SQLite store): it records each save and batch
/// request when tracking is on, and reads, deletes and bookmarks its history. Used, like the
/// store, only under the coordinator's lock.
protocol HistoryStore: AnyObject {
    /// Whether the store records its saves (``StoreOptions/tracksHistory``).
    var tracksHistory: Bool { get }
    /// Who makes the next save or batch request: the coordinator sets it, under its lock,
    /// just before it hands the store the change.
    var historyOrigin: HistoryOrigin { get set }
    /// The transactions `request.start` selects, oldest first, with their changes unless
    /// `includeChanges` is false (predicates and limits are the caller's).
    /// - Throws: ``HistoryError/expiredToken(_:oldestKept:)`` when the history after a token
    ///   was deleted; a store error when the file cannot be read.
    func fetchHistory(_ start: HistoryRequest.Start, includeChanges: Bool) throws
        -> [HistoryTransaction]
    /// Deletes the transactions up to and including `token`'s, or saved before `date`, and
    /// their changes; returns how many transactions went.
    func deleteHistory(throughTransaction number: Int64?, before date: Date?) throws -> Int
    /// The token of the last transaction recorded (0 when none was yet), or `nil` when the
    /// store has no history tables.
    func currentHistoryToken() throws -> HistoryToken?
}
