/// Why persistent history could not be read, kept or written.
///
/// ```swift
/// do { _ = try coordinator.fetchHistory(.fetchHistory(after: oldToken)) }
/// catch HistoryError.expiredToken { /* read everything again */ }
/// ```
public enum HistoryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The token's transaction was deleted (``StoreCoordinator/deleteHistory(before:)-(HistoryToken)``)
    /// and so were transactions after it: the history after it is incomplete. Core Data's
    /// `NSPersistentHistoryTokenExpiredError` (code 134301). `oldestKept` is the token of the
    /// oldest transaction kept (`nil`: none).
    case expiredToken(HistoryToken, oldestKept: HistoryToken?)
    /// History tracking (``StoreOptions/tracksHistory``) was asked of a store type that does
    /// not keep history (only SQLite stores do).
    case notSupported(storeType: String)
    /// No store of the coordinator has this identifier.
    case unknownStore(String)
    /// A history row names an entity number (`ACHANGE.ZENTITY`) the store's model has not.
    case unknownEntity(number: Int, change: Int64, path: String)

    /// Core Data's error code: 134301 for an expired token, 134091 for the rest (as Core Data
    /// reports a store request it cannot run, `NSPersistentStoreOperationError`).
    public var code: Int {
        switch self {
        case .expiredToken: return 134_301
        default: return 134_091
        }
    }

    /// What went wrong, naming the token, store or row.
    public var description: String {
        switch self {
        case .expiredToken(let token, let oldest):
            return "history token \(token) has expired: the history after it was deleted"
                + (oldest.map { " (the oldest transaction kept is \($0))" } ?? " (none is kept)")
        case .notSupported(let type):
            return "a \(type) store does not keep persistent history: only sqlite stores do"
        case .unknownStore(let identifier):
            return "no store with identifier \(identifier) keeps history here"
        case .unknownEntity(let number, let change, let path):
            return "\(path): history change \(change) names entity number \(number), which the"
                + " model has not"
        }
    }
}
