extension ModelValidator {
    /// The relationship rules: destination, inverse, counts, ordered to-one, delete rule.
    mutating func checkRelationship(_ relationship: Relationship, of entity: Entity) {
        checkCounts(of: relationship, in: entity)
        let name = relationship.name
        let location = relationship.location
        if relationship.isOrdered && !relationship.isToMany {
            report(
                .orderedToOne,
                "to-one relationship '\(entity.name).\(name)' is marked ordered; "
                    + "only to-many relationships can be ordered, so the flag is ignored",
                at: location, entity: entity.name, property: name)
        }
        if let unknownRule = relationship.unknownDeleteRule {
            report(
                .unknownDeleteRule,
                "relationship '\(entity.name).\(name)' has an unknown delete rule "
                    + "'\(unknownRule)'; it is read as \(relationship.deleteRule.rawValue)",
                at: location, entity: entity.name, property: name)
        }
        if relationship.destinationEntityName.isEmpty
            && loaderReported("missing-destination", at: location)
        {
            return
        }
        guard let destination = model.entity(named: relationship.destinationEntityName) else {
            report(
                .unknownDestinationEntity,
                "relationship '\(entity.name).\(name)' names an unknown destination entity "
                    + "'\(relationship.destinationEntityName)'",
                at: location, entity: entity.name, property: name)
            return
        }
        checkInverse(of: relationship, in: entity, destination: destination)
    }

    /// `missing-inverse`, `inverse-entity-mismatch`, `unknown-inverse` and
    /// `asymmetric-inverse` (a warning, as in Xcode: the model compiles and loads).
    private mutating func checkInverse(
        of relationship: Relationship, in entity: Entity, destination: Entity
    ) {
        let name = relationship.name
        let location = relationship.location
        guard let inverseName = relationship.inverseName else {
            report(
                .missingInverse,
                "relationship '\(entity.name).\(name)' has no inverse; Core Data cannot keep "
                    + "'\(destination.name)' objects consistent when they change",
                at: location, entity: entity.name, property: name)
            return
        }
        if let inverseEntity = relationship.inverseEntityName,
            !isSelfOrAncestor(inverseEntity, of: destination)
        {
            report(
                .inverseEntityMismatch,
                "relationship '\(entity.name).\(name)' has inverse entity '\(inverseEntity)', "
                    + "but its destination is '\(destination.name)'",
                at: location, entity: entity.name, property: name)
        }
        guard let inverse = inheritedRelationship(named: inverseName, in: destination) else {
            report(
                .unknownInverse,
                "relationship '\(entity.name).\(name)' names an inverse '\(inverseName)' that "
                    + "entity '\(destination.name)' does not have",
                at: location, entity: entity.name, property: name)
            return
        }
        if inverse.inverseName != name {
            let pointsTo = inverse.inverseName.map { "'\($0)'" } ?? "nothing"
            report(
                .asymmetricInverse,
                "relationship '\(entity.name).\(name)' has inverse "
                    + "'\(destination.name).\(inverseName)', whose inverse is \(pointsTo) "
                    + "instead of '\(name)'; the two sides are not kept in step, so a change "
                    + "made through one can leave the other stale",
                at: location, entity: entity.name, property: name)
        } else if !isSelfOrAncestor(inverse.destinationEntityName, of: entity) {
            report(
                .asymmetricInverse,
                "relationship '\(entity.name).\(name)' has inverse "
                    + "'\(destination.name).\(inverseName)', whose destination is "
                    + "'\(inverse.destinationEntityName)' instead of '\(entity.name)'; the two "
                    + "sides are not kept in step, so a change made through one can leave the "
                    + "other stale",
                at: location, entity: entity.name, property: name)
        }
    }

    /// `invalid-count`, `min-count-greater-than-max-count` and `to-one-max-count`.
    private mutating func checkCounts(of relationship: Relationship, in entity: Entity) {
        let name = relationship.name
        let location = relationship.location
        for (label, text) in [
            ("minimum", relationship.minCountString),
            ("maximum", relationship.maxCountString),
        ] {
            guard let text, Self.count(text) == nil else { continue }
            report(
                .invalidCount,
                "relationship '\(entity.name).\(name)' has \(label) count \(Self.quoted(text)), which is "
                    + "not a non-negative integer; it is read as 0",
                at: location, entity: entity.name, property: name)
        }
        let minimum = relationship.minCountString.flatMap(Self.count) ?? 0
        let maximum =
            relationship.maxCountString.flatMap(Self.count) ?? (relationship.isToMany ? 0 : 1)
        if !relationship.isToMany, let text = relationship.maxCountString, maximum != 1 {
            report(
                .toOneMaxCount,
                "to-one relationship '\(entity.name).\(name)' has maximum count \(Self.quoted(text)); "
                    + "a to-one relationship holds at most 1 object",
                at: location, entity: entity.name, property: name)
        } else if maximum != 0 && minimum > maximum {
            report(
                .minCountGreaterThanMaxCount,
                "relationship '\(entity.name).\(name)' has minimum count \(minimum) greater "
                    + "than its maximum count \(maximum)",
                at: location, entity: entity.name, property: name)
        }
    }

    /// A count as Core Data accepts it: a non-negative decimal integer.
    static func count(_ text: String) -> Int? {
        guard let value = Int(text), value >= 0 else { return nil }
        return value
    }
}
