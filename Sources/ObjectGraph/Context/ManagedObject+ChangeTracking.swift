/// Change tracking: what changed since the last save, the committed values kept for it, and
/// what a store reads of the object when it is saved.
extension ManagedObject {
    // MARK: - Changes

    /// The properties changed since the last save, with their new values: an attribute's
    /// value, a to-one relationship's object ID (``Value/objectID(_:)``). A `Value` cannot hold a
    /// list, so changed to-many relationships are listed with ``Value/null`` (``changedKeys``
    /// names them too). Transient attributes are listed too, as Core Data lists them
    /// (``hasPersistentChangedValues`` leaves them out).
    public func changedValues() -> [String: Value] {
        var result: [String: Value] = [:]
        for position in changedPositions() {
            let name = schema.names[position]
            switch slots[position] {
            case .value(let value): result[name] = value
            case .toOne, .toOneFault, .toOneFaultID:
                result[name] = slots[position].toOneTarget.map(Value.objectID) ?? .null
            case .toMany, .toManyFault: result[name] = .null
            }
        }
        return result
    }

    /// The names of the properties changed since the last save (transient ones included).
    public var changedKeys: Set<String> {
        Set(changedPositions().map { schema.names[$0] })
    }

    /// Whether a persistent property (one a save writes, not a transient attribute) changed
    /// since the last save, as Core Data's `hasPersistentChangedValues`. A change of a
    /// transient attribute alone makes the object updated (``isUpdated``, ``hasChanges``) but
    /// leaves this `false`, and a save writes nothing for it.
    ///
    /// ```swift
    /// try person.set("draft", for: "scratch")   // a transient attribute
    /// person.isUpdated                          // true
    /// person.hasPersistentChangedValues         // false
    /// ```
    public var hasPersistentChangedValues: Bool {
        var found = false
        visitChangedPositions(includingTransient: false) { _ in
            found = true
            return false
        }
        return found
    }

    /// The last saved values of the attributes `keys` (all attributes when `nil`); empty for an
    /// object never saved.
    public func committedValues(for keys: [String]? = nil) -> [String: Value] {
        guard hasCommitted else { return [:] }
        var result: [String: Value] = [:]
        for position in schema.attributePositions {
            let name = schema.names[position]
            if let keys, !keys.contains(name) { continue }
            if case .value(let value)? = committedSlot(at: position) { result[name] = value }
        }
        return result
    }

    // MARK: - Committed values

    /// The committed value at `position` (`nil` when the object has none).
    func committedSlot(at position: Int) -> Slot? {
        guard hasCommitted else { return nil }
        return originals.slot(at: position) ?? slots[position]
    }

    /// Keeps the committed value of `position` before its first change.
    func rememberOriginal(at position: Int) {
        guard hasCommitted, originals.slot(at: position) == nil else { return }
        originals.append(slots[position], at: position)
    }

    /// Makes the current values the committed ones (after a save or a load).
    func commitValues() {
        hasCommitted = true
        if !originals.isEmpty { originals = .none }
    }

    /// Puts the committed values back (discarding unsaved changes).
    func revertToCommitted() {
        originals.forEach { slot, position in
            slots[position] = slot
            observedChange(at: position)
            return true
        }
        if !originals.isEmpty { originals = .none }
    }

    /// Forgets the committed values (the object is new again, or a fault).
    func forgetCommittedValues() {
        hasCommitted = false
        if !originals.isEmpty { originals = .none }
    }

    /// A committed to-many value that was an unloaded fault becomes the IDs just loaded (so
    /// loading a relationship does not count as changing it).
    func fillCommittedFault(at position: Int, with ids: [ObjectID]) {
        originals.update(at: position) { slot in
            if case .toManyFault(nil) = slot { return .toManyFault(ids) }
            return slot
        }
    }

    /// Calls `body` with each position whose value differs from the committed one (every
    /// non-empty one for an object never saved), transient attributes only when
    /// `includingTransient`, in no particular order, until `body` returns false. The one walk
    /// behind ``hasChangedValues``, ``hasPersistentChangedValues``, ``changedPositionMask()``
    /// and ``changedPositions()``.
    fileprivate func visitChangedPositions(includingTransient: Bool, _ body: (Int) -> Bool) {
        guard state == .loaded else { return }
        let transient = schema.isTransient
        if hasCommitted {
            originals.forEach { original, position in
                if (transient[position] && !includingTransient)
                    || Self.same(slots[position], original, ordered: isOrdered(position))
                {
                    return true
                }
                return body(position)
            }
        } else {
            for position in slots.indices where includingTransient || !transient[position] {
                if Self.same(slots[position], nil, ordered: false) { continue }
                if !body(position) { return }
            }
        }
    }

    /// Whether ``changedPositions()`` is not empty (found without building the list):
    /// whether the object is updated, transient attributes included.
    var hasChangedValues: Bool {
        var found = false
        visitChangedPositions(includingTransient: true) { _ in
            found = true
            return false
        }
        return found
    }

    /// The changed persistent positions (what a save writes) as a bit per position, without
    /// building a list: `0` when nothing persistent changed, `nil` when a changed position is
    /// past 63.
    func changedPositionMask() -> UInt64? {
        var mask: UInt64 = 0
        var wide = false
        visitChangedPositions(includingTransient: false) { position in
            guard position < 64 else {
                wide = true
                return false
            }
            mask |= 1 << UInt64(position)
            return true
        }
        return wide ? nil : mask
    }

    /// The positions whose value differs from the committed one (all non-empty ones for an
    /// object never saved), transient attributes included, in ascending order.
    func changedPositions() -> [Int] {
        var result: [Int] = []
        visitChangedPositions(includingTransient: true) { position in
            result.append(position)
            return true
        }
        return result.count > 1 ? result.sorted() : result
    }

    fileprivate func isOrdered(_ position: Int) -> Bool { schema.isOrdered[position] }

    static func same(_ lhs: Slot, _ rhs: Slot?, ordered: Bool) -> Bool {
        guard let rhs else {
            switch lhs {
            case .value(let value): return value == .null
            case .toOne(let object): return object == nil
            case .toOneFault, .toOneFaultID: return false
            case .toMany(let objects): return objects.isEmpty
            case .toManyFault(let ids): return ids?.isEmpty ?? true
            }
        }
        switch (lhs, rhs) {
        case (.value(let a), .value(let b)): return a == b
        case (.toOne, .toOne), (.toOne, .toOneFault), (.toOneFault, .toOne),
            (.toOneFault, .toOneFault), (.toOneFaultID, _), (_, .toOneFaultID):
            return lhs.toOneTarget == rhs.toOneTarget
        case (.toManyFault(nil), .toManyFault(nil)):
            return true
        default:
            // Lists of different lengths differ: no ID array is built for them (a growing
            // to-many is compared at every save).
            guard toManyCount(lhs) == toManyCount(rhs) else { return false }
            let a = toManyIDs(lhs)
            let b = toManyIDs(rhs)
            return ordered ? a == b : Set(a) == Set(b)
        }
    }

    /// How many objects a to-many slot lists (0 for an unread fault or another kind of slot,
    /// as ``toManyIDs(_:)`` reads them).
    fileprivate static func toManyCount(_ slot: Slot) -> Int {
        switch slot {
        case .toMany(let objects): return objects.count
        case .toManyFault(let ids): return ids?.count ?? 0
        default: return 0
        }
    }

    fileprivate static func toManyIDs(_ slot: Slot) -> [ObjectID] {
        switch slot {
        case .toMany(let objects): return objects.map(\.objectID)
        case .toManyFault(let ids): return ids ?? []
        default: return []
        }
    }
}

/// Reads a context's objects in the change set it saves (see ``PendingRow``): in place, no
/// copy. Every object of a context's change set is a ``ManagedObject`` (the context puts only
/// its own objects there), so each is taken as one without a dynamic cast.
enum ManagedObjectReader: PendingObjectReader {
    @inline(__always)
    private static func managed(_ object: AnyObject) -> ManagedObject {
        unsafeDowncast(object, to: ManagedObject.self)
    }

    static func objectID(of object: AnyObject) -> ObjectID { managed(object).objectID }

    static func entityIndex(of object: AnyObject) -> Int { managed(object).schema.index }

    static func version(of object: AnyObject) -> Int64 { managed(object).version }

    static func changedMask(of object: AnyObject) -> UInt64? {
        let object = managed(object)
        return object.insertedFlag ? nil : object.changedPositionMask()
    }

    static func positionCount(of object: AnyObject) -> Int { managed(object).schema.slotCount }

    static func storedValue(of object: AnyObject, at position: Int) -> StoredValue {
        let object = managed(object)
        if object.schema.isTransient[position] { return .value(.null) }
        return object.slots[position].storedValue
    }

    static func attributeValue(of object: AnyObject, at position: Int) -> Value {
        if case .value(let value) = managed(object).slots[position] { return value }
        return .null
    }

    static func toOneID(of object: AnyObject, at position: Int) -> ObjectID? {
        managed(object).slots[position].toOneTarget
    }
}
