import Foundation
import KeyedArchive
import ObjectGraph
import Testing

/// Hand-made model archives: a well-formed one decodes to the model it describes; hostile ones
/// (wrong types, missing keys, cycles, shared objects, truncation) fail with an error naming the
/// source and the archive object.
struct ArchivedModelHostileTests {
    /// A model of one `Note` entity with an attribute and a to-many self relationship;
    /// `tweak` may change the fields before the archive is written.
    static func archive(
        attributeType: PropertyListObject = .integer(700),
        entityName: PropertyListObject? = nil,
        superentity: Bool = false,
        sharedUserInfoCopies: Int = 0
    ) -> Data {
        var builder = KeyedArchiveBuilder()
        let name = entityName ?? builder.add(.string("Note"))
        let titleName = builder.add(.string("title"))
        let linksName = builder.add(.string("links"))
        let info = builder.addDictionary([
            (key: builder.add(.string("key")), value: builder.add(.string("value")))
        ])
        let attribute = builder.addObject(
            className: "NSAttributeDescription",
            superclasses: ["NSPropertyDescription", "NSObject"],
            fields: [
                "NSPropertyName": titleName, "NSAttributeType": attributeType, "_P": .integer(243),
                "NSDefaultValue": builder.add(.string("Untitled")), "NSUserInfo": info,
            ])
        let relationship = builder.addObject(
            className: "NSRelationshipDescription",
            superclasses: ["NSPropertyDescription", "NSObject"],
            fields: [
                "NSPropertyName": linksName, "_NSDestinationEntityName": name,
                "_NSInverseRelationshipName": linksName, "NSMinCount": .integer(0),
                "NSMaxCount": .integer(0), "NSDeleteRule": .integer(2), "_P": .integer(243 | 0x400),
            ])
        let properties = builder.addDictionary([
            (key: titleName, value: attribute), (key: linksName, value: relationship),
        ])
        var entityFields: [String: PropertyListObject] = [
            "NSEntityName": name, "NSProperties": properties,
            "NSUniqueTuples": builder.addArray([builder.addArray([titleName])]),
            "NSVersionHashModifier": builder.add(.string("v2")),
        ]
        if sharedUserInfoCopies > 0 {
            let big = builder.addArray(Array(repeating: titleName, count: 10_000))
            entityFields["NSCompoundIndexes"] = builder.addArray(
                Array(repeating: big, count: sharedUserInfoCopies))
        }
        // The entity's own reference, for a cycle: the object after its class record.
        let entityReference = PropertyListObject.uid(UInt64(builder.objects.count + 1))
        if superentity { entityFields["NSSuperentity"] = entityReference }
        let entity = builder.addObject(className: "NSEntityDescription", fields: entityFields)
        let entities = builder.addDictionary([(key: name, value: entity)])
        let model = builder.addObject(
            className: "NSManagedObjectModel", fields: ["NSEntities": entities])
        return builder.archive(root: model)
    }

    @Test func aHandMadeModelDecodes() throws {
        let model = try EntityModel(modelArchive: Self.archive(), source: "Notes.sqlite")
        let note = try #require(model.entity(named: "Note"))
        let title = try #require(note.attribute(named: "title"))
        #expect(title.type == .string)
        #expect(title.isOptional)
        #expect(title.defaultValueString == "Untitled")
        #expect(title.userInfo["key"] == "value")
        let links = try #require(note.relationship(named: "links"))
        #expect(links.isToMany && links.isOrdered && links.deleteRule == .cascade)
        #expect(links.inverseName == "links")
        #expect(note.uniquenessConstraints == [["title"]])
        #expect(note.versionHashModifier == "v2")
    }

    @Test func aWrongTypeNamesTheObject() throws {
        #expect(throws: ArchivedModelError.self) {
            try EntityModel(
                modelArchive: Self.archive(attributeType: .string("x")), source: "S.sqlite")
        }
        do {
            _ = try EntityModel(
                modelArchive: Self.archive(attributeType: .integer(4242)), source: "S.sqlite")
            Issue.record("an unknown attribute type was accepted")
        } catch {
            #expect(
                error.description.hasPrefix("S.sqlite: model cache, archive object ")
                    && error.description.hasSuffix(
                        "(NSAttributeDescription): attribute \"title\" has unknown NSAttributeType 4242"
                    ))
        }
    }

    @Test func aMissingNameAndACycleAreRefused() throws {
        let nameless = PropertyListObject.integer(7)
        #expect(throws: ArchivedModelError.self) {
            try EntityModel(modelArchive: Self.archive(entityName: nameless), source: "S.sqlite")
        }
        do {
            _ = try EntityModel(modelArchive: Self.archive(superentity: true), source: "S.sqlite")
            Issue.record("an inheritance cycle was accepted")
        } catch {
            #expect(error.description.contains("inheritance cycle"))
        }
    }

    @Test func sharedObjectsReadManyTimesHitTheBudget() throws {
        // 1,000 references to one 10,000-element array: 10 million reads asked for by a
        // small archive.
        let data = Self.archive(sharedUserInfoCopies: 1_000)
        do {
            _ = try EntityModel(modelArchive: data, source: "S.sqlite")
            Issue.record("the shared array was read in full")
        } catch {
            #expect(error.description.contains("shares its objects so often"))
        }
    }

    @Test func truncatedAndNonModelArchivesAreRefused() throws {
        let data = Self.archive()
        for length in stride(from: 0, to: data.count, by: 7) {
            #expect(throws: ArchivedModelError.self) {
                try EntityModel(modelArchive: data.prefix(length), source: "S.sqlite")
            }
        }
        var builder = KeyedArchiveBuilder()
        let root = builder.addObject(className: "NSEntityDescription", fields: [:])
        #expect(throws: ArchivedModelError.self) {
            try EntityModel(modelArchive: builder.archive(root: root), source: "S.sqlite")
        }
        #expect(throws: ArchivedModelError.self) {
            try EntityModel(modelCache: Data([0x07, 0x00]), source: "S.sqlite")
        }
    }
}
