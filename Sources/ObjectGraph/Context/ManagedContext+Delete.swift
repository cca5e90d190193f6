/// Deleting objects and applying delete rules.
extension ManagedContext {
    /// Deletes `object` and applies each relationship's delete rule at once: nullify clears the
    /// inverse, cascade deletes the related objects (transitively, cycles included), deny is
    /// checked when saving, no action leaves the related objects alone. One undo restores the
    /// whole deleted subgraph.
    ///
    /// The deleted object's own nullified and cascaded relationships read as empty from then
    /// on (``ManagedObject/object(for:)``, ``ManagedObject/objects(for:)``, key paths), as in
    /// Core Data. Without an undo manager its slots keep their values (rolling back the
    /// deletion needs nothing restored on its side, and deleting 100,000 objects keeps no copy
    /// of them); with one they are emptied and the undo records what they held (a saved
    /// deletion drops the object's values, and undoing it puts them back).
    public func delete(_ object: ManagedObject) {
        checkQueue("delete")
        guard object.context === self, !object.deletedFlag else { return }
        deleteApplyingRules(object)
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
            let rule = relationship.relationship.deleteRule
            guard rule == .nullify || rule == .cascade else { continue }
            for target in targets {
                try? detach(object, from: target, relationship: relationship)
            }
            emptyForUndo(object, position, relationship)
            if rule == .cascade {
                for target in targets { deleteApplyingRules(target) }
            }
        }
    }

    /// Empties the relationship at `position` of the deleted `object` when an undo manager
    /// records (see ``delete(_:)``).
    private func emptyForUndo(
        _ object: ManagedObject, _ position: Int, _ relationship: RelationshipSchema
    ) {
        guard let undoManager, undoManager.isUndoRegistrationEnabled else { return }
        setSlot(object, position, relationship.isToMany ? .toMany([]) : .toOne(nil))
    }
}
