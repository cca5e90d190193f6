/// What a store keeps for one property of a row.
enum StoredValue: Sendable, Hashable {
    /// An attribute value.
    case value(Value)
    /// A to-one relationship's target.
    indirect case toOne(ObjectID?)
    /// A to-many relationship's targets, in order; `nil` when not loaded (a store answers
    /// ``PersistentStore/relatedIDs(of:entityIndex:position:)`` on first use) or, in a saved
    /// row, unchanged.
    case toMany([ObjectID]?)
}

/// One object as a store keeps it: its ID, concrete entity, version and values by property
/// position (the positions of the entity's ``EntitySchema``; transient properties hold nil).
struct StoreRow: Sendable, Hashable {
    var id: ObjectID
    var entityIndex: Int
    /// Incremented on every saved change (Core Data's `Z_OPT`).
    var version: Int64
    var values: [StoredValue]
    /// For updated rows: the positions that changed since the row was read (`nil`: unknown,
    /// write everything). Stores may write only these.
    var changedPositions: [Int]? = nil
}

/// The changes of one save for one store (made and used during one `save` call).
struct ChangeSet {
    /// Inserted rows.
    var insertedEntries: [PendingEntry] = []
    /// Updated rows; they carry the version they were read at, and the store bumps it.
    var updatedEntries: [PendingEntry] = []
    /// Deleted objects (a store reads their IDs, entities and the versions they were read at).
    var deletedEntries: [PendingEntry] = []
    /// Reads the entries that are objects (`nil` when every entry is a row given whole).
    var reader: (any PendingObjectReader.Type)?

    /// A change set of rows given whole, all inserted (imports).
    init(inserting rows: [StoreRow]) {
        insertedEntries = rows.map(PendingEntry.row)
    }

    /// An empty change set whose objects `reader` reads.
    init(reader: (any PendingObjectReader.Type)? = nil) {
        self.reader = reader
    }

    var inserted: PendingRows { PendingRows(entries: insertedEntries, reader: reader) }
    var updated: PendingRows { PendingRows(entries: updatedEntries, reader: reader) }
    var deleted: PendingRows { PendingRows(entries: deletedEntries, reader: reader) }

    var isEmpty: Bool {
        insertedEntries.isEmpty && updatedEntries.isEmpty && deletedEntries.isEmpty
    }

    /// The objects of the entries (inserted, updated, then deleted; rows given whole have none).
    var objects: some Sequence<AnyObject> {
        [insertedEntries, updatedEntries, deletedEntries].lazy.flatMap { $0 }.compactMap {
            if case .object(let object) = $0 { return object }
            return nil
        }
    }
}

/// A row changed by someone else since it was read (optimistic locking).
public struct SaveConflict: Sendable, Hashable, CustomStringConvertible {
    /// The object concerned.
    public var objectID: ObjectID
    /// The version the context read.
    public var expectedVersion: Int64
    /// The version the store has now (0 when the row was deleted).
    public var storeVersion: Int64
    /// Each changed property: the value read, the value wanted and the value now held by the
    /// other side (filled in by the context reporting the conflict).
    public var properties: [PropertyConflict] = []
    /// The side that saved the other values.
    public var source: ConflictSource = .store

    /// `x-coredata://…: read at version 1, store has version 2`.
    public var description: String {
        let head =
            storeVersion == 0
            ? "\(objectID): deleted by someone else since it was read at version \(expectedVersion)"
            : "\(objectID): read at version \(expectedVersion), store has version \(storeVersion)"
        return properties.isEmpty
            ? head : head + " (" + properties.map(\.description).joined(separator: "; ") + ")"
    }
}
