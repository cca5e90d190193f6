import Foundation

/// How the objects of one source entity become objects of one destination entity (Core Data's
/// `NSEntityMapping`).
///
/// ```swift
/// let people = EntityMapping(
///     name: "PersonToPerson", kind: .copy, sourceEntityName: "Person",
///     destinationEntityName: "Person",
///     attributeMappings: [PropertyMapping(name: "fullName", valueExpression: try Expression(format: "$source.name"))])
/// ```
public struct EntityMapping: Sendable, Hashable {
    /// What the mapping does (Core Data's `NSEntityMappingType`).
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Creates destination objects that have no source (`NSAddEntityMappingType`).
        case add
        /// Drops the source entity's objects (`NSRemoveEntityMappingType`).
        case remove
        /// Copies objects of an unchanged entity (`NSCopyEntityMappingType`).
        case copy
        /// Transforms objects of a changed entity (`NSTransformEntityMappingType`).
        case transform
        /// Runs a custom policy (`NSCustomEntityMappingType`).
        case custom
        /// Xcode's "Undefined" (`NSUndefinedEntityMappingType`): treated as transform.
        case undefined
    }

    /// The mapping's name (Xcode: `<Source>To<Destination>`, or the destination entity's name).
    public var name: String
    /// What the mapping does.
    public var kind: Kind
    /// The source entity's name (`nil` for ``Kind/add``).
    public var sourceEntityName: String?
    /// The destination entity's name (`nil` for ``Kind/remove``).
    public var destinationEntityName: String?
    /// The source entity's version hash (32 bytes), when the mapping file records it.
    public var sourceEntityVersionHash: Data?
    /// The destination entity's version hash, when recorded.
    public var destinationEntityVersionHash: Data?
    /// The expression that yields the source objects (Core Data's default fetches every object
    /// of the source entity: `FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "E", "TRUEPREDICATE"), $manager.sourceContext, NO)`).
    /// `nil`: every object of ``sourceEntityName``.
    public var sourceExpression: Expression?
    /// Only source objects matching it are migrated (`nil`: all).
    public var filterPredicate: Predicate?
    /// How each destination attribute gets its value.
    public var attributeMappings: [PropertyMapping]
    /// How each destination relationship gets its objects.
    public var relationshipMappings: [PropertyMapping]
    /// The class name of the custom ``EntityMigrationPolicy`` (`nil`: the default policy).
    public var migrationPolicyClassName: String?
    /// The mapping's user info.
    public var userInfo: [String: String]

    /// Creates an entity mapping.
    public init(
        name: String, kind: Kind, sourceEntityName: String? = nil,
        destinationEntityName: String? = nil, sourceEntityVersionHash: Data? = nil,
        destinationEntityVersionHash: Data? = nil, sourceExpression: Expression? = nil,
        filterPredicate: Predicate? = nil, attributeMappings: [PropertyMapping] = [],
        relationshipMappings: [PropertyMapping] = [], migrationPolicyClassName: String? = nil,
        userInfo: [String: String] = [:]
    ) {
        self.name = name
        self.kind = kind
        self.sourceEntityName = sourceEntityName
        self.destinationEntityName = destinationEntityName
        self.sourceEntityVersionHash = sourceEntityVersionHash
        self.destinationEntityVersionHash = destinationEntityVersionHash
        self.sourceExpression = sourceExpression
        self.filterPredicate = filterPredicate
        self.attributeMappings = attributeMappings
        self.relationshipMappings = relationshipMappings
        self.migrationPolicyClassName = migrationPolicyClassName
        self.userInfo = userInfo
    }
}
