import Foundation
import Testing

@testable import ObjectGraph

/// Merging another context's saved changes (`mergeChanges(fromContextDidSave:)`), on one
/// SQLite store.
@Suite("Merging saved changes")
struct MergeTests {
    /// Two contexts on one coordinator, and the saved league: team Red with Ann and Bob.
    struct Fixture {
        let folder: URL
        let viewer: ManagedContext
        let writer: ManagedContext

        init() throws {
            folder = try TestSupport.makeTemporaryFolder()
            let coordinator = StoreCoordinator(model: TestModels.league())
            try coordinator.addStore(type: .sqlite, at: try RedTeamLeague.write(in: folder))
            viewer = ManagedContext(coordinator: coordinator)
            writer = ManagedContext(coordinator: coordinator)
        }

        func one(_ context: ManagedContext, _ entity: String, _ name: String) throws
            -> ManagedObject
        {
            try RedTeamLeague.one(context, entity, name)
        }

        /// Runs `body` on the writer and returns its did-save notification.
        func save(_ body: () throws -> Void) throws -> ContextNotification {
            var note: ContextNotification?
            let observation = writer.observe { if $0.kind == .didSave { note = $0 } }
            defer { observation.cancel() }
            try body()
            try writer.save()
            return try #require(note)
        }
    }

    @Test("an update shows in the other context, which keeps its own unsaved changes")
    func updates() throws {
        let fixture = try Fixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let ann = try fixture.one(fixture.viewer, "Person", "Ann")
        try ann.set("ann@example.com", for: "email")
        let note = try fixture.save {
            try fixture.one(fixture.writer, "Person", "Ann").set(31, for: "age")
        }
        #expect(ann["age"] as Int? == 30)
        var posted: [ContextChange] = []
        let observation = fixture.viewer.observe {
            if $0.kind == .objectsDidChange { posted.append($0.changes) }
        }
        defer { observation.cancel() }
        try fixture.viewer.mergeChanges(fromContextDidSave: note)
        #expect(ann["age"] as Int? == 31)
        #expect(ann["email"] as String? == "ann@example.com")
        #expect(ann.changedKeys == ["email"])
        #expect(posted == [ContextChange(updated: [ann.objectID])])
        // The viewer's save writes its change on top of the merged row (no conflict).
        try fixture.viewer.save()
        let reader = try SQLiteStoreTests.open(fixture.folder.appendingPathComponent("L.sqlite"))
        let stored = try fixture.one(reader, "Person", "Ann")
        #expect(stored["age"] as Int? == 31)
        #expect(stored["email"] as String? == "ann@example.com")
    }

    @Test("a deletion removes the object; an insert joins the relationships that hold it")
    func deletionsAndInserts() throws {
        let fixture = try Fixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let red = try fixture.one(fixture.viewer, "Team", "Red")
        let bob = try fixture.one(fixture.viewer, "Person", "Bob")
        let bobID = bob.objectID
        #expect(try red.objects(for: "members").count == 2)
        let note = try fixture.save {
            let writerRed = try fixture.one(fixture.writer, "Team", "Red")
            fixture.writer.delete(try fixture.one(fixture.writer, "Person", "Bob"))
            let cid = try fixture.writer.insert("Person")
            try cid.set("Cid", for: "name")
            try cid.setObject(writerRed, for: "team")
        }
        try fixture.viewer.mergeChanges(fromContextDidSave: note)
        #expect(fixture.viewer.registeredObject(for: bobID) == nil)
        #expect(bob.context == nil)
        let members = try red.objects(for: "members").compactMap { $0["name"] as String? }
        #expect(members.sorted() == ["Ann", "Cid"])
        // A notification of another kind changes nothing.
        try fixture.viewer.mergeChanges(
            fromContextDidSave: ContextNotification(kind: .willSave, changes: note.changes))
        #expect(try red.objects(for: "members").count == 2)
    }

    @Test("the objects another context inserted are reported inserted after the merge")
    func insertsAreReported() throws {
        let fixture = try Fixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        var inserted: ManagedObject?
        var gone: ObjectID?
        let note = try fixture.save {
            let cid = try fixture.writer.insert("Person")
            try cid.set("Cid", for: "name")
            try cid.setObject(try fixture.one(fixture.writer, "Team", "Red"), for: "team")
            inserted = cid
            gone = try fixture.one(fixture.writer, "Person", "Bob").objectID
            fixture.writer.delete(try fixture.one(fixture.writer, "Person", "Bob"))
        }
        let cid = try #require(inserted).objectID  // permanent, after the save
        var posted: [ContextChange] = []
        let observation = fixture.viewer.observe {
            if $0.kind == .objectsDidChange { posted.append($0.changes) }
        }
        defer { observation.cancel() }
        try fixture.viewer.mergeChanges(fromContextDidSave: note)
        // Bob was never registered here, so only Cid is reported, as an insert.
        #expect(posted == [ContextChange(inserted: [cid])])
        #expect(fixture.viewer.registeredObject(for: try #require(gone)) == nil)
    }

    @Test("a context on another coordinator of the same file merges the same way")
    func acrossCoordinators() throws {
        let fixture = try Fixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let other = try SQLiteStoreTests.open(fixture.folder.appendingPathComponent("L.sqlite"))
        let ann = try fixture.one(other, "Person", "Ann")
        let note = try fixture.save {
            try fixture.one(fixture.writer, "Person", "Ann").set(40, for: "age")
        }
        try other.mergeChanges(fromContextDidSave: note)
        #expect(ann["age"] as Int? == 40)
    }

    @Test("a merged deletion leaves no loaded relationship or undo action holding the object")
    func deletionReachesRelationshipsAndUndo() throws {
        let fixture = try Fixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        fixture.viewer.undoManager = UndoManager()
        let red = try fixture.one(fixture.viewer, "Team", "Red")
        let ann = try fixture.one(fixture.viewer, "Person", "Ann")
        let bob = try fixture.one(fixture.viewer, "Person", "Bob")
        #expect(try red.objects(for: "members").count == 2)
        // Unsaved here: Ann leaves Red (so Red keeps a local members list), Bob is renamed.
        try red.remove(ann, from: "members")
        try bob.set("Robert", for: "name")
        let note = try fixture.save {
            fixture.writer.delete(try fixture.one(fixture.writer, "Person", "Bob"))
        }
        try fixture.viewer.mergeChanges(fromContextDidSave: note)
        let members = try red.objects(for: "members")
        #expect(members.allSatisfy { $0.context === fixture.viewer })
        #expect(!members.contains { $0 === bob })
        // Undo cannot bring Bob back into the context.
        fixture.viewer.undo()
        #expect(bob.context == nil)
        #expect(!fixture.viewer.updatedObjects.contains { $0 === bob })
        try fixture.viewer.save()
    }
}
