import Foundation
import Testing

@testable import ObjectGraph

/// The Core Data XML stores of the corpus: Xcode's mapping models (`xcmapping.xml`).
@Suite("XML stores from the corpus")
struct XMLStoreCorpusTests {
    /// Every `xcmapping.xml` of the corpus, sorted.
    static func files() -> [URL] {
        guard let corpus = TestSupport.corpus else { return [] }
        let base = corpus.appendingPathComponent("coredata-stores")
        guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
        var result: [URL] = []
        while let next = walker.nextObject() as? String {
            if next.hasSuffix("xcmapping.xml") { result.append(base.appendingPathComponent(next)) }
        }
        return result.sorted { $0.path < $1.path }
    }

    /// Xcode's mapping-model entities as the files use them (names in Xcode's camel case: the
    /// files write them upper- and lower-cased).
    static func mappingModel() -> EntityModel {
        var mapping = Entity("XDDevMappingModel")
        mapping.attributes = [
            Attribute("sourceModelPath", type: .string),
            Attribute("sourceModelData", type: .binary),
            Attribute("destinationModelPath", type: .string),
            Attribute("destinationModelData", type: .binary),
        ]
        mapping.relationships = [
            Relationship(
                "entityMappings", destination: "XDDevEntityMapping", toMany: true,
                inverse: "mappingModel", deleteRule: .cascade)
        ]
        var entity = Entity("XDDevEntityMapping")
        entity.attributes = [
            Attribute("migrationPolicyClassName", type: .string),
            Attribute("sourceName", type: .string),
            Attribute("mappingTypeName", type: .string),
            Attribute("mappingNumber", type: .integer16),
            Attribute("destinationName", type: .string),
            Attribute("autogenerateExpression", type: .boolean),
        ]
        entity.relationships = [
            Relationship(
                "mappingModel", destination: "XDDevMappingModel", inverse: "entityMappings"),
            Relationship(
                "attributeMappings", destination: "XDDevAttributeMapping", toMany: true,
                inverse: "entityMapping", deleteRule: .cascade),
            Relationship(
                "relationshipMappings", destination: "XDDevRelationshipMapping", toMany: true,
                inverse: "entityMapping", deleteRule: .cascade),
        ]
        var property = Entity("XDDevPropertyMapping")
        property.isAbstract = true
        property.attributes = [
            Attribute("name", type: .string), Attribute("valueExpressionData", type: .binary),
        ]
        var attribute = Entity("XDDevAttributeMapping", parent: "XDDevPropertyMapping")
        attribute.relationships = [
            Relationship(
                "entityMapping", destination: "XDDevEntityMapping", inverse: "attributeMappings")
        ]
        var relationship = Entity("XDDevRelationshipMapping", parent: "XDDevPropertyMapping")
        relationship.relationships = [
            Relationship(
                "entityMapping", destination: "XDDevEntityMapping", inverse: "relationshipMappings")
        ]
        return EntityModel(entities: [mapping, entity, property, attribute, relationship])
    }

    static func read(_ url: URL) throws -> (AtomicStoreContents, ModelSchema) {
        let schema = ModelSchema(model: mappingModel())
        let contents = try XMLStoreFormat().read(
            try Data(contentsOf: url), path: url.path, schema: schema)
        return (contents, schema)
    }

    /// The value of attribute `name` of `row`.
    static func value(_ row: StoreRow, _ name: String, _ schema: ModelSchema) -> Value? {
        guard let position = schema.entities[row.entityIndex].positionByName[name],
            case .value(let value) = row.values[position]
        else { return nil }
        return value
    }

    static func targets(_ row: StoreRow, _ name: String, _ schema: ModelSchema) -> [ObjectID] {
        guard let position = schema.entities[row.entityIndex].positionByName[name] else {
            return []
        }
        switch row.values[position] {
        case .toOne(let id): return id.map { [$0] } ?? []
        case .toMany(let ids): return ids ?? []
        case .value: return []
        }
    }

    @Test("every corpus XML store reads completely, both sides of every relationship agreeing")
    func readsEveryFile() throws {
        let files = Self.files()
        guard TestSupport.hasCorpus else { return }
        #expect(files.count >= 2)
        for url in files {
            let (contents, schema) = try Self.read(url)
            let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
            #expect(
                contents.rows.count == text.components(separatedBy: "<object ").count - 1,
                "\(url.lastPathComponent)")
            #expect(contents.metadata.frameworkVersion == 977)
            #expect(contents.metadata.versionHashes.count == 5)
            #expect(contents.metadata.versionHashes["XDDevMappingModel"]?.count == 32)
            #expect(contents.metadata.storeType == "XML")
            #expect(contents.metadata.versionIdentifiers == [""])
            let byID = Dictionary(uniqueKeysWithValues: contents.rows.map { ($0.id, $0) })
            for row in contents.rows {
                #expect(row.id.storeIdentifier == contents.metadata.storeUUID)
                for name in [
                    "entityMappings", "attributeMappings", "mappingModel", "entityMapping",
                ] {
                    for target in Self.targets(row, name, schema) {
                        let other = try #require(byID[target])
                        let inverse = [
                            "entityMappings": "mappingModel", "mappingModel": "entityMappings",
                            "attributeMappings": "entityMapping",
                            "entityMapping": "attributeMappings",
                        ][name]
                        #expect(Self.targets(other, inverse ?? "", schema).contains(row.id))
                    }
                }
            }
            // Written again and read back: the same graph.
            let written = try XMLStoreFormat().write(contents, schema: schema)
            let again = try XMLStoreFormat().read(written, path: url.path, schema: schema)
            #expect(Set(again.rows) == Set(contents.rows))
            #expect(again.metadata == contents.metadata)
        }
    }

    @Test("values of the V2-from-V1 mapping model")
    func values() throws {
        guard let url = Self.files().first(where: { $0.path.contains("V2.FromV1") }) else { return }
        let (contents, schema) = try Self.read(url)
        #expect(contents.metadata.storeUUID == "3F477D57-4044-4E9E-9845-6B9B63B11BB7")
        #expect(contents.nextKeys.values.allSatisfy { $0 == 109 })
        let byKey = Dictionary(
            uniqueKeysWithValues: contents.rows.map { (RowTable.key($0.id), $0) })
        let entityMapping = try #require(byKey[102])
        #expect(entityMapping.id.entityName == "XDDevEntityMapping")
        #expect(Self.value(entityMapping, "sourceName", schema) == "Creature")
        #expect(Self.value(entityMapping, "mappingNumber", schema) == .integer(1))
        #expect(Self.value(entityMapping, "autogenerateExpression", schema) == .bool(true))
        #expect(
            Self.value(entityMapping, "migrationPolicyClassName", schema)
                == "Advanced_EvolutionDemo_V2_FromV1MigrationPolicy")
        let attributes = Self.targets(entityMapping, "attributeMappings", schema)
        #expect(attributes.map { RowTable.key($0) } == [103, 108, 104, 107, 106])
        let names = attributes.compactMap { byKey[RowTable.key($0)] }.map {
            Self.value($0, "name", schema)
        }
        #expect(
            names == [
                "dnaCode", "hasTail", "numberOfFlippers", "hasHead", "hasVertebrae",
            ])
        #expect(Self.targets(entityMapping, "relationshipMappings", schema).isEmpty)
        let model = try #require(byKey[105])
        #expect(Self.targets(entityMapping, "mappingModel", schema) == [model.id])
        guard case .string(let path)? = Self.value(model, "sourceModelPath", schema) else {
            Issue.record("no source model path")
            return
        }
        #expect(path.hasPrefix("⭐️Sources/⭐️Demos/"))
        guard case .data(let bytes)? = Self.value(model, "sourceModelData", schema) else {
            Issue.record("no source model data")
            return
        }
        #expect(bytes.prefix(8) == Data("bplist00".utf8))
        // The archived model is a property list.
        #expect(
            (try? PropertyListSerialization.propertyList(from: bytes, format: nil)) != nil)
        let flippers = try #require(byKey[104])
        guard case .data(let expression)? = Self.value(flippers, "valueExpressionData", schema)
        else {
            Issue.record("no value expression")
            return
        }
        #expect(expression.prefix(8) == Data("bplist00".utf8))
        #expect(Self.value(try #require(byKey[103]), "valueExpressionData", schema) == .null)
    }

    @Test("the corpus file written again has Apple's lines for the objects")
    func writesLikeApple() throws {
        guard let url = Self.files().first(where: { $0.path.contains("V2.FromV1") }) else { return }
        let (contents, schema) = try Self.read(url)
        let written = String(
            decoding: try XMLStoreFormat().write(contents, schema: schema), as: UTF8.self)
        let original = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        for line in [
            "<?xml version=\"1.0\" standalone=\"yes\"?>",
            "        <UUID>3F477D57-4044-4E9E-9845-6B9B63B11BB7</UUID>",
            "        <nextObjectID>108</nextObjectID>",
            "    <object type=\"XDDEVENTITYMAPPING\" id=\"z102\">",
            "        <attribute name=\"sourcename\" type=\"string\">Creature</attribute>",
            "        <attribute name=\"mappingnumber\" type=\"int16\">1</attribute>",
            "        <attribute name=\"autogenerateexpression\" type=\"bool\">1</attribute>",
            "        <relationship name=\"attributemappings\" type=\"0/0\" "
                + "destination=\"XDDEVATTRIBUTEMAPPING\" idrefs=\"z103 z108 z104 z107 z106\">"
                + "</relationship>",
            "        <relationship name=\"relationshipmappings\" type=\"0/0\" "
                + "destination=\"XDDEVRELATIONSHIPMAPPING\"></relationship>",
        ] {
            #expect(original.contains(line + "\n"), "corpus: \(line)")
            #expect(written.contains(line + "\n"), "written: \(line)")
        }
    }
}
