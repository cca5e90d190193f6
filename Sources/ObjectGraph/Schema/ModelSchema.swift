import Foundation
import Synchronization

/// The runtime form of an ``EntityModel``: every entity with its full property list (inherited
/// properties first) laid out by position, relationships resolved to entity indexes. Built once
/// per coordinator; immutable and shared by every context and store.
final class ModelSchema: Sendable {
    /// Whether any entity has a uniqueness constraint (saves check them only then).
    var hasUniquenessConstraints: Bool {
        entities.contains { !$0.entity.uniquenessConstraints.isEmpty }
    }

    /// The model it was built from.
    let model: EntityModel
    /// One schema per entity, in model order.
    let entities: [EntitySchema]
    private let indexByName: [String: Int]

    init(model: EntityModel) {
        self.model = model
        var indexByName: [String: Int] = [:]
        for (index, entity) in model.entities.enumerated() where indexByName[entity.name] == nil {
            indexByName[entity.name] = index
        }
        self.indexByName = indexByName
        var schemas: [EntitySchema] = []
        for (index, entity) in model.entities.enumerated() {
            schemas.append(
                EntitySchema(index: index, entity: entity, model: model, indexes: indexByName))
        }
        entities = schemas
    }

    /// The schema of the entity named `name`.
    func entity(named name: String) -> EntitySchema? {
        indexByName[name].map { entities[$0] }
    }

    /// The schema of the entity named `name`, or a thrown error naming it.
    func requireEntity(named name: String) throws -> EntitySchema {
        guard let schema = entity(named: name) else {
            throw ObjectGraphError.unknownEntity(name)
        }
        return schema
    }

    /// Whether `entity` is `ancestor` or one of its descendants.
    func entity(_ entity: EntitySchema, isKindOf ancestor: EntitySchema) -> Bool {
        var current: EntitySchema? = entity
        var steps = 0
        while let candidate = current, steps <= entities.count {
            if candidate.index == ancestor.index { return true }
            current = candidate.parentIndex.map { entities[$0] }
            steps += 1
        }
        return false
    }

    /// `entity` and all its descendants (the entities a fetch with subentities covers).
    func family(of entity: EntitySchema) -> [EntitySchema] {
        entities.filter { self.entity($0, isKindOf: entity) }
    }

    /// The root of `entity`'s inheritance tree.
    func root(of entity: EntitySchema) -> EntitySchema {
        var current = entity
        var steps = 0
        while let parent = current.parentIndex, steps <= entities.count {
            current = entities[parent]
            steps += 1
        }
        return current
    }
}

/// One entity at run time.
@usableFromInline
final class EntitySchema: Sendable {
    /// The entity's position in the model.
    let index: Int
    /// The entity as declared.
    let entity: Entity
    /// The parent entity's index.
    let parentIndex: Int?
    /// Every property, inherited ones first, in declaration order.
    let properties: [PropertySchema]
    /// Positions of properties by name.
    let positionByName: [String: Int]
    /// The positions of the attributes.
    let attributePositions: [Int]
    /// The positions of the relationships.
    let relationshipPositions: [Int]
    /// Per position: the property's name (cheap to read on hot paths).
    let names: [String]
    /// Per position: the UTF-8 length of the property's name (for ``position(of:)``).
    let nameLengths: [Int]
    /// Per position: the name's two words as stored (for ``position(of:)``): a key equal to
    /// them bit for bit is that very string (a short name is stored inline, so a literal key
    /// matches its property's name this way without comparing text).
    let nameBits: [StringBits]
    /// The space of this entity's temporary object IDs.
    let temporarySpace: ObjectIDSpace
    /// Per position: whether the property is transient.
    let isTransient: [Bool]
    /// Per position: whether it is an ordered to-many relationship.
    let isOrdered: [Bool]
    /// Per position: what kind of property it is.
    let kinds: [PropertyKind]
    /// How many slots an object of the entity has (one per property).
    @usableFromInline let slotCount: Int
    /// Per position: the attribute's type (`nil` for relationships).
    let attributeTypes: [AttributeType?]
    /// The default value of every attribute (read and converted once), by position.
    let defaultValues: [(position: Int, value: Value)]
    /// Per position: whether the model gives the property validation rules (required, ranges,
    /// lengths, patterns, predicates, counts).
    let hasValidationRules: [Bool]
    /// The positions of the properties with validation rules (transient ones too: Core Data
    /// validates them); the others need no check of the model's rules at save.
    let validatedPositions: [Int]

    /// A number no other entity schema of this process has (see ``TypedProperty``, which
    /// caches a property's position per schema by it).
    @usableFromInline let token: UInt64 = EntitySchemaTokens.next()

    var name: String { entity.name }

    init(index: Int, entity: Entity, model: EntityModel, indexes: [String: Int]) {
        self.index = index
        self.entity = entity
        parentIndex = entity.parentName.flatMap { indexes[$0] }
        var properties: [PropertySchema] = []
        var positions: [String: Int] = [:]
        var attributePositions: [Int] = []
        var relationshipPositions: [Int] = []
        for declaring in model.lineage(of: entity).reversed() {
            for attribute in declaring.attributes where positions[attribute.name] == nil {
                positions[attribute.name] = properties.count
                attributePositions.append(properties.count)
                properties.append(.attribute(attribute))
            }
            for relationship in declaring.relationships where positions[relationship.name] == nil {
                positions[relationship.name] = properties.count
                relationshipPositions.append(properties.count)
                let destination = indexes[relationship.destinationEntityName]
                properties.append(
                    .relationship(
                        RelationshipSchema(
                            relationship: relationship, destinationIndex: destination)))
            }
        }
        self.properties = properties
        names = properties.map(\.name)
        nameLengths = names.map(\.utf8.count)
        nameBits = names.compactMap(StringBits.init)
        temporarySpace = .named(entity.name, storeIdentifier: "")
        isTransient = properties.map(\.isTransient)
        isOrdered = properties.map {
            if case .relationship(let relationship) = $0 {
                return relationship.relationship.isOrdered
            }
            return false
        }
        slotCount = properties.count
        kinds = properties.map {
            guard case .relationship(let relationship) = $0 else { return .attribute }
            return relationship.isToMany ? .toMany : .toOne
        }
        attributeTypes = properties.map {
            if case .attribute(let attribute) = $0 { return attribute.type }
            return nil
        }
        defaultValues = properties.indices.compactMap { position in
            guard case .attribute(let attribute) = properties[position] else { return nil }
            let value =
                (try? attribute.coerce(attribute.defaultValue, entity: entity.name)) ?? .null
            return (position, value)
        }
        let hasRules = properties.map { property in
            switch property {
            case .attribute(let attribute): return attribute.hasValidationRules
            case .relationship(let relationship):
                return relationship.relationship.hasValidationRules
            }
        }
        hasValidationRules = hasRules
        validatedPositions = properties.indices.filter { hasRules[$0] }
        positionByName = positions
        self.attributePositions = attributePositions
        self.relationshipPositions = relationshipPositions
    }

    /// The position of the property named `name`, or a thrown error naming entity and property.
    func position(of name: String) throws -> Int {
        // Most entities have a handful of properties: comparing representations, then UTF-8
        // lengths and the few names of the same length, beats hashing the name.
        if names.count <= 24 {
            if let bits = StringBits(name) {
                for position in nameBits.indices where nameBits[position] == bits {
                    return position
                }
            }
            let length = name.utf8.count
            for position in nameLengths.indices where nameLengths[position] == length {
                if names[position] == name { return position }
            }
            // Text equal to a name in another Unicode form (decomposed accents) has another
            // length: found as the dictionary of a larger entity finds it (Swift strings are
            // equal when canonically equivalent).
            if let position = names.firstIndex(of: name) { return position }
        } else if let position = positionByName[name] {
            return position
        }
        throw ObjectGraphError.unknownProperty(entity: entity.name, property: name)
    }
}

/// One property at run time.
enum PropertySchema: Sendable {
    case attribute(Attribute)
    case relationship(RelationshipSchema)

    var name: String {
        switch self {
        case .attribute(let attribute): return attribute.name
        case .relationship(let relationship): return relationship.relationship.name
        }
    }

    var isTransient: Bool {
        switch self {
        case .attribute(let attribute): return attribute.isTransient
        case .relationship(let relationship): return relationship.relationship.isTransient
        }
    }
}

/// A relationship with its destination resolved.
/// (A class: relationship paths look it up on every change, and a reference is one retain
/// where copying the declared relationship's strings is many.)
final class RelationshipSchema: Sendable {
    let relationship: Relationship
    /// The destination entity's index, or `nil` when the model names an unknown entity.
    let destinationIndex: Int?

    init(relationship: Relationship, destinationIndex: Int?) {
        self.relationship = relationship
        self.destinationIndex = destinationIndex
    }

    var isToMany: Bool { relationship.isToMany }
    var inverseName: String? { relationship.inverseName }
}

/// Hands out ``EntitySchema/token``s: never 0, never twice in a process.
enum EntitySchemaTokens {
    private static let counter = Atomic<UInt64>(0)

    static func next() -> UInt64 {
        counter.wrappingAdd(1, ordering: .relaxed).newValue
    }
}
