/// A SQLite store's persistent-history state: whether it records, who makes the next change,
/// and how the file has its history tables.
struct SQLiteHistoryState {
    /// Whether saves and batch requests are recorded (``StoreOptions/tracksHistory`` on a
    /// writable store).
    var tracksHistory = false
    /// Who makes the next save or batch request (set by the coordinator).
    var origin = HistoryOrigin()
    /// How the file has its history tables, once known.
    var tables: HistoryTables?
}

/// An attribute whose value a delete keeps in history (the model's
/// `preservesValueInHistoryOnDeletion`), as one of its entity's `ZTOMBSTONEn` columns.
struct TombstoneAttribute {
    /// The attribute's name.
    let name: String
    /// Its type, to read the kept value back.
    let type: AttributeType
    /// Its column in the entity's table.
    let column: String
}
