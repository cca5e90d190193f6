/// A context's identity map: at most one object per ``ObjectID``.
///
/// Two structures specialised for the job, both keyed by the objects' own IDs (the map never
/// stores IDs):
/// - **Key tables.** A store's primary keys are dense (`Z_PK` counts up from 1), so the objects
///   of one entity in one store with permanent keys sit in an array indexed by key, 8 bytes a
///   key. Objects fetched in key order are registered side by side: no hashing and no random
///   memory access per object (on a large fetch, a hash table's random buckets each cost a
///   cache miss). A table grows to cover a new key only while it stays at least half full
///   (plus a fixed allowance), so a few scattered large keys cannot make it huge.
/// - **A hash table** for every other ID (temporary keys, keys a table does not cover): open
///   addressing, a bucket holding the object and its ID's hash side by side, linear probing,
///   deletion shifting the following entries back (no tombstones), growth at 7/8 full. Hashes
///   come from the ID's key alone, mixed with a per-process seed (no SipHash per lookup).
///
/// An ID with a permanent key is in its entity's key table when the table covers the key, and
/// in the hash table otherwise; a table growing over keys held in the hash table takes them
/// over.
///
/// The map does not keep its objects alive (Core Data's default, `retainsRegisteredObjects ==
/// false`): it holds unretained references, and an object leaves it from its `deinit`
/// (``remove(_:ifItIs:)``), so every object it holds is alive. What keeps an object alive is the
/// app, the objects related to it, or its context's set of changed objects. Holding no reference
/// also means that no change of the map ever releases an object (and so never runs a `deinit`
/// that would come back into the map while it is being changed). With ``retainsObjects`` the
/// map also keeps a strong reference to each object registered, in a list whose entries for
/// objects no longer registered are let go by ``releaseUnregistered()``.
///
/// The invariant callers keep: an object is stored under its own `objectID`, and removed
/// before that ID changes.
struct ObjectRegistry {
    /// A registered object, not retained.
    private typealias Entry = Unmanaged<ManagedObject>

    /// One entry of the hash table: an object and its ID's hash (an empty bucket has no
    /// object).
    private struct Bucket {
        var entry: Entry?
        var hash: UInt64

        var object: ManagedObject? { entry?.takeUnretainedValue() }
    }

    /// The objects of one ID space (entity and store) with permanent keys, by key.
    private struct KeyTable {
        let space: ObjectIDSpace
        var objects: [Entry?] = []
        /// How many of `objects` are set.
        var count = 0
        /// How many objects of this space with permanent keys are in the hash table.
        var hashed = 0
    }

    private var buckets: [Bucket] = []
    /// How many objects the hash table holds.
    private var hashedCount = 0
    private var tables: [KeyTable] = []
    /// How many objects are registered.
    private(set) var count = 0
    /// Whether registering an object also retains it (see ``releaseUnregistered()``).
    var retainsObjects = false
    /// With ``retainsObjects``: a strong reference to each object registered since (an object
    /// registered again may be listed twice; one no longer registered stays until
    /// ``releaseUnregistered()``).
    private(set) var retained: [ManagedObject] = []

    /// Keys a table may cover beyond twice its objects.
    private static let tableAllowance = 1024
    /// How many entries a key table or the hash table keeps allocated when emptied (so that
    /// objects made and released over and over, a query's, do not regrow it each time).
    private static let keptEmptySize = 4096

    /// Whether no object is registered.
    var isEmpty: Bool { count == 0 }

    /// Every registered object, in no particular order.
    var values: [ManagedObject] {
        var result: [ManagedObject] = []
        result.reserveCapacity(count)
        for table in tables {
            for case let entry? in table.objects { result.append(entry.takeUnretainedValue()) }
        }
        for bucket in buckets {
            if let object = bucket.object { result.append(object) }
        }
        return result
    }

    /// The object registered for `id`, or `nil`. Setting stores `object` under `id` (its own
    /// ID), replacing any other; setting `nil` removes the entry.
    subscript(id: ObjectID) -> ManagedObject? {
        get {
            if case .permanent(let key) = id.key, let table = tableIndex(of: id.space),
                key >= 0, key < tables[table].objects.count
            {
                return tables[table].objects[Int(key)]?.takeUnretainedValue()
            }
            guard let index = find(id, hash: Self.hash(id)) else { return nil }
            return buckets[index].object
        }
        set {
            if let newValue {
                updateValue(newValue, forKey: id)
            } else {
                remove(id)
            }
        }
    }

    /// Stores `object` under `id` (its own ID) and returns the object it replaced, if any:
    /// registering and checking for an earlier object in one step.
    @discardableResult
    mutating func updateValue(_ object: ManagedObject, forKey id: ObjectID) -> ManagedObject? {
        assert(object.objectID == id, "objects are registered under their own ID")
        if retainsObjects { retained.append(object) }
        if case .permanent(let key) = id.key, key >= 0 {
            let table = tableIndex(of: id.space) ?? addTable(for: id.space)
            if key < tables[table].objects.count || grow(table, toCover: key) {
                let old = tables[table].objects[Int(key)]?.takeUnretainedValue()
                tables[table].objects[Int(key)] = .passUnretained(object)
                if old == nil {
                    tables[table].count += 1
                    count += 1
                }
                return old
            }
            let old = insert(object, hash: Self.hash(id))
            if old == nil { tables[table].hashed += 1 }
            return old
        }
        return insert(object, hash: Self.hash(id))
    }

    /// Makes the key table of `space` cover `keys` (about to be registered, all of them), when
    /// it stays half full: one allocation of the right size instead of growing by doubling.
    mutating func reserveKeys(_ keys: Range<Int64>, in space: ObjectIDSpace) {
        guard keys.lowerBound >= 0, !keys.isEmpty else { return }
        let table = tableIndex(of: space) ?? addTable(for: space)
        let objects = tables[table].count + keys.count
        guard keys.upperBound > tables[table].objects.count,
            keys.upperBound <= Int64(2 * objects + Self.tableAllowance)
        else { return }
        extend(table, to: Int(keys.upperBound))
    }

    /// Forgets every object. The objects it retained are handed back for the caller to let go
    /// of outside the map (their `deinit` may come back to it).
    mutating func removeAll() -> [ManagedObject] {
        buckets = []
        hashedCount = 0
        tables = []
        count = 0
        defer { retained = [] }
        return retained
    }

    /// Removes `id` when it is registered for the object at `address` (the object's own
    /// `deinit` calls this: the object cannot be retained any more, only compared); whether it
    /// was.
    @discardableResult
    mutating func remove(_ id: ObjectID, ifItIs address: UnsafeMutableRawPointer) -> Bool {
        if case .permanent(let key) = id.key, key >= 0, let table = tableIndex(of: id.space),
            key < tables[table].objects.count
        {
            guard tables[table].objects[Int(key)]?.toOpaque() == address else { return false }
            tables[table].objects[Int(key)] = nil
            tables[table].count -= 1
            count -= 1
            // The last of a large fetch's objects gone: so is its table's memory.
            if tables[table].count == 0, tables[table].objects.count > Self.keptEmptySize {
                tables[table].objects = []
            }
            return true
        }
        guard let index = find(address, hash: Self.hash(id)) else { return false }
        removeHashed(at: index)
        if case .permanent(let key) = id.key, key >= 0, let table = tableIndex(of: id.space) {
            tables[table].hashed -= 1
        }
        return true
    }

    /// The retained objects no longer registered (or listed twice), taken out of the list of
    /// retained objects, for the caller to let go of outside the map; `nil` while the list is
    /// not yet twice the registered objects (and a few more), so that calling this after every
    /// change that unregisters costs nothing most of the time.
    mutating func releaseUnregistered() -> [ManagedObject]? {
        guard retained.count > 2 * count + 256 else { return nil }
        var kept: [ManagedObject] = []
        kept.reserveCapacity(count)
        var released: [ManagedObject] = []
        var seen = Set<ObjectIdentifier>()
        for object in retained {
            if self[object.objectID] === object, seen.insert(ObjectIdentifier(object)).inserted {
                kept.append(object)
            } else {
                released.append(object)
            }
        }
        retained = kept
        return released
    }

    /// Starts or stops retaining the registered objects (see ``retainsObjects``); stopping hands
    /// back the objects retained so far for the caller to let go of outside the map.
    mutating func setRetainsObjects(_ retains: Bool) -> [ManagedObject] {
        guard retains != retainsObjects else { return [] }
        retainsObjects = retains
        if retains {
            retained = values
            return []
        }
        defer { retained = [] }
        return retained
    }

    // MARK: - Key tables

    /// The table of `space` (by identity first: spaces are shared, but equal IDs may carry
    /// different instances).
    private func tableIndex(of space: ObjectIDSpace) -> Int? {
        for index in tables.indices where tables[index].space === space { return index }
        return tables.firstIndex { $0.space.matches(space) }
    }

    private mutating func addTable(for space: ObjectIDSpace) -> Int {
        tables.append(KeyTable(space: space))
        return tables.count - 1
    }

    /// Grows the table at `index` to cover `key`, if it stays half full (plus the allowance):
    /// then moves the table's objects in the hash table that it now covers into it.
    private mutating func grow(_ index: Int, toCover key: Int64) -> Bool {
        let limit = Int64(2 * tables[index].count + Self.tableAllowance)
        guard key < limit else { return false }
        let old = tables[index].objects.count
        extend(index, to: Int(max(key + 1, min(limit, Int64(max(old * 2, 16))))))
        return true
    }

    /// Makes the table at `index` cover keys below `size` (more than it covers), with one
    /// allocation, and moves the objects in the hash table it now covers into it.
    private mutating func extend(_ index: Int, to size: Int) {
        let old = tables[index].objects.count
        tables[index].objects.reserveCapacity(size)
        tables[index].objects += repeatElement(nil, count: size - old)
        if tables[index].hashed > 0 { takeOver(index, from: old) }
    }

    /// Moves the hashed objects of the table at `index` whose keys are `first` or more (and
    /// covered now) into the table.
    private mutating func takeOver(_ index: Int, from first: Int) {
        let space = tables[index].space
        let covered = tables[index].objects.count
        var moving: [ManagedObject] = []
        for bucket in buckets {
            guard let object = bucket.object, case .permanent(let key) = object.objectID.key,
                key >= first, key < covered, object.objectID.space.matches(space)
            else { continue }
            moving.append(object)
        }
        for object in moving {
            removeHashed(object.objectID)
            guard case .permanent(let key) = object.objectID.key else { continue }
            tables[index].objects[Int(key)] = .passUnretained(object)
            tables[index].count += 1
            tables[index].hashed -= 1
            count += 1
        }
    }

    // MARK: - Hash table

    private static let seed = UInt64.random(in: 0...UInt64.max) | 1

    /// A 64-bit mix of the ID's key (IDs of different entities with the same key share a hash
    /// and are told apart by `==`).
    private static func hash(_ id: ObjectID) -> UInt64 {
        var value = id.insertionOrder ^ seed
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    private var mask: Int { buckets.count - 1 }

    /// Whether `entry`'s object has `id` (read without retaining the object: every entry's
    /// object is alive).
    private static func isRegistered(_ entry: Entry, as id: ObjectID) -> Bool {
        entry._withUnsafeGuaranteedRef { $0.objectID == id }
    }

    private func find(_ id: ObjectID, hash: UInt64) -> Int? {
        guard hashedCount > 0 else { return nil }
        var index = Int(truncatingIfNeeded: hash) & mask
        while let entry = buckets[index].entry {
            if buckets[index].hash == hash, Self.isRegistered(entry, as: id) {
                return index
            }
            index = (index + 1) & mask
        }
        return nil
    }

    /// The bucket holding the object at `address`, whose ID hashes to `hash` (compared by
    /// address: no other object's ID is read).
    private func find(_ address: UnsafeMutableRawPointer, hash: UInt64) -> Int? {
        guard hashedCount > 0 else { return nil }
        var index = Int(truncatingIfNeeded: hash) & mask
        while let entry = buckets[index].entry {
            if entry.toOpaque() == address { return index }
            index = (index + 1) & mask
        }
        return nil
    }

    private mutating func insert(_ object: ManagedObject, hash: UInt64) -> ManagedObject? {
        if (hashedCount + 1) * 8 > buckets.count * 7 {
            rehash(size: max(16, buckets.count * 2))
        }
        var index = Int(truncatingIfNeeded: hash) & mask
        while let entry = buckets[index].entry {
            if buckets[index].hash == hash, Self.isRegistered(entry, as: object.objectID) {
                buckets[index].entry = .passUnretained(object)
                return entry.takeUnretainedValue()
            }
            index = (index + 1) & mask
        }
        buckets[index] = Bucket(entry: .passUnretained(object), hash: hash)
        hashedCount += 1
        count += 1
        return nil
    }

    private mutating func remove(_ id: ObjectID) {
        if case .permanent(let key) = id.key, let table = tableIndex(of: id.space) {
            if key >= 0, key < tables[table].objects.count {
                if tables[table].objects[Int(key)] != nil {
                    tables[table].objects[Int(key)] = nil
                    tables[table].count -= 1
                    count -= 1
                }
                return
            }
            if removeHashed(id) { tables[table].hashed -= 1 }
            return
        }
        removeHashed(id)
    }

    /// Removes `id` from the hash table; whether it was there.
    @discardableResult
    private mutating func removeHashed(_ id: ObjectID) -> Bool {
        guard let index = find(id, hash: Self.hash(id)) else { return false }
        removeHashed(at: index)
        return true
    }

    /// Removes the entry at `index` of the hash table.
    private mutating func removeHashed(at index: Int) {
        var hole = index
        buckets[hole].entry = nil
        hashedCount -= 1
        count -= 1
        if hashedCount == 0 {
            // Emptied (all temporary IDs of a save became permanent): freed at once when large.
            if buckets.count > Self.keptEmptySize { buckets = [] }
            return
        }
        // Shift back each following entry whose home is not between the hole and itself.
        var index = hole
        while true {
            index = (index + 1) & mask
            guard buckets[index].entry != nil else { return }
            let home = Int(truncatingIfNeeded: buckets[index].hash) & mask
            let stays =
                hole <= index ? (hole < home && home <= index) : (hole < home || home <= index)
            if stays { continue }
            buckets[hole] = buckets[index]
            buckets[index].entry = nil
            hole = index
        }
    }

    private mutating func rehash(size: Int) {
        let old = buckets
        buckets = Array(repeating: Bucket(entry: nil, hash: 0), count: size)
        for bucket in old {
            guard let entry = bucket.entry else { continue }
            var slot = Int(truncatingIfNeeded: bucket.hash) & mask
            while buckets[slot].entry != nil { slot = (slot + 1) & mask }
            buckets[slot] = Bucket(entry: entry, hash: bucket.hash)
        }
    }
}
