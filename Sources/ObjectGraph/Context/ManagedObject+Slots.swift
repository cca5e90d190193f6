/// A managed object's storage: its run of slots in a block of its context's arena.
extension ManagedObject {
    /// A new run of `schema`'s slots in `arena`, holding `given` (empty slots past its end).
    static func filledRun(
        _ schema: EntitySchema, _ given: [Slot]?, arena: inout SlotArena
    ) -> SlotRange {
        let given = given ?? []
        return arena.fillRun(width: schema.slotCount) { run in
            for position in 0..<schema.slotCount {
                run.append(
                    slot: position < given.count
                        ? given[position] : emptySlot(schema.kinds[position]))
            }
        }
    }

    /// The object's values, one slot per property position, read and written in place.
    var slots: SlotList {
        SlotList(start: slotBlock.start + Int(slotOffset), count: schema.slotCount)
    }

    /// Moves the slots of `run` (of the object's entity) into the object's own, leaving empty
    /// values behind.
    func moveSlots(from run: SlotRange) {
        let slots = slots
        let source = run.start
        for position in slots.indices {
            slots[position] = (source + position).move()
            (source + position).initialize(to: .value(.null))
        }
    }

    /// The slot of a property of kind `kind` (see ``EntitySchema/kinds``) holding nothing.
    static func emptySlot(_ kind: PropertyKind) -> Slot {
        switch kind {
        case .attribute: return .value(.null)
        case .toOne: return .toOne(nil)
        case .toMany: return .toMany([])
        }
    }
}
