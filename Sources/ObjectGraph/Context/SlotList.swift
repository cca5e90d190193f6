/// An object's slots, one per property position, read and written in place in its
/// ``SlotBlock``.
///
/// A view, not a copy: it is valid only while the object it came from is alive, so use it
/// within an expression (`object.slots[position]`) and never keep it. Copy the slots out
/// (`Array(object.slots)`) to keep them.
struct SlotList: RandomAccessCollection {
    let start: UnsafeMutablePointer<Slot>
    let count: Int

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> Slot {
        unsafeAddress { UnsafePointer(address(of: position)) }
        nonmutating unsafeMutableAddress { address(of: position) }
    }

    @inline(__always)
    private func address(of position: Int) -> UnsafeMutablePointer<Slot> {
        precondition(position >= 0 && position < count, "slot position out of range")
        return start + position
    }
}
