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

    /// Starts a run of `width` slots: the block to ``SlotBlock/append(_:)`` them to, and the
    /// run's place in it.
    mutating func startRun(width: Int) -> SlotRange {
        if let block, block.room >= width, block.count <= Int(UInt16.max) {
            return SlotRange(block: block, offset: UInt16(truncatingIfNeeded: block.count))
        }
        let made = SlotBlock(capacity: max(width, nextCapacity))
        nextCapacity = min(nextCapacity * 2, Self.largestBlock)
        block = made
        return SlotRange(block: made, offset: 0)
    }
}
