/// A persistent property of an entity as the inference sees it: an attribute or a relationship,
/// with the entity that declares it (its own entity or an ancestor).
struct MigratedProperty {
    /// The property itself.
    enum Kind {
        /// An attribute.
        case attribute(Attribute)
        /// A relationship.
        case relationship(Relationship)
    }

    /// The property.
    var kind: Kind
    /// The entity that declares it.
    var declaringEntity: String

    /// The property's name.
    var name: String {
        switch kind {
        case .attribute(let attribute): return attribute.name
        case .relationship(let relationship): return relationship.name
        }
    }

    /// The renaming identifier, when set.
    var renamingIdentifier: String? {
        switch kind {
        case .attribute(let attribute): return attribute.renamingIdentifier
        case .relationship(let relationship): return relationship.renamingIdentifier
        }
    }

    /// `attribute` or `relationship`, for messages.
    var kindName: String {
        if case .attribute = kind { return "attribute" }
        return "relationship"
    }

    /// The persistent (not transient) properties of `entity` in `model`, inherited ones first,
    /// attributes before relationships at each level.
    static func persistent(of entity: Entity, in model: EntityModel) -> [MigratedProperty] {
        var result: [MigratedProperty] = []
        for level in model.lineage(of: entity).reversed() {
            for attribute in level.attributes where !attribute.isTransient {
                result.append(
                    MigratedProperty(kind: .attribute(attribute), declaringEntity: level.name))
            }
            for relationship in level.relationships where !relationship.isTransient {
                result.append(
                    MigratedProperty(kind: .relationship(relationship), declaringEntity: level.name)
                )
            }
        }
        return result
    }

    /// The element the ``RenamingMatcher`` compares.
    var matcherElement: RenamingMatcher.Element {
        RenamingMatcher.Element(name: name, renamingIdentifier: renamingIdentifier)
    }
}
