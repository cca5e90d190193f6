/// A fetched row decoded straight into the form a managed object holds its values in.
///
/// Stores that can (``RowDecodingStore``) hand these to a context instead of ``StoreRow``s:
/// the values become a new object's slots as they are, with no intermediate array per row, and
/// rows of objects the context already holds loaded carry no values at all (the context keeps
/// its object as it is, so decoding them would be wasted).
///
/// Rows are kept small (a fetch may hold many at once): the object's ID is made from its key,
/// its entity's name and the store's identifier when the object is registered.
struct DecodedRow {
    /// The object's primary key in its store (`Z_PK`).
    var key: Int64
    /// The index of the row's concrete entity in the schema.
    var entityIndex: Int
    /// The row's version (optimistic locking).
    var version: Int64
    /// The values by property position (relationships as faults), or `nil` when they were
    /// skipped because the context held the object loaded when the row was read.
    var slots: [Slot]?
    /// What the context held for the row's object when the row was read.
    var registration = Registration.unknown

    /// What a context held for a row's object when the row was read.
    enum Registration {
        /// Not known (the store was given no ``RegistrySnapshot``).
        case unknown
        /// Nothing: the context registers a new object with a single lookup.
        case none
        /// A fault, loaded with the row's values.
        case fault
        /// This object, loaded (the row carries no values).
        case loaded(ManagedObject)
    }
}

/// A store that decodes rows into ``DecodedRow``s for the context's hot paths (fetching,
/// batch faulting, prefetching). Each method answers what its ``PersistentStore`` counterpart
/// answers, row for row.
///
/// `registered` is the context's identity map when the rows are read: rows of objects loaded
/// there only need their IDs; each row says what was there (``DecodedRow/registration``).
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
    let registry: ObjectRegistry

    /// What is registered for `id`.
    func registration(of id: ObjectID) -> DecodedRow.Registration {
        guard !registry.isEmpty, let object = registry[id] else { return .none }
        return object.state == .loaded ? .loaded(object) : .fault
    }
}
