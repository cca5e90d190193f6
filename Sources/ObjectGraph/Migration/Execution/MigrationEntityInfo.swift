/// What the manager needs of one destination entity, computed once per entity: its
/// attributes and relationships (inherited ones included) by name, the values a new object
/// starts with, and its required properties.
struct MigrationEntityInfo {
    /// Attributes by name.
    let attributes: [String: Attribute]
    /// Relationships by name.
    let relationships: [String: Relationship]
    /// Relationships in model order (inherited first).
    let relationshipList: [Relationship]
    /// A new object's values: attribute defaults, nil to-ones, empty to-manys.
    let initialValues: [String: MigrationObject.PropertyValue]
    /// Non-transient attributes and relationships that may not be empty.
    let required: [String]

    init(_ entity: Entity, in model: EntityModel) {
        let attributeList = model.allAttributes(of: entity)
        relationshipList = model.allRelationships(of: entity)
        attributes = Dictionary(
            attributeList.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        relationships = Dictionary(
            relationshipList.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var values: [String: MigrationObject.PropertyValue] = [:]
        for attribute in attributeList {
            values[attribute.name] = .attribute(attribute.defaultValue)
        }
        for relationship in relationshipList {
            values[relationship.name] = relationship.isToMany ? .toMany([]) : .toOne(nil)
        }
        initialValues = values
        required =
            attributeList.filter { !$0.isOptional && !$0.isTransient }.map(\.name)
            + relationshipList.filter { !$0.isOptional && !$0.isTransient }.map(\.name)
    }
}

extension MigrationManager {
    /// The destination entity `name`'s info (nil when the destination model has no such
    /// entity), cached.
    func destinationInfo(_ name: String) -> MigrationEntityInfo? {
        if let info = destinationEntities[name] { return info }
        guard let entity = mapping.destinationModel.entity(named: name) else { return nil }
        let info = MigrationEntityInfo(entity, in: mapping.destinationModel)
        destinationEntities[name] = info
        return info
    }
}
