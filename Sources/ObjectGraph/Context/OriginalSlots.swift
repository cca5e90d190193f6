/// The committed values of an object's positions changed since they were committed: one
/// entry per position, recorded before its first change (every other position's committed
/// value is its current slot).
///
/// Most changed objects have one changed position (an update of one property, a deleted
/// object's nullified relationship): that entry is boxed alone (a 48-byte allocation, where a
/// one-element array takes 64). The whole value is one word in the object.
enum OriginalSlots {
    /// No position changed.
    case none
    /// One position changed.
    indirect case one(Slot, position: Int32)
    /// Several positions changed, in the order they first changed.
    case several([(slot: Slot, position: Int32)])

    /// Whether no position changed.
    var isEmpty: Bool {
        if case .none = self { return true }
        return false
    }

    /// The committed slot of `position`, if it changed.
    func slot(at position: Int) -> Slot? {
        switch self {
        case .none: return nil
        case .one(let slot, let at): return at == position ? slot : nil
        case .several(let entries):
            for entry in entries where entry.position == position { return entry.slot }
            return nil
        }
    }

    /// Records `slot` as the committed value of `position` (which has no entry yet).
    mutating func append(_ slot: Slot, at position: Int) {
        let entry = (slot: slot, position: Int32(position))
        switch self {
        case .none: self = .one(slot, position: entry.position)
        case .one(let first, let at): self = .several([(first, at), entry])
        case .several(var entries):
            self = .none  // `entries` is now the only reference: no copy
            entries.append(entry)
            self = .several(entries)
        }
    }

    /// Calls `body` with each entry until it returns false.
    func forEach(_ body: (Slot, Int) -> Bool) {
        switch self {
        case .none: return
        case .one(let slot, let at): _ = body(slot, Int(at))
        case .several(let entries):
            for entry in entries where !body(entry.slot, Int(entry.position)) { return }
        }
    }

    /// Replaces the entry of `position` by `transform` of it.
    mutating func update(at position: Int, _ transform: (Slot) -> Slot) {
        switch self {
        case .none: return
        case .one(let slot, let at):
            if at == position { self = .one(transform(slot), position: at) }
        case .several(var entries):
            guard let index = entries.firstIndex(where: { $0.position == position }) else {
                return
            }
            self = .none
            entries[index].slot = transform(entries[index].slot)
            self = .several(entries)
        }
    }
}
