import Foundation
import Testing

@testable import ObjectGraph

@Suite("Batch update requests")
struct BatchUpdateTests {
    @Test(
        "constants and expressions by predicate, each result type",
        arguments: BatchStoreKind.allCases)
    func updates(_ kind: BatchStoreKind) throws {
        let fixture = try BatchFixture(kind)
        var request = BatchUpdateRequest(
            entityName: "Folder", predicate: try Predicate(format: "score > 1.5"),
            propertiesToUpdate: ["score": try Expression(format: "score * 10")])
        request.resultType = .count
        #expect(try fixture.context.execute(request).count == 2)
        #expect(try fixture.names("Folder", "score") == ["1.0", "20.0", "30.0"])
        request = BatchUpdateRequest(
            entityName: "File", predicate: try Predicate(format: "folder.name == 'work'"),
            values: ["bytes": 7])
        request.resultType = .objectIDs
        let ids = try #require(try fixture.context.execute(request).objectIDs)
        #expect(Set(ids) == Set(try fixture.objects("File", "name IN {'a', 'b'}").map(\.objectID)))
        #expect(try fixture.objects("File", "bytes == 7").count == 2)
        request = BatchUpdateRequest(entityName: "File", values: ["bytes": 1])
        #expect(try fixture.context.execute(request).result == .status(true))
        #expect(try fixture.objects("File", "bytes == 1").count == 4)
        #expect(fixture.context.registeredObjects.isEmpty)
    }

    @Test(
        "a wrong type, a missing required value or a relationship fails, writing nothing",
        arguments: BatchStoreKind.allCases)
    func refusals(_ kind: BatchStoreKind) throws {
        let fixture = try BatchFixture(kind)
        let context = fixture.context
        do {
            try context.execute(BatchUpdateRequest(entityName: "Folder", values: ["score": "x"]))
            Issue.record("a string was stored in a double")
        } catch ObjectGraphError.typeMismatch(let entity, let property, _, _) {
            #expect(entity == "Folder" && property == "score")
        }
        do {
            try context.execute(BatchUpdateRequest(entityName: "Folder", values: ["name": nil]))
            Issue.record("a required value was cleared")
        } catch let error as ValidationError {
            #expect(error.problems.first?.rule == .required)
            #expect(error.problems.first?.property == "name")
        }
        #expect(throws: ObjectGraphError.unknownProperty(entity: "Folder", property: "nope")) {
            try context.execute(BatchUpdateRequest(entityName: "Folder", values: ["nope": 1]))
        }
        #expect(throws: ObjectGraphError.self) {
            try context.execute(BatchUpdateRequest(entityName: "Folder", values: ["label": nil]))
        }
        #expect(try fixture.names("Folder") == ["home", "vault", "work"])
        #expect(try fixture.names("Folder", "score") == ["1.0", "2.0", "3.0"])
        // A unique value given to two rows is refused.
        #expect(throws: StoreError.self) {
            try context.execute(BatchUpdateRequest(entityName: "Tag", values: ["title": "x"]))
        }
        #expect(try fixture.names("Tag", "title") == ["green", "red"])
    }

    @Test(
        "updated rows get a new version (a conflict); merging the IDs refreshes them",
        arguments: BatchStoreKind.allCases)
    func versionsAndMerge(_ kind: BatchStoreKind) throws {
        let fixture = try BatchFixture(kind)
        let viewer = fixture.fresh()
        viewer.retainsRegisteredObjects = true
        let work = try #require(
            try viewer.fetch(
                FetchRequest<ManagedObject>(
                    entityName: "Folder", predicate: try Predicate(format: "name == 'work'"))
            ).first)
        var request = BatchUpdateRequest(entityName: "Folder", values: ["score": 9])
        request.resultType = .objectIDs
        let result = try fixture.context.execute(request)
        try work.set("renamed", for: "name")
        #expect(throws: SaveError.self) { try viewer.save() }
        viewer.rollback()
        try ManagedContext.mergeChanges(
            fromRemoteContextSave: [.updatedObjects: result.objectIDs ?? []], into: [viewer])
        #expect(try work.value(for: "score") == .double(9))
        try work.set("renamed", for: "name")
        try viewer.save()
        #expect(try fixture.names("Folder") == ["home", "renamed", "vault"])
    }
}
