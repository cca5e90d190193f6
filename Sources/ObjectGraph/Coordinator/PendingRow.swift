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
/// it one). Stores never see the objects' type: they read rows through ``PendingRow``.
protocol PendingObjectReader {
    /// The object's ID (permanent by the time a store sees it).
    func objectID(of object: AnyObject) -> ObjectID
    /// The index of the object's concrete entity in the schema.
    func entityIndex(of object: AnyObject) -> Int
    /// The version the object was read at (0 for a new object).
    func version(of object: AnyObject) -> Int64
    /// For updates: a bit per position that changed since the object was read; `nil` for a new
    /// object (everything is new) or when a changed position is past 63 (every column is
    /// written then). A mask, not a list: no allocation per saved object.
    func changedMask(of object: AnyObject) -> UInt64?
    /// How many property positions the object has.
    func positionCount(of object: AnyObject) -> Int
    /// What the store keeps at `position` (transient properties hold nil, relationships the IDs
    /// of their objects).
    func storedValue(of object: AnyObject, at position: Int) -> StoredValue
    /// The attribute value at `position` without wrapping it (`.null` for relationships).
    func attributeValue(of object: AnyObject, at position: Int) -> Value
    /// The target of the to-one relationship at `position` (`nil` when empty).
    func toOneID(of object: AnyObject, at position: Int) -> ObjectID?
}

/// An inserted, updated or deleted row of a ``ChangeSet``, as a store reads it: its entry and
/// the change set's reader of objects.
struct PendingRow {
    let entry: PendingEntry
    let reader: (any PendingObjectReader)?

    /// The object and its reader, for a row of a context's object.
    @inline(__always)
    private var object: (AnyObject, any PendingObjectReader)? {
        if case .object(let object) = entry, let reader { return (object, reader) }
        return nil
    }

    /// The given row, for a row given whole.
    private var given: StoreRow? {
        if case .row(let row) = entry { return row }
        return nil
    }

    /// The object's ID (permanent by the time a store sees it).
    var id: ObjectID {
        if let (object, reader) = object { return reader.objectID(of: object) }
        return given?.id ?? ObjectID(entityName: "", storeIdentifier: "", key: .permanent(0))
    }

    /// The concrete entity's index in the schema.
    var entityIndex: Int {
        if let (object, reader) = object { return reader.entityIndex(of: object) }
        return given?.entityIndex ?? 0
    }

    /// The version the row was read at (0 for a new object).
    var version: Int64 {
        if let (object, reader) = object { return reader.version(of: object) }
        return given?.version ?? 0
    }

    /// For updates: the positions that changed (`nil`: unknown, write everything).
    var changedPositions: [Int]? {
        if let (object, reader) = object {
            return reader.changedMask(of: object).map(Self.positions(in:))
        }
        return given?.changedPositions
    }

    /// For updates: a bit per changed position (`nil`: unknown or past 63, write everything).
    var changedMask: UInt64? {
        if let (object, reader) = object { return reader.changedMask(of: object) }
        guard let positions = given?.changedPositions else { return nil }
        return Self.mask(of: positions)
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
        if let (object, reader) = object { return reader.storedValue(of: object, at: position) }
        guard let row = given, position < row.values.count else { return .value(.null) }
        return row.values[position]
    }

    /// The attribute value at `position` without wrapping it (`.null` for relationships).
    func attribute(at position: Int) -> Value {
        if let (object, reader) = object {
            return reader.attributeValue(of: object, at: position)
        }
        guard let row = given, position < row.values.count,
            case .value(let value) = row.values[position]
        else { return .null }
        return value
    }

    /// The target of the to-one relationship at `position` (`nil` when empty).
    func toOneID(at position: Int) -> ObjectID? {
        if let (object, reader) = object { return reader.toOneID(of: object, at: position) }
        guard let row = given, position < row.values.count,
            case .toOne(let id) = row.values[position]
        else { return nil }
        return id
    }

    /// The whole row, copied (for stores that keep rows).
    var row: StoreRow {
        guard let (object, reader) = object else {
            return given ?? StoreRow(id: id, entityIndex: 0, version: 0, values: [])
        }
        let count = reader.positionCount(of: object)
        var values: [StoredValue] = []
        values.reserveCapacity(count)
        for position in 0..<count { values.append(reader.storedValue(of: object, at: position)) }
        return StoreRow(
            id: reader.objectID(of: object), entityIndex: reader.entityIndex(of: object),
            version: reader.version(of: object), values: values,
            changedPositions: reader.changedMask(of: object).map(Self.positions(in:)))
    }
}

/// The rows of one list of a ``ChangeSet`` (inserted, updated or deleted), in order.
struct PendingRows: RandomAccessCollection {
    let entries: [PendingEntry]
    let reader: (any PendingObjectReader)?

    var startIndex: Int { entries.startIndex }
    var endIndex: Int { entries.endIndex }

    subscript(position: Int) -> PendingRow {
        PendingRow(entry: entries[position], reader: reader)
    }
}
