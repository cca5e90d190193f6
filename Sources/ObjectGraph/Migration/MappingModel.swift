import Foundation

/// How the objects of one model version become objects of another (Core Data's
/// `NSMappingModel`): one ``EntityMapping`` per destination entity filled (and per source entity
/// dropped), read from an Xcode `.xcmappingmodel` or inferred from the two models.
///
/// ```swift
/// let mapping = try MappingModel.inferred(from: version1, to: version2)
/// for line in mapping.changeDescriptions { print(line) }   // "Mood: add attribute rating …"
/// ```
public struct MappingModel: Sendable, Hashable {
    /// The source model's version name (`Model 2` for `Model 2.xcdatamodel`), when known.
    public var sourceVersionName: String?
    /// The destination model's version name, when known.
    public var destinationVersionName: String?
    /// The model the objects are read with.
    public var sourceModel: EntityModel
    /// The model the objects are written with.
    public var destinationModel: EntityModel
    /// The entity mappings, in the order they run.
    public var entityMappings: [EntityMapping]
    /// Whether the mapping was inferred from the two models (every entity mapping then copies,
    /// adds or removes, with plain `$source.<name>` value expressions).
    public var isInferred: Bool
    /// Where the mapping was read from (an `.xcmappingmodel` folder), when it was read.
    public var sourceFile: String?

    /// Creates a mapping model.
    public init(
        sourceVersionName: String? = nil, destinationVersionName: String? = nil,
        sourceModel: EntityModel, destinationModel: EntityModel,
        entityMappings: [EntityMapping], isInferred: Bool = false, sourceFile: String? = nil
    ) {
        self.sourceVersionName = sourceVersionName
        self.destinationVersionName = destinationVersionName
        self.sourceModel = sourceModel
        self.destinationModel = destinationModel
        self.entityMappings = entityMappings
        self.isInferred = isInferred
        self.sourceFile = sourceFile
    }

    /// The entity mapping named `name`.
    public func entityMapping(named name: String) -> EntityMapping? {
        entityMappings.first { $0.name == name }
    }
}
