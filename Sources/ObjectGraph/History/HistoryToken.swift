/// A bookmark in a store's persistent history (Core Data's `NSPersistentHistoryToken`): the
/// number of a transaction (its `Z_PK` in the store's `ATRANSACTION` table) and the identifier
/// of the store that recorded it. Tokens survive restarts: keep one (it is `Codable`) and ask
/// for the history after it when the app comes back.
///
/// ```swift
/// let token = try coordinator.currentHistoryToken(forStore: store)
/// let data = try JSONEncoder().encode(token)            // kept across launches
/// let later = try coordinator.fetchHistory(.fetchHistory(after: token))
/// ```
///
/// Tokens of one store order by transaction number; tokens of different stores order by store
/// identifier first (an order with no meaning in time, only so that sorting is total).
public struct HistoryToken: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The identifier (`NSStoreUUID`) of the store whose history the token marks.
    public var storeIdentifier: String
    /// The number of the transaction the token stands for (0: before the first one).
    public var transactionNumber: Int64

    /// A token for the transaction `transactionNumber` of the store `storeIdentifier`.
    public init(storeIdentifier: String, transactionNumber: Int64) {
        self.storeIdentifier = storeIdentifier
        self.transactionNumber = transactionNumber
    }

    /// Reads a token written by ``description`` (`STORE-UUID:NUMBER`); `nil` for other text.
    ///
    /// ```swift
    /// HistoryToken("6F1C…:42")?.transactionNumber  // 42
    /// ```
    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"),
            let number = Int64(text[text.index(after: colon)...]), number >= 0
        else { return nil }
        self.init(storeIdentifier: String(text[..<colon]), transactionNumber: number)
    }

    /// `STORE-UUID:NUMBER`, which ``init(_:)`` reads back.
    public var description: String { "\(storeIdentifier):\(transactionNumber)" }

    /// Orders tokens of one store by transaction; of different stores by store identifier.
    public static func < (lhs: HistoryToken, rhs: HistoryToken) -> Bool {
        (lhs.storeIdentifier, lhs.transactionNumber) < (rhs.storeIdentifier, rhs.transactionNumber)
    }
}
