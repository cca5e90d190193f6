/// Relationships in a merge: the store's to-many lists compared as the store holds them, and
/// the objects on the other side of a relationship a merge changed kept pointing back.
extension ManagedContext {
    /// The relationship or value at `position` of `object` (just loaded from its row) as the
    /// store holds it now: the row's slot, or — for a to-many relationship the row leaves out
    /// (SQLite keeps it in other rows) — the list of IDs the store holds, read.
    func storedSlot(_ object: ManagedObject, at position: Int) throws -> Slot {
        let slot = object.slots[position]
        guard case .toManyFault(nil) = slot else { return slot }
        return .toManyFault(
            try source.relatedIDs(
                of: object.objectID, entityIndex: object.schema.index, position: position,
                in: nil))
    }

    /// After a merge replaced this context's change of the relationships at `positions` of
    /// `object` with the stored ones (`mine`: the slots as this context had set them), the
    /// objects it no longer relates to let go of it and the ones it relates to now point at
    /// it, through the inverse relationships (a to-one inverse moves, as when set by hand).
    /// The graph stays consistent, and the save writes both sides alike.
    func reconcileInverses(of object: ManagedObject, at positions: [Int], mine: [Slot]) throws {
        for position in positions {
            guard case .relationship(let relationship) = object.schema.properties[position],
                relationship.inverseName != nil
            else { continue }
            let before = members(of: mine[position])
            let after: [ManagedObject]
            if relationship.isToMany {
                after = try object.resolvedToMany(at: position)
            } else {
                after = try object.resolvedToOne(at: position).map { [$0] } ?? []
            }
            for member in before where !after.contains(where: { $0 === member }) {
                try detach(object, from: member, relationship: relationship)
            }
            for member in after where !before.contains(where: { $0 === member }) {
                try attach(object, to: member, relationship: relationship)
            }
        }
    }

    /// The objects a relationship slot holds, among those this context has registered.
    private func members(of slot: Slot) -> [ManagedObject] {
        switch slot {
        case .toMany(let list): return list
        case .toOne(let target): return target.map { [$0] } ?? []
        case .toManyFault(let ids): return (ids ?? []).compactMap { registry[$0] }
        case .toOneFault, .toOneFaultID:
            return slot.toOneTarget.flatMap { registry[$0] }.map { [$0] } ?? []
        case .value: return []
        }
    }
}
