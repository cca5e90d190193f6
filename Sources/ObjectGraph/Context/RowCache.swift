/// A context's cache of the committed values of objects it let go: when a fetch reads the row
/// of such an object again, at the same row version, the new object takes these values instead
/// of decoding the row (Core Data's coordinator keeps a row cache for the same reason).
///
/// The context does not keep its unchanged objects alive (``ManagedContext/retainsRegisteredObjects``
/// is false by default), so a query repeated on objects the caller dropped made every object
/// again: decoding each value (strings copied out of SQLite) cost as much as the query itself.
/// An object without unsaved changes that goes away leaves its slots here, moved (no copy), and
/// a row read later takes them back, moved again, when its ID, row version and width match.
///
/// What the cache holds is what a fetch would decode: relationships are unresolved (to-one as
/// the target's ID, to-many not read), transient properties empty; it holds no object, so it
/// keeps nothing registered or alive. It never serves stale values: a row's version changes
/// with every write of its values (optimistic locking), rows without a version (0) are not
/// cached, and the context empties the cache on save, merge and reset.
///
/// Direct-mapped: an entry per hash of the key, a newer object replacing an older one; at
/// most ``capacity`` objects, a few hundred kilobytes at most.
final class RowCache {
    /// What one entry holds besides its slots.
    private struct Entry {
        /// The ID space of the cached object (`nil`: the entry is empty).
        var space: ObjectIDSpace?
        var key: Int64 = 0
        var version: Int64 = 0
        var width = 0
    }

    @exclusivity(unchecked) private var entries: [Entry] = []
    /// `capacity * stride` slots, `stride` per entry (empty slots hold ``Value/null``).
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<Slot>?
    /// The slots an entry has room for: the widest entity's.
    private let stride: Int
    /// How many entries there are (a power of two).
    let capacity: Int

    /// How many slots the cache holds at most, over all entries (24 bytes each).
    private static let slotBudget = 8192

    /// A cache for entities of at most `widest` properties.
    init(widest: Int) {
        stride = max(1, widest)
        var capacity = 64
        while capacity < 1024, capacity * 2 * stride <= Self.slotBudget { capacity *= 2 }
        self.capacity = capacity
    }

    deinit {
        guard let storage else { return }
        storage.deinitialize(count: capacity * stride)
        storage.deallocate()
    }

    /// The entry of `key` (objects of different entities with the same key share it).
    private func index(_ key: Int64) -> Int {
        var value = UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15
        value ^= value >> 29
        return Int(truncatingIfNeeded: value) & (capacity - 1)
    }

    /// Keeps the slots of `run` (`width` of them), the committed values of the object with `id`
    /// read at `version`, moving them out of the run and leaving empty values behind. The slots
    /// must hold no object (see ``ManagedObject/unresolveForCache()``).
    func keep(id: ObjectID, version: Int64, run: UnsafeMutablePointer<Slot>, width: Int) {
        guard version > 0, width <= stride, case .permanent(let key) = id.key else { return }
        let storage = storage ?? makeStorage()
        let index = index(key)
        let slots = storage + index * stride
        for position in 0..<width {
            slots[position] = (run + position).move()
            (run + position).initialize(to: .value(.null))
        }
        entries[index] = Entry(space: id.space, key: key, version: version, width: width)
    }

    /// The entry holding the values of the object with `id` at `version` (`width` slots), if
    /// any: take them with ``moveOut(_:into:)``.
    func entry(for id: ObjectID, version: Int64, width: Int) -> Int? {
        guard storage != nil, case .permanent(let key) = id.key else { return nil }
        let index = index(key)
        let entry = entries[index]
        guard let space = entry.space, entry.key == key, entry.version == version,
            entry.width == width, space === id.space || space.matches(id.space)
        else { return nil }
        return index
    }

    /// Moves the slots of the entry at `index` (found by ``entry(for:version:width:)``) into
    /// `writer`, emptying the entry.
    func moveOut(_ index: Int, into writer: inout SlotRunWriter) {
        guard let storage else { return }
        let slots = storage + index * stride
        for position in 0..<entries[index].width {
            writer.append(slot: (slots + position).move())
            (slots + position).initialize(to: .value(.null))
        }
        entries[index] = Entry()
    }

    /// Empties every entry.
    func removeAll() {
        guard let storage else { return }
        for index in entries.indices where entries[index].space != nil {
            let slots = storage + index * stride
            for position in 0..<entries[index].width { slots[position] = .value(.null) }
            entries[index] = Entry()
        }
    }

    private func makeStorage() -> UnsafeMutablePointer<Slot> {
        let made = UnsafeMutablePointer<Slot>.allocate(capacity: capacity * stride)
        made.initialize(repeating: .value(.null), count: capacity * stride)
        entries = Array(repeating: Entry(), count: capacity)
        storage = made
        return made
    }
}
