/// Deleting objects and applying delete rules.
extension ManagedContext {
    /// Deletes `object` and applies each relationship's delete rule at once: nullify clears the
    /// inverse, cascade deletes the related objects (transitively, cycles included), deny is
    /// checked when saving, no action leaves the related objects alone. One undo restores the
    /// whole deleted subgraph.
    public func delete(_ object: ManagedObject) {
        guard object.context === self, !object.deletedFlag else { return }
        change { deleteApplyingRules(object) }
    }

    private func deleteApplyingRules(_ object: ManagedObject) {
        guard !object.deletedFlag else { return }
        try? object.fulfill()
        object.prepareForDeletion()
        markDeleted(object)
        guard object.state == .loaded else { return }
        for position in object.schema.relationshipPositions {
            guard case .relationship(let relationship) = object.schema.properties[position] else {
                continue
            }
            let targets: [ManagedObject]
            if relationship.isToMany {
                targets = (try? object.resolvedToMany(at: position)) ?? []
            } else {
                targets = ((try? object.resolvedToOne(at: position)) ?? nil).map { [$0] } ?? []
            }
            guard !targets.isEmpty else { continue }
            switch relationship.relationship.deleteRule {
            case .nullify:
                for target in targets {
                    try? detach(object, from: target, relationship: relationship)
                }
                setSlot(object, position, relationship.isToMany ? .toMany([]) : .toOne(nil))
            case .cascade:
                for target in targets {
                    try? detach(object, from: target, relationship: relationship)
                }
                setSlot(object, position, relationship.isToMany ? .toMany([]) : .toOne(nil))
                for target in targets { deleteApplyingRules(target) }
            case .deny, .noAction:
                break
            }
        }
    }
}
