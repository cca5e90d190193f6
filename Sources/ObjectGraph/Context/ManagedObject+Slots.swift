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

    /// Whether the object holds its committed values and nothing else: loaded, neither
    /// inserted nor deleted, and no change since the values were committed.
    var hasCommittedValuesOnly: Bool {
        state == .loaded && hasCommitted && !insertedFlag && !deletedFlag && originals.isEmpty
            && touchIndex < 0
    }

    /// Turns the slots into what a fetch of the object's row decodes (the form the
    /// ``RowCache`` keeps): to-one relationships unresolved (the target's ID), to-many
    /// relationships not read, transient properties empty. Related objects are let go.
    func unresolveForCache() {
        let slots = slots
        for position in slots.indices {
            if schema.isTransient[position] {
                slots[position] = .value(.null)
                continue
            }
            switch schema.kinds[position] {
            case .attribute:
                continue
            case .toOne:
                if case .toOne(let target?) = slots[position] {
                    slots[position] = .fault(to: target.objectID)
                }
            case .toMany:
                if case .toManyFault(nil) = slots[position] { continue }
                slots[position] = .toManyFault(nil)
            }
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
