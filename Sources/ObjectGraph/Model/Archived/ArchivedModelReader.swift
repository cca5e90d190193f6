import Foundation
import KeyedArchive

/// Reads the `NSManagedObjectModel` of an inflated model cache into an ``EntityModel``, one
/// archive object at a time, never trusting it: every field is checked for its kind, every
/// error names the source and the archive object, and the reads are counted against a budget
/// proportional to the archive's size, so objects shared many times over cannot make the work
/// grow faster than the input.
struct ArchivedModelReader {
    /// The store (or file) the cache came from, for errors.
    let source: String
    /// The reads left before the archive counts as hostile.
    var budget: Int
    /// Warnings about parts left out (predicates ObjectGraph has no form for).
    var diagnostics: [Diagnostic] = []

    init(source: String, objectCount: Int) {
        self.source = source
        budget = 16 * objectCount + 100_000
    }

    /// The model the archive's root describes.
    mutating func model(from archive: KeyedArchive) throws(ArchivedModelError) -> EntityModel {
        let rootValue: ArchivedValue
        do { rootValue = try archive.rootValue() } catch {
            throw .archive(source: source, reason: error.description)
        }
        guard let root = rootValue.object else {
            throw .archive(source: source, reason: "the root is not an object")
        }
        guard root.isKind(of: "NSManagedObjectModel") else {
            throw failure(root, "the root is not an NSManagedObjectModel")
        }
        var entities: [Entity] = []
        var seen: Set<String> = []
        for object in try entityObjects(of: root) {
            let entity = try self.entity(object)
            guard seen.insert(entity.name).inserted else {
                throw failure(object, "a second entity named \"\(entity.name)\"")
            }
            entities.append(entity)
        }
        entities.sort { $0.name.utf8Less(than: $1.name) }
        try checkInheritance(entities, root)
        let identifiers = try strings(root, "NSVersionIdentifiers").sorted { $0.utf8Less(than: $1) }
        var model = EntityModel(
            entities: entities, fetchTemplates: try fetchTemplates(root),
            configurations: try configurations(root), versionIdentifier: identifiers.first ?? "")
        model.loadDiagnostics = diagnostics
        return model
    }

    // MARK: Entities

    /// The entity objects of the model's `NSEntities` (an `NSKnownKeysDictionary1` or a plain
    /// dictionary).
    private mutating func entityObjects(of root: ArchivedObject) throws(ArchivedModelError)
        -> [ArchivedObject]
    {
        let values = try dictionaryValues(root, "NSEntities")
        var result: [ArchivedObject] = []
        for value in values {
            guard let object = value.object else { continue }
            guard object.isKind(of: "NSEntityDescription") else {
                throw failure(root, "NSEntities holds a \(object.className), not an entity")
            }
            result.append(object)
        }
        return result
    }

    private mutating func entity(_ object: ArchivedObject) throws(ArchivedModelError) -> Entity {
        guard let name = try string(object, "NSEntityName"), !name.isEmpty else {
            throw failure(object, "an entity without an NSEntityName")
        }
        var entity = Entity(name)
        entity.className = try string(object, "NSClassNameForEntity")
        if entity.className == "NSManagedObject" { entity.className = nil }
        entity.isAbstract = try bool(object, "NSIsAbstract") ?? false
        if let parent = try objectField(object, "NSSuperentity") {
            guard parent.isKind(of: "NSEntityDescription"),
                let parentName = try string(parent, "NSEntityName")
            else { throw failure(object, "NSSuperentity is not a named entity") }
            entity.parentName = parentName
        }
        entity.versionHashModifier = try string(object, "NSVersionHashModifier")
        entity.renamingIdentifier = try string(object, "NSRenamingIdentifier")
        if entity.renamingIdentifier == name { entity.renamingIdentifier = nil }
        entity.userInfo = try userInfo(object)
        entity.uniquenessConstraints = try nameLists(object, "NSUniqueTuples")
        entity.compoundIndexes = try nameLists(object, "NSCompoundIndexes")
        entity.fetchIndexes = try fetchIndexes(object)
        for property in try ownProperties(of: object) {
            if property.isKind(of: "NSRelationshipDescription") {
                entity.relationships.append(try relationship(property))
            } else if property.isKind(of: "NSAttributeDescription") {
                entity.attributes.append(try attribute(property))
            } else if property.isKind(of: "NSFetchedPropertyDescription") {
                entity.fetchedProperties.append(try fetchedProperty(property))
            }
        }
        entity.attributes.sort { $0.name.utf8Less(than: $1.name) }
        entity.relationships.sort { $0.name.utf8Less(than: $1.name) }
        entity.fetchedProperties.sort { $0.name.utf8Less(than: $1.name) }
        return entity
    }

    /// The properties the entity declares itself: inherited ones are archived as
    /// `_NSPropertyDescriptionProxy`s, or as the parent's own objects (whose `NSEntity` is the
    /// parent).
    private mutating func ownProperties(of entity: ArchivedObject) throws(ArchivedModelError)
        -> [ArchivedObject]
    {
        var result: [ArchivedObject] = []
        var names: Set<String> = []
        for value in try dictionaryValues(entity, "NSProperties") {
            guard let property = value.object else {
                throw failure(entity, "NSProperties holds a value that is not a property")
            }
            guard
                property.isKind(of: "NSAttributeDescription")
                    || property.isKind(of: "NSRelationshipDescription")
                    || property.isKind(of: "NSFetchedPropertyDescription")
            else { continue }
            if let owner = try objectField(property, "NSEntity"), owner.index != entity.index {
                continue
            }
            guard let name = try string(property, "NSPropertyName"), !name.isEmpty else {
                throw failure(property, "a property without an NSPropertyName")
            }
            guard names.insert(name).inserted else {
                throw failure(property, "a second property named \"\(name)\"")
            }
            result.append(property)
        }
        return result
    }

    private mutating func fetchIndexes(_ entity: ArchivedObject) throws(ArchivedModelError)
        -> [FetchIndex]
    {
        var result: [FetchIndex] = []
        for value in try list(entity, "NSFetchIndexDescriptions") {
            guard let index = value.object, index.isKind(of: "NSFetchIndexDescription") else {
                throw failure(
                    entity, "NSFetchIndexDescriptions holds something other than an index")
            }
            guard let name = try string(index, "NSIndexName") else {
                throw failure(index, "a fetch index without an NSIndexName")
            }
            var elements: [FetchIndex.Element] = []
            for elementValue in try list(index, "NSIndexElements") {
                guard let element = elementValue.object else {
                    throw failure(index, "NSIndexElements holds something other than an element")
                }
                let property: String
                if let text = try string(element, "NSPropertyName") {
                    property = text
                } else if let described = try objectField(element, "NSProperty"),
                    let text = try string(described, "NSPropertyName")
                {
                    property = text
                } else {
                    throw failure(element, "an index element without a property name")
                }
                let type = try integer(element, "NSFetchIndexElementType") ?? 0
                elements.append(
                    FetchIndex.Element(
                        property: property, type: type == 1 ? "RTree" : "Binary",
                        isAscending: try bool(element, "NSAscending") ?? true))
            }
            result.append(FetchIndex(name, elements: elements))
        }
        return result
    }

    private mutating func configurations(_ root: ArchivedObject) throws(ArchivedModelError)
        -> [Configuration]
    {
        guard case .dictionary(let entries)? = try field(root, "NSConfigurations") else {
            return []
        }
        var result: [Configuration] = []
        for (key, value) in entries {
            guard let name = key.string else {
                throw failure(root, "NSConfigurations has a key that is not a string")
            }
            guard name != "PF_DEFAULT_CONFIGURATION_NAME" else { continue }
            var names: [String] = []
            for member in value.elements ?? [] {
                try spend(1, root)
                guard let entity = member.object,
                    let entityName = try string(entity, "NSEntityName")
                else {
                    throw failure(
                        root, "configuration \"\(name)\" lists something other than an entity")
                }
                names.append(entityName)
            }
            result.append(Configuration(name, entities: names.sorted { $0.utf8Less(than: $1) }))
        }
        return result.sorted { $0.name.utf8Less(than: $1.name) }
    }

    /// Refuses a superentity that is missing from the model or an inheritance cycle.
    private func checkInheritance(_ entities: [Entity], _ root: ArchivedObject)
        throws(ArchivedModelError)
    {
        // `String?` values: a root entity maps to `nil` but is still a key (assigning `nil`
        // through a `[String: String]` subscript would remove it, and its children would seem
        // to inherit from an entity the model lacks).
        var parents: [String: String?] = [:]
        for entity in entities { parents.updateValue(entity.parentName, forKey: entity.name) }
        for entity in entities {
            var current = entity.parentName
            var steps = 0
            while let name = current {
                guard let parent = parents[name] else {
                    throw failure(
                        root,
                        "entity \"\(entity.name)\" inherits from \"\(name)\", which the model lacks"
                    )
                }
                steps += 1
                guard steps <= entities.count else {
                    throw failure(root, "entity \"\(entity.name)\" is in an inheritance cycle")
                }
                current = parent
            }
        }
    }
}
