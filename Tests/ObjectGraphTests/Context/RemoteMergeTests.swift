import Foundation
import Testing

@testable import ObjectGraph

/// Merging a save made by another coordinator on the same SQLite file (as another process's
/// would be), from its IDs or URIs (`mergeChanges(fromRemoteContextSave:into:)`).
@Suite("Merging remote saves")
struct RemoteMergeTests {
    /// Two coordinators on one file (two processes): `writer` saves, `viewer` and `second`
    /// (contexts of the other coordinator) merge. The league: team Red with Ann and Bob.
    struct Fixture {
        let folder: URL
        let writer: ManagedContext
        let viewer: ManagedContext
        let second: ManagedContext

        init() throws {
            folder = try TestSupport.makeTemporaryFolder()
            let url = try RedTeamLeague.write(in: folder)
            writer = try SQLiteStoreTests.open(url)
            let other = StoreCoordinator(model: TestModels.league())
            try other.addStore(type: .sqlite, at: url)
            viewer = ManagedContext(coordinator: other)
            second = ManagedContext(coordinator: other)
        }

        func one(_ context: ManagedContext, _ entity: String, _ name: String) throws
            -> ManagedObject
        {
            try RedTeamLeague.one(context, entity, name)
        }

        /// The writer updates Ann (age 31), deletes Bob and inserts Cid into Red, and saves;
        /// returns its did-save notification.
        func saveRemotely() throws -> ContextNotification {
            var note: ContextNotification?
            let observation = writer.observe { if $0.kind == .didSave { note = $0 } }
            defer { observation.cancel() }
            try one(writer, "Person", "Ann").set(31, for: "age")
            writer.delete(try one(writer, "Person", "Bob"))
            let cid = try writer.insert("Person")
            try cid.set("Cid", for: "name")
            try cid.setObject(try one(writer, "Team", "Red"), for: "team")
            try writer.save()
            return try #require(note)
        }

        /// Ann, Bob and Red loaded in the viewer (Red's members too), and Ann's email changed
        /// there, unsaved.
        func loadViewer() throws -> (ann: ManagedObject, bob: ManagedObject, red: ManagedObject) {
            let ann = try one(viewer, "Person", "Ann")
            let bob = try one(viewer, "Person", "Bob")
            let red = try one(viewer, "Team", "Red")
            #expect(try red.objects(for: "members").count == 2)
            try ann.set("ann@example.com", for: "email")
            viewer.processPendingChanges()
            return (ann, bob, red)
        }

        /// The objects-did-change notifications `context` posts while `body` runs.
        func changes(of context: ManagedContext, _ body: () throws -> Void) rethrows
            -> [ContextChange]
        {
            var posted: [ContextChange] = []
            let observation = context.observe {
                if $0.kind == .objectsDidChange { posted.append($0.changes) }
            }
            defer { observation.cancel() }
            try body()
            return posted
        }
    }

    /// Checks `viewer` after the merge of ``Fixture/saveRemotely()``: Ann's new age under its
    /// own unsaved email, Bob gone from the context and from Red, Cid found.
    private static func expectMerged(
        _ fixture: Fixture, ann: ManagedObject, bob: ManagedObject, red: ManagedObject,
        note: ContextNotification, posted: [ContextChange]
    ) throws {
        #expect(ann["age"] as Int? == 31)
        #expect(ann["email"] as String? == "ann@example.com")
        #expect(ann.changedKeys == ["email"])
        #expect(fixture.viewer.registeredObject(for: bob.objectID) == nil)
        #expect(bob.context == nil)
        let members = try red.objects(for: "members")
        #expect(members.allSatisfy { $0.context === fixture.viewer })
        #expect(members.compactMap { $0["name"] as String? }.sorted() == ["Ann", "Cid"])
        let cidID = try #require(note.changes.inserted.first)
        #expect(posted.count == 1)
        #expect(posted.first?.inserted == [cidID])
        #expect(posted.first?.deleted == [bob.objectID])
        #expect(posted.first?.updated == [ann.objectID])
        #expect(posted.first?.refreshed == [red.objectID])
        // The viewer's save writes its change on top of the merged rows (no conflict).
        try fixture.viewer.save()
        let stored = try fixture.one(fixture.writer, "Person", "Ann")
        try fixture.writer.refresh(stored, mergeChanges: false)
        #expect(stored["email"] as String? == "ann@example.com")
        #expect(stored["age"] as Int? == 31)
    }

    @Test("a save's IDs merged into a context of another coordinator: updated, deleted, inserted")
    func mergesIDs() throws {
        let fixture = try Fixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let (ann, bob, red) = try fixture.loadViewer()
        let note = try fixture.saveRemotely()
        #expect(ann["age"] as Int? == 30)
        let posted = try fixture.changes(of: fixture.viewer) {
            try ManagedContext.mergeChanges(
                fromRemoteContextSave: note.changes, into: [fixture.viewer])
        }
        try Self.expectMerged(
            fixture, ann: ann, bob: bob, red: red, note: note, posted: posted)
    }

    @Test("a save's URIs, sent as JSON, merged into two contexts")
    func mergesURIs() throws {
        let fixture = try Fixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let (ann, bob, red) = try fixture.loadViewer()
        let secondBob = try fixture.one(fixture.second, "Person", "Bob")
        let note = try fixture.saveRemotely()
        let sent = try JSONEncoder().encode(try #require(SavedObjectURIs(note)))
        let uris = try JSONDecoder().decode(SavedObjectURIs.self, from: sent)
        #expect(uris.inserted.count == 1)
        #expect(uris.deleted == [bob.objectID.uriRepresentation])
        var secondPosted: [ContextChange] = []
        let posted = try fixture.changes(of: fixture.viewer) {
            secondPosted = try fixture.changes(of: fixture.second) {
                try ManagedContext.mergeChanges(
                    fromRemoteContextSave: uris, into: [fixture.viewer, fixture.second])
            }
        }
        try Self.expectMerged(
            fixture, ann: ann, bob: bob, red: red, note: note, posted: posted)
        #expect(secondBob.context == nil)
        #expect(secondPosted.first?.deleted == [secondBob.objectID])
        #expect(secondPosted.first?.inserted == note.changes.inserted)
    }

    @Test(
        "a malformed URI, or one of another store, throws invalidObjectURI and merges nothing",
        arguments: [
            "x-coredata://ABC/Person/p1", "x-coredata://%@/Nobody/p1",
            "x-coredata://%@/Person/t1234", "x-coredata://%@/Person/p0",
            "https://%@/Person/p1", "x-coredata://%@/Person",
        ])
    func rejectsForeignURIs(_ template: String) throws {
        let fixture = try Fixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let bob = try fixture.one(fixture.viewer, "Person", "Bob")
        let store = try #require(fixture.viewer.coordinator.storeDescriptions.first).identifier
        let bad = try #require(URL(string: template.replacingOccurrences(of: "%@", with: store)))
        let uris = SavedObjectURIs(deleted: [bob.objectID.uriRepresentation, bad])
        #expect(throws: ObjectGraphError.invalidObjectURI(bad.absoluteString)) {
            try ManagedContext.mergeChanges(fromRemoteContextSave: uris, into: [fixture.viewer])
        }
        #expect(bob.context === fixture.viewer)
    }

    @Test("only a did-save notification gives URIs")
    func urisOfDidSaveOnly() throws {
        let change = ContextChange(inserted: [
            ObjectID(entityName: "Person", storeIdentifier: "S", key: .permanent(2))
        ])
        #expect(SavedObjectURIs(ContextNotification(kind: .willSave, changes: change)) == nil)
        let uris = try #require(
            SavedObjectURIs(ContextNotification(kind: .didSave, changes: change)))
        #expect(uris.inserted.map(\.absoluteString) == ["x-coredata://S/Person/p2"])
    }
}
