import Foundation
import Testing

@testable import ObjectGraph

@Suite("Batch delete requests")
struct BatchDeleteTests {
    @Test("by predicate, each result type, nothing registered", arguments: BatchStoreKind.allCases)
    func byPredicate(_ kind: BatchStoreKind) throws {
        let fixture = try BatchFixture(kind)
        var request = BatchDeleteRequest(
            entityName: "Page", predicate: try Predicate(format: "name != '3'"))
        request.resultType = .count
        #expect(try fixture.context.execute(request).count == 2)
        #expect(try fixture.names("Page") == ["3"])
        request = BatchDeleteRequest(entityName: "Page")
        request.resultType = .objectIDs
        let page = try #require(try fixture.objects("Page").first)
        #expect(try fixture.context.execute(request).objectIDs == [page.objectID])
        request.resultType = .statusOnly
        let result = try fixture.context.execute(request)
        #expect(result.result == .status(true))
        #expect(result.changes.isEmpty)
        #expect(try fixture.names("Page") == [])
        #expect(fixture.context.registeredObjects.isEmpty)
    }

    @Test("by object IDs; IDs of two entities are refused", arguments: BatchStoreKind.allCases)
    func byObjectIDs(_ kind: BatchStoreKind) throws {
        let fixture = try BatchFixture(kind)
        let pages = try fixture.objects("Page", "name IN {'1', '3'}").map(\.objectID)
        var request = BatchDeleteRequest(objectIDs: pages)
        request.resultType = .objectIDs
        #expect(Set(try fixture.context.execute(request).objectIDs ?? []) == Set(pages))
        #expect(try fixture.names("Page") == ["2"])
        let tag = try #require(try fixture.objects("Tag").first).objectID
        let file = try #require(try fixture.objects("File").first).objectID
        #expect(throws: ObjectGraphError.self) {
            try fixture.context.execute(BatchDeleteRequest(objectIDs: [tag, file]))
        }
        #expect(try fixture.names("Tag", "title") == ["green", "red"])
        #expect(fixture.context.registeredObjects.isEmpty)
    }

    @Test(
        "cascade follows chains; nullify clears to-one, to-many and many-to-many inverses",
        arguments: BatchStoreKind.allCases)
    func cascadeAndNullify(_ kind: BatchStoreKind) throws {
        let fixture = try BatchFixture(kind)
        var request = BatchDeleteRequest(
            entityName: "Folder", predicate: try Predicate(format: "name == 'work'"))
        request.resultType = .count
        let result = try fixture.context.execute(request)
        // work, its files a and b, and a's pages 1 and 2.
        #expect(result.count == 5)
        #expect(result.changesByEntity[.deletedObjects]?["Page"]?.count == 2)
        #expect(result.changesByEntity[.deletedObjects]?["File"]?.count == 2)
        #expect(try fixture.names("Folder") == ["home", "vault"])
        #expect(try fixture.names("File") == ["c", "d"])
        #expect(try fixture.names("Page") == ["3"])
        // The inverses of the deleted rows no longer hold them.
        #expect(try fixture.related("Label", "title == 'blue'", "folders") == ["home"])
        #expect(try fixture.related("Tag", "title == 'red'", "files") == [])
        #expect(try fixture.related("Tag", "title == 'green'", "files") == ["c"])
        let updated = Set(result.changes[.updatedObjects] ?? [])
        #expect(updated.count == 3)  // blue, red, green
        // Deleting the label nullifies the folders' to-one.
        try fixture.context.execute(BatchDeleteRequest(entityName: "Label"))
        #expect(try fixture.objects("Folder").allSatisfy { try $0.object(for: "label") == nil })
        #expect(fixture.context.registeredObjects.isEmpty)
    }

    @Test(
        "deny refuses the whole request, naming entity and relationship",
        arguments: BatchStoreKind.allCases)
    func deny(_ kind: BatchStoreKind) throws {
        let fixture = try BatchFixture(kind)
        do {
            try fixture.context.execute(BatchDeleteRequest(entityName: "Folder"))
            Issue.record("the deny rule did not refuse the batch delete")
        } catch let error as ValidationError {
            #expect(error.problems.map(\.rule) == [.deleteDenied])
            #expect(error.problems.first?.entity == "Folder")
            #expect(error.problems.first?.property == "locks")
            #expect("\(error)".contains("Folder.locks"))
        }
        #expect(try fixture.names("Folder") == ["home", "vault", "work"])
        #expect(try fixture.names("Page").count == 3)
        // Once its lock is deleted, nothing denies deleting the vault.
        try fixture.context.execute(BatchDeleteRequest(entityName: "Lock"))
        try fixture.context.execute(BatchDeleteRequest(entityName: "Folder"))
        #expect(try fixture.names("Folder") == [])
        #expect(try fixture.names("File") == [])
        #expect(fixture.context.registeredObjects.isEmpty)
    }

    @Test(
        "the deleted IDs merge into a context holding the objects",
        arguments: BatchStoreKind.allCases)
    func mergeDeletes(_ kind: BatchStoreKind) throws {
        let fixture = try BatchFixture(kind)
        let viewer = fixture.fresh()
        viewer.retainsRegisteredObjects = true
        let label = try #require(
            try viewer.fetch(
                FetchRequest<ManagedObject>(
                    entityName: "Label", predicate: try Predicate(format: "title == 'blue'"))
            ).first)
        #expect(try label.objects(for: "folders").count == 2)
        let files = try viewer.fetch(FetchRequest<ManagedObject>(entityName: "File"))
        var request = BatchDeleteRequest(
            entityName: "Folder", predicate: try Predicate(format: "name == 'work'"))
        request.resultType = .objectIDs
        let result = try fixture.context.execute(request)
        let ids = try #require(result.objectIDs)
        try ManagedContext.mergeChanges(
            fromRemoteContextSave: [.deletedObjects: ids], into: [viewer])
        let names = try label.objects(for: "folders").map { try $0.value(for: "name") }
        #expect(names == ["home"])
        let kept = viewer.registeredObjects.filter { $0.entity.name == "File" }
        #expect(Set(kept.map(\.objectID)) == Set(files.map(\.objectID)).subtracting(ids))
    }
}
