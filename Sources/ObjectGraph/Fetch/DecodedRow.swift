/// A fetched row decoded straight into the form a managed object holds its values in.
///
/// A context's ``RowRegistrar`` makes one of each row a store decodes into it (see
/// ``RowDecodingStore``), as the store steps through its rows: the values become a new
/// object's slots as they are, with no intermediate array per row, and rows of objects the context already holds loaded
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
