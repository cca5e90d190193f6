import Foundation
import Testing

@testable import ObjectGraph

/// What counts as a change, and what the objects-did-change notification reports, as in Core
/// Data (issue 16, "What changes are"), on a SQLite file.
@Suite("Change semantics")
struct ChangeSemanticsTests {
    @Test("a transient attribute's change is a change, listed by changedValues, not persistent")
    func transientIsAChange() throws {
        let fixture = try ChangeFixture()
        defer { fixture.remove() }
        let ann = try fixture.make("Person", "Ann")
        try fixture.context.save()
        try ann.set("draft", for: "scratch")
        #expect(ann.isUpdated)
        #expect(ann.hasChanges)
        #expect(fixture.context.hasChanges)
        #expect(fixture.context.updatedObjects.contains { $0 === ann })
        #expect(ann.changedValues() == ["scratch": .string("draft")])
        #expect(ann.changedKeys == ["scratch"])
        #expect(!ann.hasPersistentChangedValues)
        try ann.set(31, for: "age")
        #expect(ann.hasPersistentChangedValues)
        #expect(ann.changedKeys == ["scratch", "age"])
    }

    @Test("a save with only transient changes writes no row and leaves nothing changed")
    func transientOnlySave() throws {
        let fixture = try ChangeFixture()
        defer { fixture.remove() }
        let ann = try fixture.make("Person", "Ann")
        let bob = try fixture.make("Person", "Bob")
        try fixture.context.save()
        let version = ann.version
        let log = NotificationLog(fixture.context)
        try ann.set("draft", for: "scratch")
        #expect(fixture.context.hasChanges)
        try fixture.context.save()
        #expect(!fixture.context.hasChanges)
        #expect(!ann.isUpdated)
        #expect(ann.changedValues().isEmpty)
        #expect(ann["scratch"] as String? == "draft")
        #expect(log.take(.didSave).isEmpty)
        // With a persistent change elsewhere, only that object is written.
        try ann.set("again", for: "scratch")
        try bob.set(40, for: "age")
        try fixture.context.save()
        #expect(log.take(.didSave) == [ContextChange(updated: [bob.objectID])])
        #expect(!fixture.context.hasChanges && !ann.isUpdated)
        #expect(ann.version == version)
        // The row on disk was not written: its version is the first one.
        let reader = StoreCoordinator(model: ChangeFixture.model())
        try reader.addStore(
            type: .sqlite, at: fixture.folder.appendingPathComponent("C.sqlite"))
        let stored = try fixture.one(ManagedContext(coordinator: reader), "Person", "Ann")
        #expect(stored.version == version)
        #expect(stored["scratch"] == .null)
    }

    @Test("refreshing an object reports it as refreshed at the next processPendingChanges")
    func refreshedReported() throws {
        let fixture = try ChangeFixture()
        defer { fixture.remove() }
        let ann = try fixture.make("Person", "Ann")
        let bob = try fixture.make("Person", "Bob")
        try fixture.context.save()
        let log = NotificationLog(fixture.context)
        try fixture.context.refresh(ann, mergeChanges: false)
        try fixture.context.refresh(bob, mergeChanges: true)
        fixture.context.processPendingChanges()
        let posted = log.take()
        #expect(posted.count == 1)
        #expect(posted.first?.refreshed == [ann.objectID, bob.objectID])
        #expect(posted.first?.updated.isEmpty == true)
    }

    @Test("reset posts that every object it held was invalidated")
    func resetInvalidatesAll() throws {
        let fixture = try ChangeFixture()
        defer { fixture.remove() }
        let ann = try fixture.make("Person", "Ann")
        let red = try fixture.make("Team", "Red")
        try fixture.context.save()
        try ann.set(3, for: "age")
        let log = NotificationLog(fixture.context)
        fixture.context.reset()
        let posted = log.take()
        #expect(posted.count == 1)
        #expect(posted.first?.invalidatedAll == true)
        #expect(posted.first?.invalidated == [ann.objectID, red.objectID])
        #expect(posted.first?.updated.isEmpty == true)
        // What was pending went with the reset: nothing more is posted for it.
        fixture.context.processPendingChanges()
        #expect(log.take().isEmpty)
    }

    @Test("a merge reports objects read again as refreshed, or updated when changed here")
    func mergeRefreshed() throws {
        let fixture = try ChangeFixture()
        defer { fixture.remove() }
        try fixture.make("Person", "Ann")
        try fixture.make("Person", "Bob")
        try fixture.context.save()
        let viewer = fixture.peer()
        let ann = try fixture.one(viewer, "Person", "Ann")
        let bob = try fixture.one(viewer, "Person", "Bob")
        try bob.set("robert", for: "scratch")
        var note: ContextNotification?
        let observation = fixture.context.observe { if $0.kind == .didSave { note = $0 } }
        defer { observation.cancel() }
        try fixture.one(fixture.context, "Person", "Ann").set(30, for: "age")
        try fixture.one(fixture.context, "Person", "Bob").set(31, for: "age")
        try fixture.context.save()
        let log = NotificationLog(viewer)
        try viewer.mergeChanges(fromContextDidSave: try #require(note))
        #expect(log.take() == [ContextChange(updated: [bob.objectID], refreshed: [ann.objectID])])
        #expect(ann["age"] as Int? == 30 && bob["age"] as Int? == 31)
        #expect(bob["scratch"] as String? == "robert")
    }

    @Test("a merged deletion is reported deleted and no relationship here still holds it")
    func mergedDeletion() throws {
        let fixture = try ChangeFixture()
        defer { fixture.remove() }
        let writer = fixture.context
        let red = try fixture.make("Team", "Red")
        for name in ["Ann", "Bob"] {
            let person = try fixture.make("Person", name)
            try person.setObject(red, for: "team")
            try person.setObject(red, for: "favorite")
        }
        try fixture.make("Pet", "Rex").setObject(
            try fixture.one(writer, "Person", "Bob"), for: "owner")
        try writer.save()
        let viewer = fixture.peer()
        let ann = try fixture.one(viewer, "Person", "Ann")
        let bob = try fixture.one(viewer, "Person", "Bob")
        let viewerRed = try fixture.one(viewer, "Team", "Red")
        // Unsaved here: Ann is a year older; Bob gets a new pet (Bob's deletion takes it).
        try ann.set(30, for: "age")
        let kit = try fixture.make("Pet", "Kit", in: viewer)
        try kit.setObject(bob, for: "owner")
        var note: ContextNotification?
        let observation = writer.observe { if $0.kind == .didSave { note = $0 } }
        defer { observation.cancel() }
        writer.delete(try fixture.one(writer, "Team", "Red"))
        writer.delete(try fixture.one(writer, "Person", "Bob"))
        try writer.save()
        let log = NotificationLog(viewer)
        try viewer.mergeChanges(fromContextDidSave: try #require(note))
        let posted = try #require(log.take().first)
        #expect(posted.deleted.isSuperset(of: [viewerRed.objectID, bob.objectID]))
        #expect(viewerRed.context == nil && bob.context == nil)
        // No relationship holds the deleted objects: not the inverse-maintained `team`, nor
        // `favorite` (no inverse, so only this context can let go of it). Bob's pets cascade:
        // Kit, added here, is deleted here too.
        #expect(try ann.object(for: "team") == nil)
        #expect(try ann.object(for: "favorite") == nil)
        #expect(kit.isDeleted || kit.context == nil)
        #expect(viewer.registeredObject(for: viewerRed.objectID) == nil)
        #expect(ann["age"] as Int? == 30)
        try viewer.save()
        let check = fixture.peer()
        let stored = try fixture.one(check, "Person", "Ann")
        #expect(stored["age"] as Int? == 30)
        #expect(try stored.object(for: "team") == nil)
        let pets = try check.fetch(FetchRequest(entityName: "Pet"))
        #expect(pets.isEmpty)
    }

    @Test("an object deleted here and by a merged save is not deleted again by a later save")
    func mergedDeletionAlsoPendingHere() throws {
        let fixture = try ChangeFixture()
        defer { fixture.remove() }
        let writer = fixture.context
        let red = try fixture.make("Team", "Red")
        for name in ["Ann", "Bob"] { try fixture.make("Person", name).setObject(red, for: "team") }
        try writer.save()
        let viewer = fixture.peer()
        let viewerRed = try fixture.one(viewer, "Team", "Red")
        let bob = try fixture.one(viewer, "Person", "Bob")
        #expect(try viewerRed.objects(for: "members").count == 2)
        viewer.delete(bob)
        var note: ContextNotification?
        let observation = writer.observe { if $0.kind == .didSave { note = $0 } }
        defer { observation.cancel() }
        writer.delete(try fixture.one(writer, "Person", "Bob"))
        try writer.save()
        try viewer.mergeChanges(fromContextDidSave: try #require(note))
        #expect(viewer.deletedObjects.isEmpty)
        #expect(try viewerRed.objects(for: "members").map { $0["name"] as String? } == ["Ann"])
        try viewer.save()
        #expect(!viewer.hasChanges)
        let check = fixture.peer()
        #expect(try check.fetch(FetchRequest(entityName: "Person")).count == 1)
    }
}
