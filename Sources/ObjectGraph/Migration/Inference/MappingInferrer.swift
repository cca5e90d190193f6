import Foundation

/// Builds the inferred mapping between two models (see ``MappingModel/inferred(from:to:)``).
struct MappingInferrer {
    private let correspondence: EntityCorrespondence
    private let sourceHashes: [String: Data]
    private let destinationHashes: [String: Data]

    private var source: EntityModel { correspondence.source }
    private var destination: EntityModel { correspondence.destination }

    /// Prepares the inference between two models.
    init(source: EntityModel, destination: EntityModel) {
        correspondence = EntityCorrespondence(source: source, destination: destination)
        sourceHashes = source.entityVersionHashes
        destinationHashes = destination.entityVersionHashes
    }

    /// The inferred mapping model, or the first change an inferred mapping cannot make.
    func mappingModel() throws(MigrationError) -> MappingModel {
        try checkHierarchies()
        var mappings: [EntityMapping] = []
        for entity in destination.entities {
            mappings.append(try entityMapping(for: entity))
        }
        for entity in source.entities
        where correspondence.destinationNameBySource[entity.name] == nil {
            mappings.append(
                EntityMapping(
                    name: entity.name, kind: .remove, sourceEntityName: entity.name,
                    sourceEntityVersionHash: sourceHashes[entity.name]))
        }
        return MappingModel(
            sourceModel: source, destinationModel: destination, entityMappings: mappings,
            isInferred: true)
    }

    /// The mapping that fills `entity`'s objects.
    private func entityMapping(for entity: Entity) throws(MigrationError) -> EntityMapping {
        let properties = MigratedProperty.persistent(of: entity, in: destination)
        guard let sourceEntity = correspondence.sourceEntity(for: entity) else {
            var mapping = EntityMapping(
                name: entity.name, kind: .add, destinationEntityName: entity.name,
                destinationEntityVersionHash: destinationHashes[entity.name])
            for property in properties {
                mapping.append(PropertyMapping(name: property.name), for: property)
            }
            return mapping
        }
        let sourceHash = sourceHashes[sourceEntity.name]
        let destinationHash = destinationHashes[entity.name]
        var mapping = EntityMapping(
            name: "\(sourceEntity.name)To\(entity.name)",
            kind: sourceHash == destinationHash ? .copy : .transform,
            sourceEntityName: sourceEntity.name, destinationEntityName: entity.name,
            sourceEntityVersionHash: sourceHash, destinationEntityVersionHash: destinationHash)
        let sourceProperties = MigratedProperty.persistent(of: sourceEntity, in: source)
        let pairs = RenamingMatcher.match(
            destinations: properties.map(\.matcherElement),
            sources: sourceProperties.map(\.matcherElement))
        for (index, property) in properties.enumerated() {
            let origin = pairs[index].map { sourceProperties[$0] }
            if let origin { try check(property, from: origin, in: entity) }
            mapping.append(
                PropertyMapping(
                    name: property.name,
                    valueExpression: origin.map { PropertyMapping.sourceExpression(for: $0.name) }),
                for: property)
        }
        return mapping
    }

    /// Throws when `property` cannot take its values from `origin`.
    private func check(
        _ property: MigratedProperty, from origin: MigratedProperty, in entity: Entity
    )
        throws(MigrationError)
    {
        switch (property.kind, origin.kind) {
        case (.attribute(let new), .attribute(let old)):
            if AttributeTypeConversion(from: old.type, to: new.type) == nil {
                throw .cannotInferMapping(
                    entity: entity.name, property: new.name,
                    reason: AttributeTypeConversion.refusal(from: old.type, to: new.type))
            }
        case (.relationship(let new), .relationship(let old)):
            try checkDestination(of: new, from: old, in: entity)
        default:
            throw .cannotInferMapping(
                entity: entity.name, property: property.name,
                reason: "the \(origin.kindName) \(origin.declaringEntity).\(origin.name) becomes"
                    + " a \(property.kindName), which an inferred mapping cannot convert")
        }
    }

    /// A relationship may keep its destination (renamed or not) or point to an ancestor of it;
    /// any other destination would hold objects of the wrong entity.
    private func checkDestination(
        of relationship: Relationship, from old: Relationship, in entity: Entity
    ) throws(MigrationError) {
        let target = correspondence.sourceNameByDestination[relationship.destinationEntityName]
        if let target, let oldTarget = source.entity(named: old.destinationEntityName),
            source.lineage(of: oldTarget).contains(where: { $0.name == target })
        {
            return
        }
        throw .cannotInferMapping(
            entity: entity.name, property: relationship.name,
            reason: "its destination changes from \(old.destinationEntityName) to"
                + " \(relationship.destinationEntityName), whose objects do not come from"
                + " \(old.destinationEntityName) or an entity it inherits from")
    }

    /// Entities that share no root entity in the source may not share one in the destination.
    private func checkHierarchies() throws(MigrationError) {
        var sourceRootByDestinationRoot: [String: (root: String, entity: String)] = [:]
        for entity in destination.entities {
            guard let sourceEntity = correspondence.sourceEntity(for: entity) else { continue }
            let root = destination.lineage(of: entity).last?.name ?? entity.name
            let sourceRoot = source.lineage(of: sourceEntity).last?.name ?? sourceEntity.name
            guard let seen = sourceRootByDestinationRoot[root] else {
                sourceRootByDestinationRoot[root] = (sourceRoot, entity.name)
                continue
            }
            if seen.root != sourceRoot {
                throw .cannotInferMapping(
                    entity: entity.name, property: nil,
                    reason: "it would share the root entity \(root) with \(seen.entity), but their"
                        + " source entities belong to separate hierarchies (\(sourceRoot) and"
                        + " \(seen.root)); an inferred mapping cannot merge entity hierarchies")
            }
        }
    }
}

extension EntityMapping {
    /// Adds `mapping` to the attribute or relationship mappings, as `property` is.
    fileprivate mutating func append(_ mapping: PropertyMapping, for property: MigratedProperty) {
        switch property.kind {
        case .attribute: attributeMappings.append(mapping)
        case .relationship: relationshipMappings.append(mapping)
        }
    }
}
