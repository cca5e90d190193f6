import ObjectGraph

/// One line of a model diagram: a relationship (with its inverse, when the two name each
/// other, so a pair is one line) or an entity's inheritance from its parent.
public struct ModelDiagramEdge: Sendable, Hashable {
    /// What the line stands for.
    public enum Kind: Sendable, Hashable {
        /// `relationship` of the tail entity, reaching the head entity; `inverse` is the head
        /// entity's (or one of its ancestors') relationship back, when the two are each
        /// other's inverse.
        case relationship(Relationship, inverse: Relationship?)
        /// The tail entity inherits from the head entity.
        case inheritance
    }

    /// The entity the line starts at (the relationship's owner, or the entity of the owner's
    /// family the inverse reaches; or the subentity).
    public var tail: String
    /// The entity the line ends at (the destination, or the parent).
    public var head: String
    /// What the line stands for.
    public var kind: Kind

    /// The lines of `model`: one per parent link, one per relationship whose destination
    /// exists, inverse pairs drawn once (from the entity that comes first in the file, or
    /// from the to-many side of a to-one ↔ to-many pair).
    ///
    /// ```swift
    /// let edges = ModelDiagramEdge.edges(of: model)
    /// ```
    public static func edges(of model: EntityModel) -> [ModelDiagramEdge] {
        var edges: [ModelDiagramEdge] = []
        var drawn: Set<PropertyKey> = []
        for entity in model.entities {
            if let parent = model.parent(of: entity) {
                edges.append(
                    ModelDiagramEdge(tail: entity.name, head: parent.name, kind: .inheritance))
            }
            for relationship in entity.relationships {
                let key = PropertyKey(entity: entity.name, property: relationship.name)
                guard drawn.insert(key).inserted,
                    let destination = model.entity(named: relationship.destinationEntityName)
                else { continue }
                let inverse = mutualInverse(
                    of: relationship, in: entity, destination: destination, model: model)
                if let inverse {
                    drawn.insert(
                        PropertyKey(entity: inverse.owner, property: inverse.relationship.name))
                }
                let isSelfInverse =
                    inverse?.owner == entity.name && inverse?.relationship.name == relationship.name
                if let inverse, !isSelfInverse, !relationship.isToMany,
                    inverse.relationship.isToMany
                {
                    // Drawn from the to-many side, so that the "one" ranks before its "many".
                    edges.append(
                        ModelDiagramEdge(
                            tail: destination.name, head: entity.name,
                            kind: .relationship(inverse.relationship, inverse: relationship)))
                    continue
                }
                edges.append(
                    ModelDiagramEdge(
                        tail: entity.name, head: destination.name,
                        kind: .relationship(
                            relationship, inverse: isSelfInverse ? nil : inverse?.relationship)))
            }
        }
        return edges
    }

    /// An entity's property, by names.
    private struct PropertyKey: Hashable {
        let entity: String
        let property: String
    }

    /// The relationship of `destination` (or an ancestor of it) that `relationship` names as
    /// its inverse and that names `relationship` back, with the entity declaring it.
    private static func mutualInverse(
        of relationship: Relationship, in entity: Entity, destination: Entity,
        model: EntityModel
    ) -> (owner: String, relationship: Relationship)? {
        guard let inverseName = relationship.inverseName else { return nil }
        let ownerLineage = Set(model.lineage(of: entity).map(\.name))
        for candidate in model.lineage(of: destination) {
            guard let inverse = candidate.relationship(named: inverseName) else { continue }
            guard inverse.inverseName == relationship.name,
                ownerLineage.contains(inverse.destinationEntityName)
            else { return nil }
            return (candidate.name, inverse)
        }
        return nil
    }
}
