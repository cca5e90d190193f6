/// A fetched row decoded straight into the form a managed object holds its values in.
///
/// Stores that can (``RowDecodingStore``) hand these to a context's ``RowRegistrar`` one at a
/// time as they step through their rows: the values become a new object's slots as they are,
/// with no intermediate array per row, and rows of objects the context already holds loaded
/// carry no values at all (the context keeps its object as it is, so decoding them would be
/// wasted).
struct DecodedRow {
    /// The object's ID.
    var id: ObjectID
    /// The index of the row's concrete entity in the schema.
    var entityIndex: Int
    /// The row's version (optimistic locking).
    var version: Int64
    /// The values by property position (relationships as faults), in place in a block of the
    /// context's ``SlotArena``, or `nil` when they were skipped because the context held the
    /// object loaded when the row was read.
    var storage: SlotRange?
    /// What the context held for the row's object when the row was read.
    var registration = Registration.none

    /// What a context held for a row's object when the row was read.
    enum Registration {
        /// Nothing: the context registers a new object with a single lookup.
        case none
        /// This object, a fault: it is loaded with the row's values.
        case fault(ManagedObject)
        /// This object, loaded (the row carries no values).
        case loaded(ManagedObject)

        /// Whether the object is registered loaded (its row's values are not needed).
        var isLoaded: Bool {
            if case .loaded = self { return true }
            return false
        }
    }
}

/// A store that decodes rows for the context's hot paths (fetching, batch faulting,
/// prefetching), handing each row to a ``RowRegistrar`` as it reads it. Each method reads what
/// its ``PersistentStore`` counterpart reads, row for row.
///
/// The store asks the registrar what the context holds for each row's object
/// (``RowRegistrar/registration(of:)``) before decoding its values, and gives it the row
/// (``RowRegistrar/take(_:group:)``) right after, with no other code in between.
protocol RowDecodingStore: PersistentStore {
    /// ``PersistentStore/fetch(_:)`` for a query whose result is ``StoreQuery/Result/rows``;
    /// `false` (and no row taken) when the store cannot answer it.
    func fetchDecoded(_ query: StoreQuery, into registrar: inout RowRegistrar) throws -> Bool
    /// ``PersistentStore/rows(for:)``, with every row's values.
    func decodedRows(for ids: [ObjectID], into registrar: inout RowRegistrar) throws
    /// ``PersistentStore/relatedRows(of:entityIndex:position:)``: each row is taken in the
    /// group of its owner (the owner's index in `owners`, its first one if listed twice);
    /// `false` (and no row taken) when the store keeps relationship lists in its rows.
    func relatedDecodedRows(
        of owners: [ObjectID], entityIndex: Int, position: Int,
        into registrar: inout RowRegistrar
    ) throws -> Bool
}
