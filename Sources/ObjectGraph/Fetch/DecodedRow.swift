/// A fetched row decoded straight into the form a managed object holds its values in.
///
/// Stores that can (``RowDecodingStore``) hand these to a context instead of ``StoreRow``s:
/// the values become a new object's slots as they are, with no intermediate array per row, and
/// rows of objects the context already holds loaded carry no values at all (the context keeps
/// its object as it is, so decoding them would be wasted).
struct DecodedRow {
    /// The object's ID.
    var id: ObjectID
    /// The index of the row's concrete entity in the schema.
    var entityIndex: Int
    /// The row's version (optimistic locking).
    var version: Int64
    /// The values by property position (relationships as faults), or `nil` when they were
    /// skipped because the context held the object loaded when the row was read.
    var slots: [Slot]?
}

/// A store that decodes rows into ``DecodedRow``s for the context's hot paths (fetching,
/// batch faulting, prefetching). Each method answers what its ``PersistentStore`` counterpart
/// answers, row for row.
///
/// `isLoaded` tells the store which objects the context holds loaded: their rows only need
/// their IDs. It is called under the coordinator's lock and must not call back into stores.
protocol RowDecodingStore: PersistentStore {
    /// ``PersistentStore/fetch(_:)`` for a query whose result is ``StoreQuery/Result/rows``.
    func fetchDecoded(_ query: StoreQuery, skippingValuesOf isLoaded: ((ObjectID) -> Bool)?)
        throws -> [DecodedRow]?
    /// ``PersistentStore/rows(for:)``, with every row's values.
    func decodedRows(for ids: [ObjectID]) throws -> [DecodedRow]
    /// ``PersistentStore/relatedRows(of:entityIndex:position:)``.
    func relatedDecodedRows(
        of owners: [ObjectID], entityIndex: Int, position: Int,
        skippingValuesOf isLoaded: ((ObjectID) -> Bool)?
    ) throws -> [ObjectID: [DecodedRow]]?
}
