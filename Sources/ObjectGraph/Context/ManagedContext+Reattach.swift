/// Putting an object whose deletion is discarded back into the relationships of the objects
/// its deletion detached it from.
extension ManagedContext {
    /// Makes every object related to `object` (as `object` holds its relationships now) point
    /// back at it again where its deletion nullified that: an inverse to-one that is empty
    /// takes it, an inverse to-many that lacks it gets it back — in an ordered one at the
    /// position it had when last saved (else at the end).
    ///
    /// The merge policy ``MergePolicy/rollback`` needs it when it discards a conflicting
    /// deletion: the object takes the stored values, and the objects around it have to point
    /// at it again, or the save would write them without it.
    func reattach(_ object: ManagedObject) throws {
        for position in object.schema.relationshipPositions {
            guard case .relationship(let relationship) = object.schema.properties[position],
                let inverseName = relationship.inverseName
            else { continue }
            let targets: [ManagedObject]
            if relationship.isToMany {
                targets = try object.resolvedToMany(at: position)
            } else {
                targets = try object.resolvedToOne(at: position).map { [$0] } ?? []
            }
            for target in targets {
                try target.fulfill()
                guard let inverse = target.schema.positionByName[inverseName],
                    target.schema.kinds[inverse] != .attribute
                else { continue }
                try reattach(object, to: target, at: inverse)
            }
        }
    }

    /// Makes the relationship at `position` of `target` hold `object` again.
    private func reattach(_ object: ManagedObject, to target: ManagedObject, at position: Int)
        throws
    {
        switch target.slots[position] {
        case .toMany, .toManyFault:
            let members = try target.resolvedToMany(at: position)
            guard !members.contains(where: { $0 === object }) else { return }
            var index: Int?
            if target.schema.isOrdered[position],
                case .toMany(let committed)? = target.committedSlot(at: position)
            {
                // Before the first saved member that follows it and is still there.
                if let at = committed.firstIndex(where: { $0 === object }) {
                    index =
                        committed[(at + 1)...].lazy.compactMap { next in
                            members.firstIndex { $0 === next }
                        }.first ?? members.count
                }
            }
            insertIntoToMany(target, position, object, at: index)
        case .toOne, .toOneFault, .toOneFaultID:
            if try target.resolvedToOne(at: position) == nil {
                setSlot(target, position, .toOne(object))
            }
        case .value:
            return
        }
    }
}
