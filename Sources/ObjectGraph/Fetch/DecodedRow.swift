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
    /// Whether the context held no object with this ID when the row was read (`false` when
    /// that is not known): the context then registers a new object with a single lookup.
    var isNew = false
}

/// A store that decodes rows into ``DecodedRow``s for the context's hot paths (fetching,
/// batch faulting, prefetching). Each method answers what its ``PersistentStore`` counterpart
/// answers, row for row.
///
/// `registered` is the context's identity map when the rows are read: rows of objects loaded
/// there only need their IDs, and rows of objects not there are marked ``DecodedRow/isNew``.
protocol RowDecodingStore: PersistentStore {
    /// ``PersistentStore/fetch(_:)`` for a query whose result is ``StoreQuery/Result/rows``.
    func fetchDecoded(_ query: StoreQuery, knowing registered: RegistrySnapshot?)
        throws -> [DecodedRow]?
    /// ``PersistentStore/rows(for:)``, with every row's values.
    func decodedRows(for ids: [ObjectID]) throws -> [DecodedRow]
    /// ``PersistentStore/relatedRows(of:entityIndex:position:)``.
    func relatedDecodedRows(
        of owners: [ObjectID], entityIndex: Int, position: Int,
        knowing registered: RegistrySnapshot?
    ) throws -> [ObjectID: [DecodedRow]]?
}

/// A context's identity map as a store reading rows for it sees it (shared, not copied).
/// Make it for one store call only: while it lives, changing the registry copies it.
struct RegistrySnapshot {
    let registry: [ObjectID: ManagedObject]

    /// The state of the object `id`, or `nil` when it is not registered.
    func state(of id: ObjectID) -> ObjectState? {
        registry.isEmpty ? nil : registry[id]?.state
    }
}
