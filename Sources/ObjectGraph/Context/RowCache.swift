/// A context's cache of the committed values of objects it let go: when a fetch reads the row
/// of such an object again, at the same row version, the new object takes these values instead
/// of decoding the row (Core Data's coordinator keeps a row cache for the same reason).
///
/// The context does not keep its unchanged objects alive (``ManagedContext/retainsRegisteredObjects``
/// is false by default), so a query repeated on objects the caller dropped made every object
/// again: decoding each value (strings copied out of SQLite) cost as much as the query itself.
/// An object without unsaved changes that goes away leaves its run of slots here as it is, and
/// a row read later takes the run over for its new object when its ID, row version and width
/// match: no value is decoded, copied or moved.
///
/// What the cache holds is what a fetch would decode: relationships are unresolved (to-one as
/// the target's ID, to-many not read), transient properties empty; it holds no object, so it
/// keeps nothing registered or alive. It never serves stale values: a row's version changes
/// with every write of its values (optimistic locking), rows without a version (0) are not
/// cached, and the context empties the cache on save, merge and reset.
///
/// Two places per key (the entry of its hash, or the one next to it; a newer run replacing an
/// older one when both are taken), at most ``capacity`` runs, in at most ``maxBlocks``
/// ``SlotBlock``s (a run from one more block empties the cache first): the cache keeps at most
/// that many blocks alive that would otherwise be freed.
final class RowCache {
    /// One cached run and what it holds.
    private struct Entry {
        /// The run (`nil`: the entry is empty).
        var run: SlotRange?
        var space: ObjectIDSpace?
        var key: Int64 = 0
        var version: Int64 = 0
        var width = 0
    }

    @exclusivity(unchecked) private var entries: [Entry] = []
    /// How many entries hold a run.
    @exclusivity(unchecked) private(set) var count = 0
    /// How many runs fetches took from the cache (rows not decoded).
    @exclusivity(unchecked) private(set) var hits = 0
    /// The blocks of the cached runs, with how many runs each holds (at most ``maxBlocks``).
    @exclusivity(unchecked) private var blocks: [(block: ObjectIdentifier, runs: Int)] = []

    /// How many entries there are (a power of two).
    static let capacity = 1024
    /// How many blocks the cached runs may be in: a run from one more empties the cache first.
    static let maxBlocks = 2

    init() {}

    /// The entry of `key` (objects of different entities with the same key share it).
    private func index(_ key: Int64) -> Int {
        var value = UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15
        value ^= value >> 29
        return Int(truncatingIfNeeded: value) & (Self.capacity - 1)
    }

    /// Whether ``keep(id:version:run:width:)`` would keep a run of the object with `id` read at
    /// `version`.
    func accepts(id: ObjectID, version: Int64) -> Bool {
        guard version > 0, case .permanent = id.key else { return false }
        return true
    }

    /// Keeps `run` (`width` slots), holding the committed values of the object with `id` read
    /// at `version`, for ``take(id:version:width:)``; the caller no longer uses it. The slots
    /// must hold no object (see ``ManagedObject/unresolveForCache()``), and `id` must be
    /// accepted (``accepts(id:version:)``).
    func keep(id: ObjectID, version: Int64, run: SlotRange, width: Int) {
        guard case .permanent(let key) = id.key else { return }
        let block = ObjectIdentifier(run.block)
        if let known = blocks.firstIndex(where: { $0.block == block }) {
            blocks[known].runs += 1
        } else {
            if blocks.count == Self.maxBlocks { removeAll() }
            blocks.append((block, 1))
        }
        if entries.isEmpty { entries = Array(repeating: Entry(), count: Self.capacity) }
        // Two places per key: its entry, else the one next to it when that is free.
        var index = index(key)
        if entries[index].run != nil, entries[index ^ 1].run == nil { index ^= 1 }
        if let evicted = entries[index].run {
            empty(index)
            forget(evicted)
        } else {
            count += 1
        }
        entries[index] = Entry(run: run, space: id.space, key: key, version: version, width: width)
    }

    /// The cached run of the object with `id` at `version` (`width` slots), taken out of the
    /// cache; `nil` when the cache holds none.
    func take(id: ObjectID, version: Int64, width: Int) -> SlotRange? {
        guard count > 0, case .permanent(let key) = id.key else { return nil }
        var index = index(key)
        if !holds(index, id.space, key, version: version, width: width) {
            index ^= 1
            guard holds(index, id.space, key, version: version, width: width) else { return nil }
        }
        // Swapped out: the entry is not copied (no retain, no release).
        var taken = Entry()
        swap(&taken, &entries[index])
        count -= 1
        hits += 1
        guard let run = taken.run else { return nil }
        forget(run)
        return run
    }

    /// Whether the entry at `index` holds the run of `space` and `key` at `version`, `width`
    /// slots wide (compared in place: the entry is not copied).
    private func holds(
        _ index: Int, _ space: ObjectIDSpace, _ key: Int64, version: Int64, width: Int
    ) -> Bool {
        entries[index].run != nil && entries[index].key == key
            && entries[index].version == version && entries[index].width == width
            && (entries[index].space === space || entries[index].space?.matches(space) == true)
    }

    /// Empties every entry.
    func removeAll() {
        guard count > 0 else { return }
        for index in entries.indices where entries[index].run != nil { empty(index) }
        count = 0
        blocks.removeAll(keepingCapacity: true)
    }

    /// Counts `run` out of its block's runs.
    private func forget(_ run: SlotRange) {
        let block = ObjectIdentifier(run.block)
        guard let known = blocks.firstIndex(where: { $0.block == block }) else { return }
        blocks[known].runs -= 1
        if blocks[known].runs == 0 { blocks.remove(at: known) }
    }

    /// Lets go of the run of the entry at `index`: its slots emptied (the block may live on).
    private func empty(_ index: Int) {
        guard let run = entries[index].run else { return }
        let slots = run.start
        for position in 0..<entries[index].width { slots[position] = .value(.null) }
        entries[index] = Entry()
    }
}
