/// Hands out runs of slots for a context's objects from ``SlotBlock``s, a block at a time.
///
/// Blocks start small (a context with a few objects allocates little) and double up to
/// ``largestBlock`` slots (96 KB), so a large fetch or import fills a few hundred blocks
/// instead of making an allocation per object. An object's offset in its block is kept in
/// 16 bits, which every block this arena makes allows (a run wider than the largest block
/// gets a block of its own, at offset 0).
struct SlotArena {
    /// The block runs are taken from, until it has no room for the next one.
    private var block: SlotBlock?
    /// The capacity of the next block made.
    private var nextCapacity = 64

    /// The capacity blocks grow to (in slots).
    static let largestBlock = 4096

    /// A new run of `width` slots, filled by `fill` in position order through a
    /// ``SlotRunWriter``: the only way to take a run, so runs cannot interleave (the arena is
    /// held for the whole fill, and `fill` cannot reach it) and every run is complete (positions
    /// `fill` left unwritten hold ``Value/null``; writes past `width` are dropped).
    mutating func fillRun(
        width: Int, _ fill: (inout SlotRunWriter) throws -> Void
    ) rethrows -> SlotRange {
        let run = startRun(width: width)
        var writer = SlotRunWriter(block: run.block, end: Int(run.offset) + width)
        defer { writer.finish() }
        try fill(&writer)
        return run
    }

    /// Starts a run of `width` slots: the block to append them to, and the run's place in it.
    private mutating func startRun(width: Int) -> SlotRange {
        if let block, block.room >= width, block.count <= Int(UInt16.max) {
            return SlotRange(block: block, offset: UInt16(truncatingIfNeeded: block.count))
        }
        let made = SlotBlock(capacity: max(width, nextCapacity))
        nextCapacity = min(nextCapacity * 2, Self.largestBlock)
        block = made
        return SlotRange(block: made, offset: 0)
    }
}

/// Fills one run of a ``SlotBlock`` handed out by ``SlotArena/fillRun(width:_:)``, slot by slot
/// in position order, never past the run's end. Stores write fetched rows through it (it is the
/// context's ``RowValueWriter``).
struct SlotRunWriter: RowValueWriter {
    let block: SlotBlock
    /// The block's count once the run is full.
    let end: Int

    /// Initializes the next slot of the run with `slot` (dropped when the run is full).
    @inline(__always)
    func append(slot: consuming Slot) {
        guard block.count < end else { return }
        block.append(slot)
    }

    func append(_ value: consuming Value) { append(slot: .value(value)) }

    func appendToOne(space: ObjectIDSpace, key: Int64) {
        append(slot: .toOneFault(space, key))
    }

    func appendToOne(_ target: ObjectID?) { append(slot: .fault(to: target)) }

    func appendUnreadToMany() { append(slot: .toManyFault(nil)) }

    /// Fills the positions left unwritten with null values, so the run is whole.
    fileprivate func finish() {
        while block.count < end { block.append(.value(.null)) }
    }
}
