/// A context's identity map: at most one object per ``ObjectID``.
///
/// An open-addressing table specialised for the job. A bucket holds the object (whose
/// `objectID` is its key — the map never stores IDs) and the key's hash side by side (one
/// cache line per probe); probing is linear,
/// deletion shifts the following entries back (no tombstones), and the table grows at 7/8
/// full. Hashes come from the ID's key alone, mixed with a per-process seed (no SipHash per
/// lookup). 16 bytes a bucket, against about 64 for a `[ObjectID: ManagedObject]` entry.
///
/// The invariant callers keep: an object is stored under its own `objectID`, and removed
/// before that ID changes.
struct ObjectRegistry {
    /// One entry: an object and its ID's hash (an empty bucket has no object).
    private struct Bucket {
        var object: ManagedObject?
        var hash: UInt64
    }

    private var buckets: [Bucket] = []
    /// How many objects are registered.
    private(set) var count = 0

    /// Whether no object is registered.
    var isEmpty: Bool { count == 0 }

    /// Every registered object, in no particular order.
    var values: [ManagedObject] { buckets.compactMap(\.object) }

    /// The object registered for `id`, or `nil`. Setting stores `object` under `id` (its own
    /// ID), replacing any other; setting `nil` removes the entry.
    subscript(id: ObjectID) -> ManagedObject? {
        get {
            guard let index = find(id, hash: Self.hash(id)) else { return nil }
            return buckets[index].object
        }
        set {
            if let newValue {
                assert(newValue.objectID == id, "objects are registered under their own ID")
                insert(newValue, hash: Self.hash(id))
            } else {
                remove(id)
            }
        }
    }

    /// Stores `object` under `id` (its own ID) and returns the object it replaced, if any:
    /// registering and checking for an earlier object in one probe.
    @discardableResult
    mutating func updateValue(_ object: ManagedObject, forKey id: ObjectID) -> ManagedObject? {
        assert(object.objectID == id, "objects are registered under their own ID")
        return insert(object, hash: Self.hash(id))
    }

    /// Makes room for `capacity` objects without growing again.
    mutating func reserveCapacity(_ capacity: Int) {
        var size = max(buckets.count, 16)
        while capacity > size / 8 * 7 { size *= 2 }
        if size > buckets.count { rehash(size: size) }
    }

    /// Forgets every object.
    mutating func removeAll() {
        buckets = []
        count = 0
    }

    // MARK: - Table

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

    private func find(_ id: ObjectID, hash: UInt64) -> Int? {
        guard count > 0 else { return nil }
        var index = Int(truncatingIfNeeded: hash) & mask
        while let object = buckets[index].object {
            if buckets[index].hash == hash, object.objectID == id { return index }
            index = (index + 1) & mask
        }
        return nil
    }

    @discardableResult
    private mutating func insert(_ object: ManagedObject, hash: UInt64) -> ManagedObject? {
        if (count + 1) * 8 > buckets.count * 7 {
            rehash(size: max(16, buckets.count * 2))
        }
        var index = Int(truncatingIfNeeded: hash) & mask
        while let existing = buckets[index].object {
            if buckets[index].hash == hash, existing.objectID == object.objectID {
                buckets[index].object = object
                return existing
            }
            index = (index + 1) & mask
        }
        buckets[index] = Bucket(object: object, hash: hash)
        count += 1
        return nil
    }

    private mutating func remove(_ id: ObjectID) {
        guard var hole = find(id, hash: Self.hash(id)) else { return }
        buckets[hole].object = nil
        count -= 1
        // Shift back each following entry whose home is not between the hole and itself.
        var index = hole
        while true {
            index = (index + 1) & mask
            guard buckets[index].object != nil else { return }
            let home = Int(truncatingIfNeeded: buckets[index].hash) & mask
            let stays =
                hole <= index ? (hole < home && home <= index) : (hole < home || home <= index)
            if stays { continue }
            buckets[hole] = buckets[index]
            buckets[index].object = nil
            hole = index
        }
    }

    private mutating func rehash(size: Int) {
        let old = buckets
        buckets = Array(repeating: Bucket(object: nil, hash: 0), count: size)
        count = 0
        for bucket in old {
            guard let object = bucket.object else { continue }
            var slot = Int(truncatingIfNeeded: bucket.hash) & mask
            while buckets[slot].object != nil { slot = (slot + 1) & mask }
            buckets[slot] = Bucket(object: object, hash: bucket.hash)
            count += 1
        }
    }
}
