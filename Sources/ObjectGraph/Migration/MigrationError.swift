/// Why a migration cannot run or failed. Each case names the store, version, entity, property
/// or objects concerned; nothing is changed on disk when one is thrown.
///
/// ```swift
/// do { try coordinator.addStore(type: .sqlite, at: url) }
/// catch let error as MigrationError { print(error) }   // "cannot infer a mapping for …"
/// ```
public enum MigrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No version of the model matches the store's version hashes; `entities` are the entities
    /// whose hashes differ between the store and the current version.
    case noSourceModel(store: String, entities: [String])
    /// Core Data's "cannot infer a mapping": the change to `entity` (and `property`) is not one
    /// a lightweight migration makes.
    case cannotInferMapping(entity: String, property: String?, reason: String)
    /// A property became required, has no default, and these objects (URIs or keys) hold nil.
    case missingRequiredValues(entity: String, property: String, objects: [String])
    /// A new uniqueness constraint is broken by existing objects.
    case uniquenessViolated(entity: String, properties: [String], objects: [String])
    /// No mapping model, stage or inference leads from `from` to `to`.
    case noMigrationPath(from: String, to: String)
    /// A mapping model file cannot be read (the path, and where in it).
    case unreadableMappingModel(path: String, reason: String)
    /// A mapping names a migration policy class that is not registered.
    case unknownMigrationPolicy(className: String, mapping: String)
    /// Evaluating a mapping's expression failed.
    case expressionFailed(mapping: String, property: String?, reason: String)
    /// A value cannot be converted to the destination attribute's type.
    case cannotConvertValue(entity: String, property: String, reason: String)
    /// A custom stage's handler or a migration policy threw.
    case stageFailed(stage: String, reason: String)

    /// The error in one line.
    public var description: String {
        switch self {
        case .noSourceModel(let store, let entities):
            return "\(store): no model version matches the store; entities that differ from the"
                + " current version: \(entities.joined(separator: ", "))"
        case .cannotInferMapping(let entity, let property, let reason):
            let place = property.map { "\(entity).\($0)" } ?? entity
            return "cannot infer a mapping for \(place): \(reason)"
        case .missingRequiredValues(let entity, let property, let objects):
            return "\(entity).\(property) is now required and has no default, but these objects"
                + " have none: \(objects.joined(separator: ", "))"
        case .uniquenessViolated(let entity, let properties, let objects):
            return
                "\(entity): the new uniqueness constraint (\(properties.joined(separator: ", ")))"
                + " is broken by \(objects.joined(separator: ", "))"
        case .noMigrationPath(let from, let to):
            return "no mapping model, stage or inferred mapping leads from \(from) to \(to)"
        case .unreadableMappingModel(let path, let reason):
            return "\(path): \(reason)"
        case .unknownMigrationPolicy(let className, let mapping):
            return "mapping \(mapping) names migration policy \(className), which is not registered"
        case .expressionFailed(let mapping, let property, let reason):
            let place = property.map { "\(mapping).\($0)" } ?? mapping
            return "\(place): \(reason)"
        case .cannotConvertValue(let entity, let property, let reason):
            return "\(entity).\(property): \(reason)"
        case .stageFailed(let stage, let reason):
            return "migration stage \(stage): \(reason)"
        }
    }
}
