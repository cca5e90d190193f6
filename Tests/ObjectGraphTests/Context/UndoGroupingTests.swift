import Foundation
import Testing

@testable import ObjectGraph

/// Undo groups by event and objects-did-change coalesces, as in Core Data: everything between
/// two `processPendingChanges()` (which saving, undo, redo and explicit grouping call) is one
/// undo step and one notification (issue 16, "What changes are"), on a SQLite file.
@Suite("Undo grouping by event")
struct UndoGroupingTests {
    let fixture: ChangeFixture
    let context: ManagedContext
    let ann: ManagedObject

    init() throws {
        fixture = try ChangeFixture()
        context = fixture.context
        ann = try fixture.make("Person", "Ann")
        try ann.set(20, for: "age")
        try context.save()
        context.undoManager?.removeAllActions()
    }

    private var state: (String?, Int?) { (ann["name"] as String?, ann["age"] as Int?) }

    @Test("the changes between two processPendingChanges undo and redo as one step")
    func oneStepPerEvent() throws {
        defer { fixture.remove() }
        try ann.set("Anna", for: "name")
        try ann.set(21, for: "age")
        let pet = try fixture.make("Pet", "Rex")
        try pet.setObject(ann, for: "owner")
        context.processPendingChanges()
        try ann.set("Annie", for: "name")
        context.undo()
        #expect(state == ("Anna", 21))
        context.undo()
        #expect(state == ("Ann", 20))
        #expect(context.registeredObject(for: pet.objectID) == nil)
        #expect(try ann.objects(for: "pets").isEmpty)
        #expect(!context.hasChanges)
        #expect(context.undoManager?.canUndo == false)
        context.redo()
        #expect(state == ("Anna", 21))
        #expect(pet.isInserted && context.registeredObject(for: pet.objectID) === pet)
        #expect(try ann.objects(for: "pets").map { $0 === pet } == [true])
        context.redo()
        #expect(state == ("Annie", 21))
    }

    @Test("save ends the event: the changes before it are one step, those after another")
    func saveEndsTheEvent() throws {
        defer { fixture.remove() }
        try ann.set("Anna", for: "name")
        try ann.set(21, for: "age")
        try context.save()
        try ann.set("Annie", for: "name")
        try ann.set(22, for: "age")
        context.undo()
        #expect(state == ("Anna", 21))
        context.undo()
        #expect(state == ("Ann", 20))
    }

    @Test("undo ends the open event first, and undoes all of it")
    func undoEndsTheEvent() throws {
        defer { fixture.remove() }
        #expect(context.undoManager?.canUndo == false)
        try ann.set("Anna", for: "name")
        try ann.set(21, for: "age")
        #expect(context.undoManager?.canUndo == true)
        context.undo()
        #expect(state == ("Ann", 20))
        #expect(context.undoManager?.canRedo == true)
        // A new change clears what could be redone, at once.
        try ann.set(30, for: "age")
        #expect(context.undoManager?.canRedo == false)
    }

    @Test("an explicit group ends the event before it and is one named step")
    func explicitGroup() throws {
        defer { fixture.remove() }
        let undoManager = try #require(context.undoManager)
        try ann.set("Anna", for: "name")
        try ann.set(21, for: "age")
        try undoManager.group(named: "Birthday") {
            try ann.set(22, for: "age")
            try ann.set("Annie", for: "name")
        }
        #expect(undoManager.undoActionName == "Birthday")
        context.undo()
        #expect(state == ("Anna", 21))
        context.undo()
        #expect(state == ("Ann", 20))
    }

    @Test("with groupsByEvent off, each change outside a group is its own step")
    func withoutEvents() throws {
        defer { fixture.remove() }
        context.undoManager?.groupsByEvent = false
        try ann.set("Anna", for: "name")
        try ann.set(21, for: "age")
        context.undo()
        #expect(state == ("Anna", 20))
    }

    @Test("objects-did-change is posted once per event, with everything since the last")
    func notificationCoalesces() throws {
        defer { fixture.remove() }
        let bob = try fixture.make("Person", "Bob")
        let rex = try fixture.make("Pet", "Rex")
        try rex.setObject(bob, for: "owner")
        try context.save()
        let log = NotificationLog(context)
        let kit = try fixture.make("Pet", "Kit")
        try ann.set(21, for: "age")
        try kit.setObject(ann, for: "owner")
        context.delete(bob)
        let brief = try fixture.make("Pet", "Brief")
        context.delete(brief)
        #expect(log.notes.isEmpty)
        // Delete rules were applied already: Bob's pets cascade.
        #expect(rex.isDeleted)
        context.processPendingChanges()
        #expect(
            log.take() == [
                ContextChange(
                    inserted: [kit.objectID], updated: [ann.objectID],
                    deleted: [bob.objectID, rex.objectID])
            ])
        context.processPendingChanges()
        #expect(log.notes.isEmpty)
    }

    @Test("save posts the pending objects-did-change before will-save")
    func savePostsPending() throws {
        defer { fixture.remove() }
        let log = NotificationLog(context)
        try ann.set(21, for: "age")
        #expect(log.notes.isEmpty)
        try context.save()
        #expect(log.notes.map(\.kind) == [.objectsDidChange, .willSave, .didSave])
        #expect(log.notes.first?.changes == ContextChange(updated: [ann.objectID]))
    }
}
