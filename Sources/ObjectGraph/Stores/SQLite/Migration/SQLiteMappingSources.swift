/// Where each destination entity and property of an inferred mapping comes from: the source
/// entity of every destination entity, and the source property each destination property's
/// `$source.<name>` expression reads (Core Data's inferred mappings hold nothing else).
///
/// ```swift
/// let sources = try SQLiteMappingSources(mapping: step.mapping)
/// sources.sourceEntity(of: "Person")                  // "Person" (or its old name)
/// sources.sourceProperty(of: "Person", "fullName")    // "name" after a rename
/// ```
struct SQLiteMappingSources {
    /// Source entity name by destination entity name (only mapped entities).
    private(set) var sourceEntities: [String: String] = [:]
    /// Destination entity name by source entity name.
    private(set) var destinationEntities: [String: String] = [:]
    /// Source property name by destination entity and property name (`nil` value: the
    /// property is new and takes its default).
    private var properties: [String: [String: String?]] = [:]

    /// Reads `mapping`'s entity and property mappings.
    /// - Throws: ``MigrationError/cannotInferMapping(entity:property:reason:)`` when a
    ///   mapping uses what SQL cannot run: a filter predicate, a source expression, a custom
    ///   policy, or a value expression other than `$source.<name>`.
    init(mapping: MappingModel) throws(MigrationError) {
        for entityMapping in mapping.entityMappings {
            guard let destination = entityMapping.destinationEntityName,
                let source = entityMapping.sourceEntityName
            else { continue }
            switch entityMapping.kind {
            case .copy, .transform, .undefined: break
            case .add, .remove: continue
            case .custom:
                throw MigrationError.cannotInferMapping(
                    entity: destination, property: nil,
                    reason:
                        "mapping \(entityMapping.name) is custom; SQL runs inferred mappings only")
            }
            if entityMapping.filterPredicate != nil || entityMapping.migrationPolicyClassName != nil
            {
                throw MigrationError.cannotInferMapping(
                    entity: destination, property: nil,
                    reason:
                        "mapping \(entityMapping.name) has a filter predicate or a migration policy;"
                        + " SQL runs inferred mappings only")
            }
            sourceEntities[destination] = source
            destinationEntities[source] = destination
            var byName: [String: String?] = [:]
            for property in entityMapping.attributeMappings + entityMapping.relationshipMappings {
                guard let expression = property.valueExpression else {
                    byName[property.name] = .some(nil)
                    continue
                }
                guard let name = Self.sourceKey(of: expression) else {
                    throw MigrationError.cannotInferMapping(
                        entity: destination, property: property.name,
                        reason:
                            "its value expression \(expression) is not $source.<property>; SQL runs"
                            + " inferred mappings only")
                }
                byName[property.name] = name
            }
            properties[destination] = byName
        }
    }

    /// The source entity of `destination` (`nil`: the entity is new).
    func sourceEntity(of destination: String) -> String? {
        sourceEntities[destination]
    }

    /// The source property `property` of `destination` reads, `nil` when it is new. A
    /// property the entity mapping does not list keeps its name when the source entity has a
    /// property of that name (`hasSource`).
    func sourceProperty(
        of destination: String, _ property: String, hasSource: (String) -> Bool
    ) -> String? {
        if let listed = properties[destination]?[property] { return listed }
        return hasSource(property) ? property : nil
    }

    /// The property name of `$source.<name>`, of `FUNCTION($manager,
    /// "destinationInstancesForEntityMappingNamed:sourceInstances:", "M", $source.<name>)`
    /// and of its `…ForSourceRelationshipNamed:…` form.
    static func sourceKey(of expression: Expression) -> String? {
        switch expression {
        case .member(.variable(let variable), let path) where variable == "source":
            guard path.components.count == 1, case .key(let name) = path.components[0] else {
                return nil
            }
            return name
        case .keyPath(let path):
            guard path.components.count == 2, case .key(let first) = path.components[0],
                first == "$source", case .key(let name) = path.components[1]
            else { return nil }
            return name
        case .functionCall(.variable("manager"), let selector, let arguments)
        where selector.hasPrefix("destinationInstancesFor"):
            return arguments.last.flatMap(sourceKey(of:))
        default:
            return nil
        }
    }
}
