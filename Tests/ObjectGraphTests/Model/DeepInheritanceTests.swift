import Foundation
import Testing

@testable import ObjectGraph

/// Deep inheritance chains load, validate and hash in linear time without exhausting the
/// stack, and the linear hashing and lineage answers equal the recursive definitions.
@Suite("Deep inheritance")
struct DeepInheritanceTests {
    /// The `contents` XML of a chain E0 <- E1 <- … <- E(depth-1), written deepest first: every
    /// tenth entity declares `a<i>`, every entity but the root a uniqueness constraint and a
    /// fetch index on the root's `a0`, and every 250th a to-one `up<i>` to the root, whose
    /// inverse `down<i>` the root declares.
    static func chainXML(depth: Int) -> String {
        var xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">

            """
        let linked = stride(from: 250, to: depth, by: 250)
        for index in (0..<depth).reversed() {
            let parent = index > 0 ? " parentEntity=\"E\(index - 1)\"" : ""
            xml += "<entity name=\"E\(index)\"\(parent) syncable=\"YES\">\n"
            if index % 10 == 0 {
                xml += "<attribute name=\"a\(index)\" optional=\"YES\" attributeType=\"String\"/>\n"
            }
            let pairs = index == 0 ? linked.map { ("down", "up", $0) } : [("up", "down", index)]
            for (name, inverse, other) in pairs where index == 0 || index % 250 == 0 {
                let destination = index == 0 ? "E\(other)" : "E0"
                xml += """
                    <relationship name="\(name)\(other)" optional="YES" maxCount="1" \
                    deletionRule="Nullify" destinationEntity="\(destination)" \
                    inverseName="\(inverse)\(other)" inverseEntity="\(destination)"/>

                    """
            }
            if index > 0 {
                xml += """
                    <uniquenessConstraints><uniquenessConstraint><constraint value="a0"/>\
                    </uniquenessConstraint></uniquenessConstraints>
                    <fetchIndex name="byRoot\(index)"><fetchIndexElement property="a0" \
                    type="Binary" order="ascending"/></fetchIndex>

                    """
            }
            xml += "</entity>\n"
        }
        return xml + "</model>\n"
    }

    /// Loads the chain from a real file.
    static func loadChain(depth: Int) throws -> EntityModel {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let file = folder.appendingPathComponent("Chain.xcdatamodel")
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
        try Data(chainXML(depth: depth).utf8).write(to: file.appendingPathComponent("contents"))
        return try EntityModel(contentsOf: file)
    }

    @Test("a 5,000-deep chain loads, validates and hashes, consistently with a short chain")
    func fiveThousandDeepChain() throws {
        let model = try Self.loadChain(depth: 5_000)
        #expect(model.entities.count == 5_000)
        #expect(model.validate().filter { $0.severity == .error }.isEmpty)
        let hashes = model.entityVersionHashes
        #expect(hashes.count == 5_000)
        #expect(Set(hashes.values).count == 5_000)
        #expect(
            model.versionHash(of: try #require(model.entity(named: "E1000"))) == hashes["E1000"])
        // An entity's hash depends only on its lineage: the top of the deep chain hashes as
        // the same entities alone.
        let short = EntityModel(
            entities: model.entities.filter { ["E0", "E1", "E2", "E3"].contains($0.name) })
        let shortHashes = short.entityVersionHashes
        for name in ["E0", "E1", "E2", "E3"] {
            #expect(shortHashes[name] == hashes[name], "\(name)")
        }
        // Deep down, the linear hashing still equals the recursive definition.
        #expect(ReferenceHashes(model: model).hash(of: "E40") == hashes["E40"])
    }

    @Test("version hashes equal the recursive definition, broken hierarchies included")
    func hashesEqualTheRecursiveDefinition() {
        var generator = SeededGenerator(seed: 15)
        for _ in 0..<400 {
            let model = RandomModel.make(using: &generator)
            let hashes = model.entityVersionHashes
            let reference = ReferenceHashes(model: model)
            #expect(hashes == reference.all(), "\(model.entities.map(\.name))")
            for entity in model.entities {
                // A later declaration of a repeated name whose ancestors lead back to that
                // name hashes the first declaration as its parent in the recursive definition
                // while taking none of its properties; the linear hashing stops at the name.
                let first = model.entity(named: entity.name) == entity
                let returns =
                    model.parent(of: entity).map { parent in
                        model.lineage(of: parent).contains { $0.name == entity.name }
                    } ?? false
                guard first || !returns else { continue }
                #expect(model.versionHash(of: entity) == reference.single(entity))
            }
        }
    }

    @Test("constant-time lineage answers equal walking up the parents")
    func lineageAnswersEqualTheWalk() {
        var generator = SeededGenerator(seed: 9)
        for _ in 0..<400 {
            let model = RandomModel.make(using: &generator)
            let validator = ModelValidator(model: model)
            let names = RandomModel.propertyNames + ["missing"]
            for entity in model.entities {
                for name in names {
                    let walked = validator.firstInLineage(of: entity) { member in
                        DeclaredProperty.declared(in: member).first { $0.name == name }
                    }
                    let found = validator.inheritedProperty(named: name, in: entity)
                    #expect(found.map { "\($0)" } == walked.map { "\($0)" })
                    let relationship = validator.firstInLineage(of: entity) {
                        $0.relationship(named: name)
                    }
                    #expect(
                        validator.inheritedRelationship(named: name, in: entity) == relationship)
                }
                for other in RandomModel.entityNames {
                    let walked =
                        validator.firstInLineage(of: entity) { $0.name == other ? true : nil }
                        ?? false
                    #expect(validator.isSelfOrAncestor(other, of: entity) == walked)
                }
            }
        }
    }
}

/// The version hashes as first written: recursive, each entity's lineage gathered and sorted
/// (quadratic, kept here as the definition the linear hashing must equal).
struct ReferenceHashes {
    let model: EntityModel

    func all() -> [String: Data] {
        var cache: [String: Data] = [:]
        for entity in model.entities { _ = hash(entity, cache: &cache, visiting: []) }
        return cache
    }

    func single(_ entity: Entity) -> Data {
        var cache: [String: Data] = [:]
        return hash(entity, cache: &cache, visiting: [])
    }

    func hash(of name: String) -> Data? {
        model.entity(named: name).map(single)
    }

    private func hash(_ entity: Entity, cache: inout [String: Data], visiting: Set<String>) -> Data
    {
        if let known = cache[entity.name] { return known }
        var parentHash: Data?
        if let parent = model.parent(of: entity), !visiting.contains(parent.name) {
            parentHash = hash(parent, cache: &cache, visiting: visiting.union([entity.name]))
        }
        var properties: [(name: String, hash: Data)] = []
        for ancestor in model.lineage(of: entity) {
            properties += VersionHashRecipe.declaredProperties(of: ancestor)
        }
        properties.sort { $0.name.utf8Less(than: $1.name) }
        let result = VersionHashRecipe.entity(entity, parentHash: parentHash) { bytes in
            for property in properties { bytes.append(contentsOf: property.hash) }
        }
        cache[entity.name] = result
        return result
    }
}

/// Small random models with every kind of broken hierarchy: unknown parents, entities that
/// are their own parent, cycles, repeated entity names and redeclared property names.
enum RandomModel {
    static let entityNames = ["A", "B", "C", "D", "E", "F", "G"]
    static let propertyNames = ["p", "q", "r", "s", "Z", "_"]

    static func make(using generator: inout SeededGenerator) -> EntityModel {
        let count = Int.random(in: 1...9, using: &generator)
        var entities: [Entity] = []
        for _ in 0..<count {
            let name = entityNames.randomElement(using: &generator) ?? "A"
            let parent =
                Bool.random(using: &generator)
                ? (entityNames + ["Missing"]).randomElement(using: &generator) : nil
            var entity = Entity(
                name, parent: parent, isAbstract: Bool.random(using: &generator))
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                let property = propertyNames.randomElement(using: &generator) ?? "p"
                if Bool.random(using: &generator) {
                    entity.attributes.append(
                        Attribute(
                            property, type: .integer64,
                            isTransient: Int.random(in: 0..<5, using: &generator) == 0))
                } else {
                    let destination = entityNames.randomElement(using: &generator) ?? "A"
                    entity.relationships.append(
                        Relationship(
                            property, destination: destination,
                            toMany: Bool.random(using: &generator),
                            inverse: Bool.random(using: &generator) ? property : nil))
                }
            }
            if Bool.random(using: &generator) { entity.uniquenessConstraints = [["p", "q"]] }
            entities.append(entity)
        }
        return EntityModel(entities: entities)
    }
}
