extension MigrationManager {
    /// Makes a destination object of `entityName` with every property of the entity present:
    /// attributes at their defaults, to-one relationships nil, to-many empty. Its key is given
    /// after instance creation.
    /// - Throws: ``MigrationError/expressionFailed(mapping:property:reason:)`` when the
    ///   destination model has no such entity.
    public func insertDestinationObject(entityName: String) throws(MigrationError)
        -> MigrationObject
    {
        guard let info = destinationInfo(entityName) else {
            throw .expressionFailed(
                mapping: currentEntityMapping?.name ?? entityName, property: nil,
                reason: "the destination model has no entity \(entityName)")
        }
        let object = MigrationObject(entityName: entityName, key: 0)
        object.values = info.initialValues
        destinationObjects.append(object)
        destinationIdentities.insert(ObjectIdentifier(object))
        return object
    }

    /// Records that `destination` was made from `source` by `mapping` (Core Data's
    /// `associate(sourceInstance:withDestinationInstance:for:)`).
    public func associate(
        source: MigrationObject, destination: MigrationObject, mapping entityMapping: EntityMapping
    ) {
        let isNew = associations[entityMapping.name, default: MigrationAssociations()].associate(
            source, destination)
        guard isNew else { return }
        destinationsBySource[ObjectIdentifier(source), default: []].append(destination)
        if originByDestination[ObjectIdentifier(destination)] == nil {
            originByDestination[ObjectIdentifier(destination)] = source
        }
    }

    /// The destination objects `mappingName` made from `sources` (in their order), or every
    /// object it made when `sources` is nil.
    public func destinationInstances(
        forEntityMappingNamed mappingName: String, sourceInstances sources: [MigrationObject]?
    ) -> [MigrationObject] {
        guard let made = associations[mappingName] else { return [] }
        guard let sources else { return made.destinations }
        return sources.flatMap { made.destinationsBySource[ObjectIdentifier($0)] ?? [] }
    }

    /// The source objects `mappingName` made `destinations` from, or every source object it
    /// read when `destinations` is nil.
    public func sourceInstances(
        forEntityMappingNamed mappingName: String,
        destinationInstances destinations: [MigrationObject]?
    ) -> [MigrationObject] {
        guard let made = associations[mappingName] else { return [] }
        guard let destinations else { return made.sources }
        return destinations.flatMap { made.sourcesByDestination[ObjectIdentifier($0)] ?? [] }
    }

    /// Every destination object made from `source`, by any mapping.
    public func destinationInstances(forSource source: MigrationObject) -> [MigrationObject] {
        destinationsBySource[ObjectIdentifier(source)] ?? []
    }

    /// The source objects of entity `entityName` (exactly that entity), in the order given.
    public func sourceObjects(ofEntity entityName: String) -> [MigrationObject] {
        sourcesByEntity[entityName] ?? []
    }

    /// The default policy's instance creation: one object of the mapping's destination entity,
    /// attributes from the attribute mappings, associated with `source`.
    public func createDefaultDestinationInstance(
        forSource source: MigrationObject, in entityMapping: EntityMapping
    ) throws(MigrationError) {
        guard let entityName = entityMapping.destinationEntityName else { return }
        let destination = try insertDestinationObject(entityName: entityName)
        associate(source: source, destination: destination, mapping: entityMapping)
        try apply(entityMapping.attributeMappings, source, destination, entityMapping, setAttribute)
    }

    /// The default policy's relationship creation: each relationship mapping's value,
    /// evaluated with `$source` the object `destination` was made from.
    public func createDefaultRelationships(
        forDestination destination: MigrationObject, in entityMapping: EntityMapping
    ) throws(MigrationError) {
        let source = sourceInstances(
            forEntityMappingNamed: entityMapping.name, destinationInstances: [destination]
        ).first
        try apply(
            entityMapping.relationshipMappings, source, destination, entityMapping, setRelationship)
    }

    /// Evaluates each property mapping that has an expression and sets its value with `set`.
    private func apply(
        _ propertyMappings: [PropertyMapping], _ source: MigrationObject?,
        _ destination: MigrationObject, _ entityMapping: EntityMapping,
        _ set: (String, MigrationObject, EvaluationValue, EntityMapping) throws(MigrationError)
            -> Void
    ) throws(MigrationError) {
        for propertyMapping in propertyMappings {
            guard let expression = propertyMapping.valueExpression else { continue }
            let value = try evaluate(
                expression, source: source, destination: destination, in: entityMapping,
                property: propertyMapping.name)
            try set(propertyMapping.name, destination, value, entityMapping)
        }
    }

    /// Sets attribute `name` of `destination` to `value`, converted to the attribute's type.
    /// - Throws: ``MigrationError/expressionFailed(mapping:property:reason:)`` when the
    ///   destination entity has no such attribute or the value is not a single value;
    ///   ``MigrationError/cannotConvertValue(entity:property:reason:)``.
    public func setAttribute(
        _ name: String, of destination: MigrationObject, to value: EvaluationValue,
        in entityMapping: EntityMapping
    ) throws(MigrationError) {
        guard let attribute = destinationInfo(destination.entityName)?.attributes[name] else {
            throw .expressionFailed(
                mapping: entityMapping.name, property: name,
                reason: "the destination entity \(destination.entityName) has no attribute \(name)")
        }
        guard case .value(let scalar) = value else {
            throw .expressionFailed(
                mapping: entityMapping.name, property: name,
                reason: "the value \(value) is not a single value for attribute \(name)")
        }
        // Keys are given after creation: until then, name the object by its source.
        let origin = originByDestination[ObjectIdentifier(destination)]
        destination.values[name] = .attribute(
            try MigrationValueConversion.convert(
                scalar, to: attribute.type, entity: destination.entityName, property: name,
                object: origin.map { "\(destination.entityName) made from \($0.reference)" }
                    ?? destination.reference))
    }

    /// Sets relationship `name` of `destination` to the objects `value` holds: destination
    /// objects as they are, source objects replaced by the destination objects made from them;
    /// nil is none. A to-one takes at most one object.
    /// - Throws: ``MigrationError/expressionFailed(mapping:property:reason:)`` for a missing
    ///   relationship, a value that is not objects, an object of the wrong entity, or several
    ///   objects for a to-one.
    public func setRelationship(
        _ name: String, of destination: MigrationObject, to value: EvaluationValue,
        in entityMapping: EntityMapping
    ) throws(MigrationError) {
        try MigrationRelationships(manager: self).set(
            name, of: destination, to: value, in: entityMapping)
    }
}
