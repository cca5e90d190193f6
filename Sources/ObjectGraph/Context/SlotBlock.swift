/// Storage for the slots of several objects, side by side: each object owns a run of
/// consecutive slots (one per property) at its offset in a block.
///
/// Fetching 100,000 objects made 100,000 slot arrays, one allocation each. A block holds the
/// slots of hundreds of objects in one allocation and one stretch of memory, filled in the
/// order the rows are read. A block lives as long as any object whose slots it holds.
///
/// A block only grows: slots are initialized in order by ``append(_:)`` and never taken
/// back. An object's run is written in place (an object changes only its own run).
@usableFromInline
final class SlotBlock {
    /// The first slot.
    @usableFromInline let start: UnsafeMutablePointer<Slot>
    /// How many slots fit.
    let capacity: Int
    /// How many slots are initialized, from the start.
    private(set) var count = 0

    /// A block with room for `capacity` slots (at least one).
    init(capacity: Int) {
        self.capacity = max(1, capacity)
        start = .allocate(capacity: self.capacity)
    }

    deinit {
        start.deinitialize(count: count)
        start.deallocate()
    }

    /// How many more slots fit.
    var room: Int { capacity - count }

    /// Initializes the next slot with `slot`. The caller made sure there is room.
    @inline(__always)
    func append(_ slot: consuming Slot) {
        precondition(count < capacity, "SlotBlock is full")
        (start + count).initialize(to: slot)
        count += 1
    }
}

/// Where one object's run of slots is: a block and the offset of the first slot in it.
struct SlotRange {
    let block: SlotBlock
    let offset: UInt16

    /// The first slot of the run.
    var start: UnsafeMutablePointer<Slot> { block.start + Int(offset) }
}
