extension MappingModel {
    /// The mapping Core Data's lightweight migration infers between two versions of a model
    /// (`NSMappingModel.inferredMappingModel(forSourceModel:destinationModel:)`).
    ///
    /// Accepted changes: entities, attributes and relationships added or removed; renames through
    /// the destination element's renaming identifier (Xcode's "Renaming ID", set to the old
    /// name); optional ↔ required (the default value is recorded; objects holding nil where a
    /// required attribute has no default fail when the migration runs, with
    /// ``MigrationError/missingRequiredValues(entity:property:objects:)``); to-one ↔ to-many;
    /// ordered ↔ unordered; minimum/maximum counts, inverses and delete rules; a relationship
    /// pointing to an ancestor of its old destination; new parent or child entities, properties
    /// moved up or down a hierarchy, entities moved out of a hierarchy; indexes and uniqueness
    /// constraints added or removed (existing duplicates fail when the migration runs); the
    /// attribute type changes in ``AttributeTypeConversion``.
    ///
    /// Refused with ``MigrationError/cannotInferMapping(entity:property:reason:)`` naming the
    /// destination entity and property: any other change of attribute type, an attribute that
    /// becomes a relationship (or the reverse), a relationship whose destination becomes an
    /// unrelated entity, and entities of separate hierarchies brought under one parent (Apple:
    /// "if two existing entities do not share a common parent in the source, they cannot share a
    /// common parent in the destination").
    ///
    /// The result has one entity mapping per destination entity, in the destination model's
    /// order — ``EntityMapping/Kind/copy`` when the entity's version hash is unchanged,
    /// ``EntityMapping/Kind/transform`` when it changed, ``EntityMapping/Kind/add`` when it is
    /// new — then one ``EntityMapping/Kind/remove`` per dropped source entity. Each covers the
    /// objects of exactly its entity (not of subentities) and maps every persistent property of
    /// the destination entity, inherited ones included: `$source.<old name>`, or `nil` (the
    /// default value) for a new property.
    ///
    /// ```swift
    /// let mapping = try MappingModel.inferred(from: version1, to: version2)
    /// print(mapping.changeDescriptions.joined(separator: "\n"))
    /// ```
    public static func inferred(from source: ModelVersion, to destination: ModelVersion)
        throws(MigrationError) -> MappingModel
    {
        var mapping = try inferred(from: source.model, to: destination.model)
        mapping.sourceVersionName = source.name
        mapping.destinationVersionName = destination.name
        return mapping
    }

    /// The inferred mapping between two models without version names (see
    /// ``inferred(from:to:)-(ModelVersion,ModelVersion)``).
    public static func inferred(from source: EntityModel, to destination: EntityModel)
        throws(MigrationError) -> MappingModel
    {
        try MappingInferrer(source: source, destination: destination).mappingModel()
    }
}
