import Foundation
import KeyedArchive
import ObjectGraph
import Testing

/// Reading hand-written `.xcmappingmodel`s: kinds by name and number, Xcode's source fetch folded
/// into the filter predicate, relationship mappings through the manager, order by mapping
/// number, and errors naming the file, the object, its line and what is wrong.
@Suite struct MappingModelReaderTests {
    typealias Expression = ObjectGraph.Expression
    typealias Predicate = ObjectGraph.Predicate

    static let versions: [ModelVersion] = {
        let person = Entity(
            "Person", attributes: [Attribute("age", type: .integer16)],
            relationships: [Relationship("pets", destination: "Pet", toMany: true)])
        let pet = Entity("Pet", attributes: [Attribute("name", type: .string)])
        let old = Entity("Old", attributes: [Attribute("note", type: .string)])
        return [
            ModelVersion(name: "Zoo", model: EntityModel(entities: [person, pet, old])),
            ModelVersion(name: "Zoo 2", model: EntityModel(entities: [person, pet])),
        ]
    }()

    /// The archive of Xcode's source fetch of `entity` objects matching `predicate`.
    static func sourceFetch(_ entity: String, _ predicate: String) -> Data {
        var archive = ExpressionArchiveBuilder()
        let request = archive.function(
            "fetchRequestForSourceEntityNamed:predicateString:", on: archive.variable("manager"),
            [archive.constant(.string(entity)), archive.constant(.string(predicate))])
        let context = archive.keyPath("sourceContext", on: archive.variable("manager"))
        let fetch = archive.builder.addObject(
            className: "NSFetchRequestExpression", superclasses: ["NSExpression", "NSObject"],
            fields: [
                "NSExpressionType": .integer(50), "NSFRExpression": request,
                "NSMOCExpression": context, "NSCountOnlyFlag": .bool(false),
            ])
        return archive.data(root: fetch)
    }

    static func petsExpression() -> Data {
        var archive = ExpressionArchiveBuilder()
        let root = archive.function(
            "destinationInstancesForEntityMappingNamed:sourceInstances:",
            on: archive.variable("manager"),
            [
                archive.constant(.string("PetToPet")),
                archive.keyPath("pets", on: archive.variable("source")),
            ])
        return archive.data(root: root)
    }

    static func blockExpression() -> Data {
        var archive = ExpressionArchiveBuilder()
        let root = archive.expression("NSBlockExpression", type: 19, [:])
        return archive.data(root: root)
    }

    static func attribute(_ name: String, _ type: String, _ value: String) -> String {
        "        <attribute name=\"\(name)\" type=\"\(type)\">\(value)</attribute>\n"
    }

    static func binary(_ name: String, _ data: Data) -> String {
        attribute(name, "binary", data.base64EncodedString(options: .lineLength76Characters))
    }

    /// An `xcmapping.xml` from Zoo to Zoo 2; `personKind`, `petsValue` and `source` vary it.
    static func xml(
        personKind: String = "Transform", petsValue: Data = petsExpression(),
        source: String = "/Users/me/Zoo.xcdatamodeld/Zoo.xcdatamodel"
    ) -> String {
        """
        <?xml version="1.0" standalone="yes"?>
        <!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">
        <database>
            <databaseInfo><version>134481920</version></databaseInfo>
            <object type="XDDEVMAPPINGMODEL" id="z1">
        \(attribute("sourcemodelpath", "string", source))\
        \(attribute("destinationmodelpath", "string", "/Users/me/Zoo.xcdatamodeld/Zoo 2.xcdatamodel"))\
                <relationship name="entitymappings" type="0/0" destination="XDDEVENTITYMAPPING" idrefs="z2 z3 z4"></relationship>
            </object>
            <object type="XDDEVENTITYMAPPING" id="z2">
        \(attribute("sourcename", "string", "Person"))\
        \(attribute("destinationname", "string", "Person"))\
        \(attribute("mappingtypename", "string", personKind))\
        \(attribute("mappingnumber", "int16", "2"))\
        \(attribute("migrationpolicyclassname", "string", "ZooPolicy"))\
        \(binary("sourceexpressiondata", sourceFetch("Person", "age > 3")))\
                <relationship name="attributemappings" type="0/0" destination="XDDEVATTRIBUTEMAPPING" idrefs="z5"></relationship>
                <relationship name="relationshipmappings" type="0/0" destination="XDDEVRELATIONSHIPMAPPING" idrefs="z6"></relationship>
            </object>
            <object type="XDDEVENTITYMAPPING" id="z3">
        \(attribute("destinationname", "string", "Pet"))\
        \(attribute("mappingtypename", "string", "2"))\
        \(attribute("mappingnumber", "int16", "1"))\
            </object>
            <object type="XDDEVENTITYMAPPING" id="z4">
        \(attribute("sourcename", "string", "Old"))\
        \(attribute("mappingtypename", "string", "Remove"))\
        \(attribute("mappingnumber", "int16", "3"))\
        \(attribute("filterpredicatestring", "string", "note != nil"))\
            </object>
            <object type="XDDEVATTRIBUTEMAPPING" id="z5">
        \(attribute("name", "string", "age"))\
            </object>
            <object type="XDDEVRELATIONSHIPMAPPING" id="z6">
        \(attribute("name", "string", "pets"))\
        \(binary("valueexpressiondata", petsValue))\
            </object>
        </database>

        """
    }

    /// Writes `text` as `Zoo.xcmappingmodel/xcmapping.xml` in a new folder.
    static func write(_ text: String) throws -> URL {
        let folder = try TestSupport.makeTemporaryFolder()
        let mapping = folder.appendingPathComponent("Zoo.xcmappingmodel")
        try FileManager.default.createDirectory(at: mapping, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: mapping.appendingPathComponent("xcmapping.xml"))
        return mapping
    }

    @Test("kinds, order, source fetch, filter predicates, policies and relationship mappings")
    func reads() throws {
        let url = try Self.write(Self.xml())
        defer { TestSupport.removeTemporaryFolder(url.deletingLastPathComponent()) }
        let mapping = try MappingModel(contentsOf: url, versions: Self.versions)
        #expect(mapping.sourceVersionName == "Zoo" && mapping.destinationVersionName == "Zoo 2")
        #expect(mapping.entityMappings.map(\.name) == ["Pet", "PersonToPerson", "Old"])
        #expect(mapping.entityMappings.map(\.kind) == [.add, .transform, .remove])
        let person = try #require(mapping.entityMapping(named: "PersonToPerson"))
        #expect(person.filterPredicate == (try Predicate(format: "age > 3")))
        #expect(person.sourceExpression == nil)
        #expect(person.migrationPolicyClassName == "ZooPolicy")
        #expect(person.attributeMappings == [PropertyMapping(name: "age")])
        #expect(
            person.relationshipMappings.first?.valueExpression
                == (try Expression(
                    format:
                        "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"PetToPet\", $source.pets)"
                )))
        #expect(
            person.destinationEntityVersionHash
                == Self.versions[1].model.entityVersionHashes["Person"])
        #expect(
            mapping.entityMapping(named: "Old")?.filterPredicate
                == (try Predicate(format: "note != nil")))
    }

    /// The reason of the `unreadableMappingModel` error `body` throws.
    static func reason(_ body: () throws(MigrationError) -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            guard case .unreadableMappingModel(let path, let reason) = error else {
                return "\(error)"
            }
            return path.hasSuffix("xcmapping.xml") ? reason : "wrong path \(path)"
        }
    }

    @Test("errors name the object, its line and what is wrong")
    func errors() throws {
        let cases: [(String, [String])] = [
            (Self.xml(personKind: "Shuffle"), ["XDDEVENTITYMAPPING z2 (line", "\"Shuffle\""]),
            (
                Self.xml(petsValue: Self.blockExpression()),
                ["XDDEVRELATIONSHIPMAPPING z6", "NSBlockExpression"]
            ),
            (
                Self.xml(petsValue: Data("not an archive".utf8)),
                ["pets: valueexpressiondata", "binary property list, byte 0"]
            ),
            (
                Self.xml(source: "/x/Zoo 9.xcdatamodel"),
                ["\"Zoo 9\"", "not among the versions (Zoo, Zoo 2)"]
            ),
            (
                "<database><object type='XDDEVENTITYMAPPING' id='a'/></database>",
                ["0 XDDEVMAPPINGMODEL"]
            ),
            ("<database>", ["line 1"]),
        ]
        for (text, fragments) in cases {
            let url = try Self.write(text)
            defer { TestSupport.removeTemporaryFolder(url.deletingLastPathComponent()) }
            let reason = Self.reason { () throws(MigrationError) in
                _ = try MappingModel(contentsOf: url, versions: Self.versions)
            }
            for fragment in fragments {
                #expect(
                    reason?.contains(fragment) == true, "\(reason ?? "no error") lacks \(fragment)")
            }
        }
        let missing = Self.versions.map {
            ModelVersion(name: $0.name, model: EntityModel(entities: []))
        }
        let url = try Self.write(Self.xml())
        defer { TestSupport.removeTemporaryFolder(url.deletingLastPathComponent()) }
        #expect(
            Self.reason { () throws(MigrationError) in
                _ = try MappingModel(contentsOf: url, versions: missing)
            }?.contains("destination entity Pet is not in version Zoo 2") == true)
        #expect(
            Self.reason { () throws(MigrationError) in
                _ = try MappingModel(
                    contentsOf: url.appendingPathComponent("nothing"), versions: missing)
            } != nil)
    }

    @Test("the locator reads mapping models beside a bundle and skips other models' ones")
    func locator() throws {
        let url = try Self.write(Self.xml())
        let folder = url.deletingLastPathComponent()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let bundle = folder.appendingPathComponent("Zoo.xcdatamodeld")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        #expect(
            try MappingModelLocator.mappingModels(besides: bundle, versions: Self.versions).count
                == 1)
        let others = [ModelVersion(name: "Farm", model: EntityModel(entities: []))]
        #expect(try MappingModelLocator.mappingModels(besides: bundle, versions: others).isEmpty)
    }
}
