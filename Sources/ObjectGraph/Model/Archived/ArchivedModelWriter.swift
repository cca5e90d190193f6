import Foundation
import KeyedArchive

/// Writes an ``EntityModel`` as the `NSKeyedArchiver` archive of an `NSManagedObjectModel`
/// that Core Data keeps in a store's `Z_MODELCACHE`, with Core Data's classes and keys: the
/// model (`NSEntities` as an `NSKnownKeysDictionary1`, `NSVersionIdentifiers`,
/// `NSConfigurations`, `NSFetchRequestTemplates`), entities (`NSEntityDescription`), their
/// properties (inherited ones as `_NSPropertyDescriptionProxy`s whose `NSReferenceID` is the
/// property's place in Core Data's order: attributes, to-one, to-many relationships, fetched
/// properties, each the parent's first and then the entity's own by name), fetch indexes and
/// uniqueness constraints.
///
/// Any model is written, valid or not: a missing superentity or destination is written as
/// `nil`, a property name an entity declares twice once, and an inheritance cycle is cut;
/// nothing traps.
struct ArchivedModelWriter {
    var table = ArchiveObjectTable()
    /// The entities, one per name, by name.
    let entities: [Entity]
    let byName: [String: Entity]
    let model: EntityModel
    var entityReferences: [String: PropertyListObject] = [:]
    /// Each entity's properties in Core Data's order, with the entity that declares each.
    var order: [String: [(name: String, owner: String)]] = [:]
    /// The archive objects of the properties each entity declares itself.
    var ownReferences: [String: [String: PropertyListObject]] = [:]

    init(model: EntityModel) {
        self.model = model
        var byName: [String: Entity] = [:]
        for entity in model.entities where byName[entity.name] == nil {
            byName[entity.name] = entity
        }
        self.byName = byName
        entities = byName.values.sorted { $0.name.utf8Less(than: $1.name) }
    }

    /// The archive's bytes.
    mutating func write() -> Data {
        let root = table.reserve()
        for entity in entities {
            entityReferences[entity.name] = table.reserve()
            order[entity.name] = propertyOrder(entity)
        }
        for entity in entities {
            var references: [String: PropertyListObject] = [:]
            for entry in order[entity.name] ?? [] where entry.owner == entity.name {
                references[entry.name] = table.reserve()
            }
            ownReferences[entity.name] = references
        }
        for entity in entities { writeEntity(entity, root: root) }
        writeRoot(root)
        return table.archive(root: root)
    }

    // MARK: Model

    private mutating func writeRoot(_ root: PropertyListObject) {
        let names = entities.map(\.name)
        let values = names.map { entityReferences[$0] ?? ArchiveObjectTable.null }
        let mapping = table.object(
            "NSKnownKeysMappingStrategy1",
            [
                "keys": table.strings(names), "length": .integer(Int64(names.count)),
                "version": .integer(1),
            ])
        let known = table.object(
            "NSKnownKeysDictionary1",
            [
                "values": table.array(values), "searchMapping": mapping,
                "emptyToken": table.string("__empty_slot_token_4c24_98dc_ac1e_b773__"),
                "version": .integer(1),
            ])
        var fields: [String: PropertyListObject] = [
            "NSEntities": known,
            "NSVersionIdentifiers": table.strings([model.versionIdentifier ?? ""], "NSSet"),
            "NSFetchRequestTemplates": fetchTemplates(),
        ]
        if !model.configurations.isEmpty {
            var entries: [(key: String, value: PropertyListObject)] = []
            for configuration in model.configurations {
                let members = configuration.entityNames.compactMap { entityReferences[$0] }
                entries.append((configuration.name, table.array(members, "NSSet")))
            }
            fields["NSConfigurations"] = table.dictionary(entries, "NSMutableDictionary")
        }
        table.fill(root, "NSManagedObjectModel", fields)
    }

    // MARK: Entities

    /// The ancestors of `entity`, parent first, stopping at a missing parent or a cycle.
    func ancestors(of entity: Entity) -> [Entity] {
        var result: [Entity] = []
        var seen: Set<String> = [entity.name]
        var current = entity
        while let name = current.parentName, let parent = byName[name],
            seen.insert(name).inserted
        {
            result.append(parent)
            current = parent
        }
        return result
    }

    /// Core Data's order of the properties of `entity` (inherited ones included): four groups
    /// (attributes, to-one relationships, to-many relationships, fetched properties), each the
    /// ancestors' from the root down, then the entity's own sorted by name. A name met again
    /// keeps its first place.
    private func propertyOrder(_ entity: Entity) -> [(name: String, owner: String)] {
        var groups: [[(name: String, owner: String)]] = [[], [], [], []]
        var seen: Set<String> = []
        for member in ancestors(of: entity).reversed() + [entity] {
            let own: [[String]] = [
                member.attributes.map(\.name),
                member.relationships.filter { !$0.isToMany }.map(\.name),
                member.relationships.filter(\.isToMany).map(\.name),
                member.fetchedProperties.map(\.name),
            ]
            for (group, names) in own.enumerated() {
                for name in names.sorted(by: { $0.utf8Less(than: $1) })
                where seen.insert(name).inserted {
                    groups[group].append((name, member.name))
                }
            }
        }
        return groups.flatMap { $0 }
    }

    /// The archive object of the property `name` of entity `entityName` (declared by it or
    /// inherited), or `$null`.
    func propertyReference(_ entityName: String, _ name: String) -> PropertyListObject {
        guard let entry = order[entityName]?.first(where: { $0.name == name }),
            let reference = ownReferences[entry.owner]?[name]
        else { return ArchiveObjectTable.null }
        return reference
    }

    private mutating func writeEntity(_ entity: Entity, root: PropertyListObject) {
        guard let reference = entityReferences[entity.name] else { return }
        var properties: [(key: String, value: PropertyListObject)] = []
        for (position, entry) in (order[entity.name] ?? []).enumerated() {
            if entry.owner == entity.name {
                properties.append((entry.name, ownReferences[entity.name]?[entry.name] ?? .uid(0)))
            } else {
                let proxy = table.object(
                    "_NSPropertyDescriptionProxy",
                    [
                        "NSEntityDescription": reference,
                        "NSReferenceID": .integer(Int64(position)),
                        "NSUnderlyingProperty": propertyReference(entry.owner, entry.name),
                    ])
                properties.append((entry.name, proxy))
            }
        }
        writeOwnProperties(of: entity, entityReference: reference)
        let children = entities.filter { $0.parentName == entity.name && $0.name != entity.name }
        let parent = ancestors(of: entity).first.flatMap { entityReferences[$0.name] }
        var fields: [String: PropertyListObject] = [
            "NSEntityName": table.string(entity.name),
            "NSClassNameForEntity": table.string(entity.className),
            "NSManagedObjectModel": root,
            "NSSuperentity": parent ?? ArchiveObjectTable.null,
            "NSSubentities": children.isEmpty
                ? ArchiveObjectTable.null
                : table.dictionary(
                    children.map { ($0.name, entityReferences[$0.name] ?? .uid(0)) },
                    "NSMutableDictionary"),
            "NSProperties": table.dictionary(properties, "NSMutableDictionary"),
            "NSUserInfo": userInfo(entity.userInfo),
            "NSVersionHashModifier": table.string(entity.versionHashModifier),
            "NSRenamingIdentifier": table.object(
                "NSMutableString", ["NS.string": .string(entity.renamingIdentifier ?? entity.name)]),
            "NSCompoundIndexes": table.array(
                entity.compoundIndexes.map { table.strings($0, "NSMutableArray") },
                "NSMutableArray"),
            "NSFetchIndexDescriptions": fetchIndexes(entity, reference),
        ]
        if entity.isAbstract { fields["NSIsAbstract"] = .bool(true) }
        if !entity.uniquenessConstraints.isEmpty {
            fields["NSUniqueTuples"] = table.array(
                entity.uniquenessConstraints.map { table.strings($0) })
        }
        table.fill(reference, "NSEntityDescription", fields)
    }

    private mutating func fetchIndexes(_ entity: Entity, _ entityReference: PropertyListObject)
        -> PropertyListObject
    {
        var indexes: [PropertyListObject] = []
        for index in entity.fetchIndexes {
            let reference = table.reserve()
            var elements: [PropertyListObject] = []
            for element in index.elements {
                elements.append(
                    table.object(
                        "NSFetchIndexElementDescription",
                        [
                            "NSPropertyName": table.string(element.property),
                            "NSFetchIndexElementType": .integer(
                                element.type.lowercased() == "rtree" ? 1 : 0),
                            "NSAscending": .bool(element.isAscending),
                            "NSFetchIndexDescription": reference,
                        ]))
            }
            table.fill(
                reference, "NSFetchIndexDescription",
                [
                    "NSIndexName": table.string(index.name),
                    "NSIndexElements": table.array(elements), "NSEntity": entityReference,
                    "NSPartialIndexPredicate": ArchiveObjectTable.null,
                ])
            indexes.append(reference)
        }
        return table.array(indexes, "NSMutableArray")
    }

    /// `NSUserInfo`: a dictionary of strings.
    mutating func userInfo(_ info: UserInfo) -> PropertyListObject {
        var entries: [(key: String, value: PropertyListObject)] = []
        var seen: Set<String> = []
        for entry in info.entries where seen.insert(entry.key).inserted {
            entries.append((entry.key, table.string(entry.value)))
        }
        return table.dictionary(entries)
    }
}

extension EntityModel {
    /// The model as the `NSKeyedArchiver` archive of an `NSManagedObjectModel`, with Core
    /// Data's classes and keys (uncompressed; ``modelCache()`` is what a store keeps).
    ///
    /// ```swift
    /// let archive = model.modelArchive()
    /// try EntityModel(modelArchive: archive, source: "memory").entityVersionHashes
    ///     == model.entityVersionHashes   // true
    /// ```
    public func modelArchive() -> Data {
        var writer = ArchivedModelWriter(model: self)
        return writer.write()
    }

    /// The model as Core Data keeps it in a SQLite store's `Z_MODELCACHE.Z_CONTENT`: the
    /// ``modelArchive()`` compressed as a raw DEFLATE stream. ``init(modelCache:source:)``
    /// reads it back.
    public func modelCache() -> Data {
        RawDeflate.deflate(modelArchive())
    }
}
