import Foundation
import ObjectGraph
import Testing

/// Small models built in code for the inference and planner tests.
enum InferenceFixtures {
    /// An entity with the given attributes and relationships.
    static func entity(
        _ name: String, parent: String? = nil, renamedFrom: String? = nil,
        _ attributes: [Attribute] = [], _ relationships: [Relationship] = []
    ) -> Entity {
        var entity = Entity(
            name, parent: parent, attributes: attributes, relationships: relationships)
        entity.renamingIdentifier = renamedFrom
        return entity
    }

    /// An attribute renamed from `old` (its renaming identifier).
    static func attribute(
        _ name: String, _ type: AttributeType, renamedFrom old: String? = nil,
        optional: Bool = true, default text: String? = nil
    ) -> Attribute {
        var attribute = Attribute(name, type: type, isOptional: optional, defaultValueString: text)
        attribute.renamingIdentifier = old
        return attribute
    }

    /// A version made of `entities`.
    static func version(_ name: String, _ entities: [Entity]) -> ModelVersion {
        ModelVersion(name: name, model: EntityModel(entities: entities))
    }

    /// The inferred mapping between two models made of the given entities.
    static func infer(_ source: [Entity], _ destination: [Entity]) throws -> MappingModel {
        try MappingModel.inferred(from: version("v1", source), to: version("v2", destination))
    }

    /// The error inferring between the two models throws (`nil` when it succeeds).
    static func inferenceError(_ source: [Entity], _ destination: [Entity]) -> MigrationError? {
        do {
            _ = try MappingModel.inferred(
                from: version("v1", source), to: version("v2", destination))
            return nil
        } catch {
            return error
        }
    }

    /// The entity and property a `cannotInferMapping` error names.
    static func place(of error: MigrationError?) -> (entity: String, property: String?)? {
        guard case .cannotInferMapping(let entity, let property, _)? = error else { return nil }
        return (entity, property)
    }

    /// The source property names of an entity mapping's property mappings, by destination name
    /// (`""` when the property is new).
    static func origins(_ mapping: EntityMapping?) -> [String: String] {
        var result: [String: String] = [:]
        for property in (mapping?.attributeMappings ?? []) + (mapping?.relationshipMappings ?? []) {
            result[property.name] = property.sourcePropertyName ?? ""
        }
        return result
    }

    /// `../shared/corpus` (or the folder `OBJECTGRAPH_CORPUS` names), or `nil` when absent.
    static let corpus: URL? = {
        if let path = ProcessInfo.processInfo.environment["OBJECTGRAPH_CORPUS"],
            FileManager.default.fileExists(atPath: path)
        {
            return URL(fileURLWithPath: path)
        }
        return TestSupport.corpus
    }()
}
