/// An inserted, updated or deleted row of a ``ChangeSet``: a context's object, read in place at save
/// (no copy of its values is made, so saving 100,000 objects builds no 100,000 rows), or a
/// row built elsewhere (imports, store migrations).
///
/// Change sets live for the duration of one `save` call on the saving thread; a store reads
/// what it needs and keeps copies (``row``), never the objects.
enum PendingRow {
    /// A context's object. What changed is read from the object when a store asks
    /// (``changedMask``): a pending row is one reference, 8 bytes in a store's list.
    case object(ManagedObject)
    /// A row given whole.
    indirect case row(StoreRow)

    /// The context's object, for a row of one.
    var object: ManagedObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The object's ID (permanent by the time a store sees it).
    var id: ObjectID {
        switch self {
        case .object(let object): return object.objectID
        case .row(let row): return row.id
        }
    }

    /// The concrete entity's index in the schema.
    var entityIndex: Int {
        switch self {
        case .object(let object): return object.schema.index
        case .row(let row): return row.entityIndex
        }
    }

    /// The version the row was read at (0 for a new object).
    var version: Int64 {
        switch self {
        case .object(let object): return object.version
        case .row(let row): return row.version
        }
    }

    /// For updates: the positions that changed (`nil`: unknown, write everything).
    var changedPositions: [Int]? {
        switch self {
        case .object(let object): return Self.changedMask(of: object).map(Self.positions(in:))
        case .row(let row): return row.changedPositions
        }
    }

    /// For updates: a bit per changed position (`nil`: unknown or past 63, write everything).
    var changedMask: UInt64? {
        switch self {
        case .object(let object): return Self.changedMask(of: object)
        case .row(let row):
            guard let positions = row.changedPositions else { return nil }
            return Self.mask(of: positions)
        }
    }

    /// A bit per position of `object` that changed since it was read: `nil` for a new object
    /// (everything is new) or when a changed position is past 63 (every column is written
    /// then). A mask, not a list: no allocation per saved object.
    static func changedMask(of object: ManagedObject) -> UInt64? {
        object.insertedFlag ? nil : object.changedPositionMask()
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
        switch self {
        case .object(let object):
            if object.schema.isTransient[position] { return .value(.null) }
            return object.slots[position].storedValue
        case .row(let row):
            return position < row.values.count ? row.values[position] : .value(.null)
        }
    }

    /// The attribute value at `position` without wrapping it (`.null` for relationships).
    func attribute(at position: Int) -> Value {
        switch self {
        case .object(let object):
            if case .value(let value) = object.slots[position] { return value }
            return .null
        case .row(let row):
            guard position < row.values.count, case .value(let value) = row.values[position]
            else { return .null }
            return value
        }
    }

    /// The target of the to-one relationship at `position` (`nil` when empty).
    func toOneID(at position: Int) -> ObjectID? {
        switch self {
        case .object(let object):
            return object.slots[position].toOneTarget
        case .row(let row):
            guard position < row.values.count, case .toOne(let id) = row.values[position]
            else { return nil }
            return id
        }
    }

    /// The whole row, copied (for stores that keep rows).
    var row: StoreRow {
        switch self {
        case .row(let row): return row
        case .object(let object):
            let changed = Self.changedMask(of: object)
            let count = object.slots.count
            var values: [StoredValue] = []
            values.reserveCapacity(count)
            for position in 0..<count { values.append(value(at: position)) }
            return StoreRow(
                id: object.objectID, entityIndex: object.schema.index, version: object.version,
                values: values, changedPositions: changed.map(Self.positions(in:)))
        }
    }
}
