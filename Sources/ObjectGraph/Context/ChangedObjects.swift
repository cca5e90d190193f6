/// The objects of a context changed since its last save, in the order they were first changed.
///
/// An array, not a dictionary: each object knows its place (`ManagedObject.touchIndex`), so
/// adding, finding and removing cost no hashing, and the set takes 8 bytes per object. A
/// removed object leaves a hole; holes are squeezed out once they are half the array.
struct ChangedObjects {
    private var list: [ManagedObject?] = []
    /// How many objects are in the set.
    private(set) var count = 0

    /// The objects, in the order they were first changed.
    var values: some Sequence<ManagedObject> { list.lazy.compactMap { $0 } }

    /// Whether the set is empty.
    var isEmpty: Bool { count == 0 }

    /// Adds `object` (nothing happens when it is in the set already).
    mutating func insert(_ object: ManagedObject) {
        guard object.touchIndex < 0 else { return }
        object.touchIndex = Int32(list.count)
        list.append(object)
        count += 1
    }

    /// Removes `object` (nothing happens when it is not in the set).
    mutating func remove(_ object: ManagedObject) {
        let index = Int(object.touchIndex)
        guard index >= 0, index < list.count, list[index] === object else { return }
        list[index] = nil
        object.touchIndex = -1
        count -= 1
        if count == 0 {
            list.removeAll(keepingCapacity: true)
        } else if list.count > 64, count * 2 < list.count {
            squeeze()
        }
    }

    /// Removes every object.
    mutating func removeAll() {
        for object in list { object?.touchIndex = -1 }
        list.removeAll()
        count = 0
    }

    private mutating func squeeze() {
        var kept: [ManagedObject?] = []
        kept.reserveCapacity(count)
        for case let object? in list {
            object.touchIndex = Int32(kept.count)
            kept.append(object)
        }
        list = kept
    }
}
