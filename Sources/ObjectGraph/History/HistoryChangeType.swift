/// What a ``HistoryChange`` did to its object (Core Data's `NSPersistentHistoryChangeType`;
/// the raw values are those Core Data stores in `ACHANGE.ZCHANGETYPE`).
public enum HistoryChangeType: Int, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The object was inserted.
    case insert = 0
    /// Some of the object's properties changed (``HistoryChange/updatedProperties``).
    case update = 1
    /// The object was deleted (``HistoryChange/tombstone`` keeps the values the model asks to
    /// keep).
    case delete = 2

    /// `insert`, `update` or `delete`.
    public var description: String {
        switch self {
        case .insert: return "insert"
        case .update: return "update"
        case .delete: return "delete"
        }
    }
}
