/// What a ``ChangeSet`` keeps for each of its rows: a context's object, read in place at save (no
/// copy of its values is made, so saving 100,000 objects builds no 100,000 rows), or a row built
/// elsewhere (imports, store migrations). One reference: 8 bytes a row in a store's lists.
///
/// Change sets live for the duration of one `save` call on the saving thread; a store reads
/// what it needs through ``PendingRow`` and keeps copies (``PendingRow/row``), never the objects.
enum PendingEntry {
    /// A context's object, read through the change set's ``PendingObjectReader``.
    case object(AnyObject)
    /// A row given whole.
    indirect case row(StoreRow)
}

/// Reads the objects a context put in a change set (the context that made the change set gives
/// its reader type). Stores never see the objects' type: they read rows through ``PendingRow``.
/// Static requirements: a change set carries the reader as a metatype, which copies for free.
protocol PendingObjectReader {
    /// The object's ID (permanent by the time a store sees it).
    static func objectID(of object: AnyObject) -> ObjectID
    /// The index of the object's concrete entity in the schema.
    static func entityIndex(of object: AnyObject) -> Int
    /// The version the object was read at (0 for a new object).
    static func version(of object: AnyObject) -> Int64
    /// For updates: a bit per position that changed since the object was read; `nil` for a new
    /// object (everything is new) or when a changed position is past 63 (every column is
    /// written then). A mask, not a list: no allocation per saved object.
    static func changedMask(of object: AnyObject) -> UInt64?
    /// How many property positions the object has.
    static func positionCount(of object: AnyObject) -> Int
    /// What the store keeps at `position` (transient properties hold nil, relationships the IDs
    /// of their objects).
    static func storedValue(of object: AnyObject, at position: Int) -> StoredValue
    /// The attribute value at `position` without wrapping it (`.null` for relationships).
    static func attributeValue(of object: AnyObject, at position: Int) -> Value
    /// The target of the to-one relationship at `position` (`nil` when empty).
    static func toOneID(of object: AnyObject, at position: Int) -> ObjectID?
}

/// An inserted, updated or deleted row of a ``ChangeSet``, as a store reads it: its entry and
/// the change set's reader of objects.
struct PendingRow {
    let entry: PendingEntry
    let reader: (any PendingObjectReader.Type)?

    /// The object's ID (permanent by the time a store sees it).
    var id: ObjectID {
        switch entry {
        case .object(let object):
            // A change set of objects always has its reader; the key 0 names no row.
            guard let reader else {
                return ObjectID(entityName: "", storeIdentifier: "", key: .permanent(0))
            }
            return reader.objectID(of: object)
        case .row(let row): return row.id
        }
    }

    /// The concrete entity's index in the schema.
    var entityIndex: Int {
        switch entry {
        case .object(let object): return reader?.entityIndex(of: object) ?? 0
        case .row(let row): return row.entityIndex
        }
    }

    /// The version the row was read at (0 for a new object).
    var version: Int64 {
        switch entry {
        case .object(let object): return reader?.version(of: object) ?? 0
        case .row(let row): return row.version
        }
    }

    /// For updates: the positions that changed (`nil`: unknown, write everything).
    var changedPositions: [Int]? {
        switch entry {
        case .object(let object):
            return reader?.changedMask(of: object).map(Self.positions(in:))
        case .row(let row): return row.changedPositions
        }
    }

    /// For updates: a bit per changed position (`nil`: unknown or past 63, write everything).
    var changedMask: UInt64? {
        switch entry {
        case .object(let object): return reader?.changedMask(of: object)
        case .row(let row):
            guard let positions = row.changedPositions else { return nil }
            return Self.mask(of: positions)
        }
    }

    /// The positions whose bits are set in `mask`, ascending.
    static func positions(in mask: UInt64) -> [Int] {
        (0..<64).filter { mask & (1 << UInt64($0)) != 0 }
    }

    /// The mask of `positions`, or `nil` when one is past 63.
    static func mask(of positions: [Int]) -> UInt64? {
        var mask: UInt64 = 0
        for position in positions {
            guard position >= 0, position < 64 else { return nil }
            mask |= 1 << UInt64(position)
        }
        return mask
    }

    /// What the store keeps at `position` (transient properties hold nil).
    func value(at position: Int) -> StoredValue {
        switch entry {
        case .object(let object):
            return reader?.storedValue(of: object, at: position) ?? .value(.null)
        case .row(let row):
            return position < row.values.count ? row.values[position] : .value(.null)
        }
    }

    /// The attribute value at `position` without wrapping it (`.null` for relationships).
    func attribute(at position: Int) -> Value {
        switch entry {
        case .object(let object): return reader?.attributeValue(of: object, at: position) ?? .null
        case .row(let row):
            guard position < row.values.count, case .value(let value) = row.values[position]
            else { return .null }
            return value
        }
    }

    /// The target of the to-one relationship at `position` (`nil` when empty).
    func toOneID(at position: Int) -> ObjectID? {
        switch entry {
        case .object(let object): return reader?.toOneID(of: object, at: position)
        case .row(let row):
            guard position < row.values.count, case .toOne(let id) = row.values[position]
            else { return nil }
            return id
        }
    }

    /// The whole row, copied (for stores that keep rows).
    var row: StoreRow {
        switch entry {
        case .row(let row): return row
        case .object(let object):
            let count = reader?.positionCount(of: object) ?? 0
            var values: [StoredValue] = []
            values.reserveCapacity(count)
            for position in 0..<count { values.append(value(at: position)) }
            return StoreRow(
                id: id, entityIndex: entityIndex, version: version, values: values,
                changedPositions: changedPositions)
        }
    }
}

/// The rows of one list of a ``ChangeSet`` (inserted, updated or deleted), in order.
struct PendingRows: RandomAccessCollection {
    let entries: [PendingEntry]
    let reader: (any PendingObjectReader.Type)?

    var startIndex: Int { entries.startIndex }
    var endIndex: Int { entries.endIndex }

    subscript(position: Int) -> PendingRow {
        PendingRow(entry: entries[position], reader: reader)
    }
}
