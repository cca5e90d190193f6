/// Sets destination relationships: resolves the objects a mapping's value names, checks them
/// against the destination relationship, and fills inverses left empty.
struct MigrationRelationships {
    let manager: MigrationManager

    private var model: EntityModel { manager.mapping.destinationModel }

    /// Sets relationship `name` of `destination` (see ``MigrationManager/setRelationship(_:of:to:in:)``).
    func set(
        _ name: String, of destination: MigrationObject, to value: EvaluationValue,
        in entityMapping: EntityMapping
    ) throws(MigrationError) {
        guard let relationship = relationship(name, of: destination.entityName) else {
            throw .expressionFailed(
                mapping: entityMapping.name, property: name,
                reason:
                    "the destination entity \(destination.entityName) has no relationship \(name)")
        }
        let given = try manager.objects(value, mapping: entityMapping, property: name)
        let allowed = manager.hierarchy.family(
            of: relationship.destinationEntityName, in: model, tag: "d")
        var targets: [MigrationObject] = []
        targets.reserveCapacity(given.count)
        for object in given {
            if manager.destinationIdentities.contains(ObjectIdentifier(object)) {
                guard allowed.contains(object.entityName) else {
                    throw .expressionFailed(
                        mapping: entityMapping.name, property: name,
                        reason:
                            "\(object.reference) is not a \(relationship.destinationEntityName)"
                            + " (the destination of \(destination.entityName).\(name))")
                }
                targets.append(object)
            } else {
                // A source object (an inferred `$source.rel`): the objects made from it.
                targets += manager.destinationInstances(forSource: object).filter {
                    allowed.contains($0.entityName)
                }
            }
        }
        if relationship.isToMany {
            destination.values[name] = .toMany(targets)
        } else {
            guard targets.count <= 1 else {
                throw .expressionFailed(
                    mapping: entityMapping.name, property: name,
                    reason:
                        "to-one relationship \(destination.entityName).\(name) of"
                        + " \(destination.reference) got \(targets.count) objects")
            }
            destination.values[name] = .toOne(targets.first)
        }
    }

    /// `destinationInstancesForSourceRelationshipNamed:sourceInstances:`: the destination objects
    /// made from `sources`, limited to the destination relationship's entity (and subentities)
    /// when `property` names a relationship of the mapping's destination entity.
    func destinations(
        for sources: [MigrationObject], property: String?, mapping entityMapping: EntityMapping?
    ) -> [MigrationObject] {
        var allowed: Set<String>?
        if let property, let entityName = entityMapping?.destinationEntityName,
            let relationship = relationship(property, of: entityName)
        {
            allowed = manager.hierarchy.family(
                of: relationship.destinationEntityName, in: model, tag: "d")
        }
        return sources.flatMap { source in
            manager.destinationInstances(forSource: source).filter {
                allowed?.contains($0.entityName) ?? true
            }
        }
    }

    /// Fills the inverse of every relationship set on one side only (Core Data keeps inverses
    /// as relationships are set): a to-many inverse gains the object, in the order met; a nil
    /// to-one inverse takes it.
    func completeInverses() {
        var members: [MemberKey: Set<ObjectIdentifier>] = [:]
        for object in manager.destinationObjects {
            let relationships = relationshipsOf(object.entityName)
            for relationship in relationships {
                guard let inverseName = relationship.inverseName else { continue }
                for target in object.related(relationship.name) {
                    let inverses = relationshipsOf(target.entityName)
                    guard let inverse = inverses.first(where: { $0.name == inverseName }) else {
                        continue
                    }
                    link(target, inverse, to: object, &members)
                }
            }
        }
    }

    private struct MemberKey: Hashable {
        let object: ObjectIdentifier
        let relationship: String
    }

    private func link(
        _ target: MigrationObject, _ inverse: Relationship, to object: MigrationObject,
        _ members: inout [MemberKey: Set<ObjectIdentifier>]
    ) {
        guard inverse.isToMany else {
            switch target.values[inverse.name] {
            case .some(.toOne(.none)), .none: target.values[inverse.name] = .toOne(object)
            default: break
            }
            return
        }
        let key = MemberKey(object: ObjectIdentifier(target), relationship: inverse.name)
        if members[key] == nil {
            members[key] = Set(target.related(inverse.name).map { ObjectIdentifier($0) })
        }
        guard members[key, default: []].insert(ObjectIdentifier(object)).inserted,
            case .toMany(var list)? = target.values[inverse.name]
        else { return }
        target.values[inverse.name] = nil  // so the append below does not copy the list
        list.append(object)
        target.values[inverse.name] = .toMany(list)
    }

    private func relationshipsOf(_ entityName: String) -> [Relationship] {
        manager.destinationInfo(entityName)?.relationshipList ?? []
    }

    private func relationship(_ name: String, of entityName: String) -> Relationship? {
        manager.destinationInfo(entityName)?.relationships[name]
    }
}
