import Foundation

/// A data model: entities with their attributes and relationships, fetch request templates and
/// configurations. Immutable and `Sendable`; load it from Xcode's files or build it in code.
///
/// ```swift
/// let model = try EntityModel(contentsOf: URL(fileURLWithPath: "Models/School.xcdatamodeld"))
/// for entity in model.entities { print(entity.name) }
///
/// let built = EntityModel(entities: [
///     Entity("Person", attributes: [Attribute("name", type: .string)])
/// ])
/// ```
public struct EntityModel: Sendable, Hashable {
    /// The entities in file order.
    public let entities: [Entity]
    /// Model-level fetch request templates.
    public let fetchTemplates: [FetchTemplate]
    /// Named configurations.
    public let configurations: [Configuration]
    /// Composite types (Xcode 15).
    public let composites: [Composite]
    /// The version identifier the author set (`userDefinedModelVersionIdentifier`).
    public let versionIdentifier: String?
    /// The `<model>` element's attributes.
    public let header: ModelHeader
    /// The editor's diagram layout (`<elements>`); `nil` when the file has no such block.
    public let layout: [LayoutElement]?
    /// Findings made while reading the file (unknown elements and attributes, lenient readings).
    /// Not part of equality.
    @EqualityIgnored public var loadDiagnostics: [Diagnostic] = []
    /// The file the model was read from, if any. Not part of equality.
    @EqualityIgnored public var sourceFile: String? = nil

    private let indexByName: [String: Int]

    /// Creates a model from its parts.
    public init(
        entities: [Entity], fetchTemplates: [FetchTemplate] = [],
        configurations: [Configuration] = [], composites: [Composite] = [],
        versionIdentifier: String? = "", header: ModelHeader = ModelHeader(),
        layout: [LayoutElement]? = nil
    ) {
        self.entities = entities
        self.fetchTemplates = fetchTemplates
        self.configurations = configurations
        self.composites = composites
        self.versionIdentifier = versionIdentifier
        self.header = header
        self.layout = layout
        var index: [String: Int] = [:]
        for (position, entity) in entities.enumerated() where index[entity.name] == nil {
            index[entity.name] = position
        }
        indexByName = index
    }

    /// The entity named `name` (the first one, if a broken model declares it twice).
    public func entity(named name: String) -> Entity? {
        indexByName[name].map { entities[$0] }
    }

    /// The parent of `entity`, if it has one that exists.
    public func parent(of entity: Entity) -> Entity? {
        entity.parentName.flatMap { self.entity(named: $0) }
    }

    /// `entity` and its ancestors, nearest first. Stops at a cycle or a missing parent.
    public func lineage(of entity: Entity) -> [Entity] {
        var result = [entity]
        var seen: Set<String> = [entity.name]
        var current = entity
        while let parent = parent(of: current), seen.insert(parent.name).inserted {
            result.append(parent)
            current = parent
        }
        return result
    }

    /// The entities whose parent is `entity`, in file order.
    public func subentities(of entity: Entity) -> [Entity] {
        entities.filter { $0.parentName == entity.name }
    }

    /// The attributes of `entity` including inherited ones, ancestors' first.
    public func allAttributes(of entity: Entity) -> [Attribute] {
        lineage(of: entity).reversed().flatMap(\.attributes)
    }

    /// The relationships of `entity` including inherited ones, ancestors' first.
    public func allRelationships(of entity: Entity) -> [Relationship] {
        lineage(of: entity).reversed().flatMap(\.relationships)
    }

    /// The fetch request template named `name`.
    public func fetchTemplate(named name: String) -> FetchTemplate? {
        fetchTemplates.first { $0.name == name }
    }

    /// The configuration named `name`.
    public func configuration(named name: String) -> Configuration? {
        configurations.first { $0.name == name }
    }

    /// Whether two models are equal.
    public static func == (lhs: EntityModel, rhs: EntityModel) -> Bool {
        lhs.entities == rhs.entities && lhs.fetchTemplates == rhs.fetchTemplates
            && lhs.configurations == rhs.configurations && lhs.composites == rhs.composites
            && lhs.versionIdentifier == rhs.versionIdentifier && lhs.header == rhs.header
            && lhs.layout == rhs.layout
    }

    /// Hashes the model's content.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(entities)
        hasher.combine(fetchTemplates)
        hasher.combine(configurations)
        hasher.combine(versionIdentifier)
    }
}
