import Foundation
import ObjectGraph
import Observation
import Testing

/// Generated classes in Swift's Observation framework: a property read inside
/// `withObservationTracking` is tracked, and a change of it fires the observer.
@Suite("Observation of generated classes")
struct ObservationTests {
    /// Runs `body` with a context on a new SQLite store of the TypedSchool model (observation
    /// as a new context has it: on, without asking).
    private static func inContext(_ body: (ManagedContext) throws -> Void) throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = ManagedContext(
            coordinator: try ObservationSupport.coordinator(folder: folder),
            classes: ManagedObjectClasses())
        try body(context)
    }

    @Test("a typed set of a read property fires the observer")
    func typedSet() throws {
        try Self.inContext { context in
            let ada = try ObservationSupport.student(context, "Ada")
            let firings = ObservationSupport.track { _ = ada.name }
            #expect(firings.value == 0)
            ada.name = "Ada"  // the same value: no change
            #expect(firings.value == 0)
            ada.name = "Ada Lovelace"
            #expect(firings.value == 1)
        }
    }

    @Test("a change of a property not read does not fire the observer")
    func unreadProperty() throws {
        try Self.inContext { context in
            let ada = try ObservationSupport.student(context, "Ada")
            let bob = try ObservationSupport.student(context, "Bob")
            let firings = ObservationSupport.track { _ = ada.name }
            ada.email = "ada@example.com"
            ada.studentNumber = 9
            bob.name = "Robert"
            #expect(firings.value == 0)
        }
    }

    @Test("undo and redo of a read property fire the observer")
    func undo() throws {
        try Self.inContext { context in
            let ada = try ObservationSupport.student(context, "Ada")
            try context.save()
            context.undoManager = UndoManager()
            ada.name = "Ada Lovelace"
            let undone = ObservationSupport.track { _ = ada.name }
            context.undo()
            #expect(undone.value == 1 && ada.name == "Ada")
            let redone = ObservationSupport.track { _ = ada.name }
            context.redo()
            #expect(redone.value == 1 && ada.name == "Ada Lovelace")
        }
    }

    @Test(
        "a rollback, or a refresh that turns the object into a fault, fires the observer",
        arguments: ["rollback", "refresh"])
    func revert(_ way: String) throws {
        try Self.inContext { context in
            let ada = try ObservationSupport.student(context, "Ada")
            try context.save()
            ada.name = "Ada Lovelace"
            let firings = ObservationSupport.track { _ = ada.name }
            if way == "rollback" {
                context.rollback()
            } else {
                try context.refresh(ada, mergeChanges: false)
            }
            #expect(firings.value == 1 && ada.name == "Ada")
        }
    }

    @Test(
        "a merge of another context's save (a change, or the object's deletion) fires the observer",
        arguments: ["change", "deletion"])
    func merge(_ saved: String) throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let coordinator = try ObservationSupport.coordinator(folder: folder)
        let classes = ManagedObjectClasses()
        let writer = ManagedContext(coordinator: coordinator, classes: classes)
        let viewer = ManagedContext(coordinator: coordinator, classes: classes)
        let written = try ObservationSupport.student(writer, "Ada")
        try writer.save()
        let ada = try #require(try viewer.existingObject(with: written.objectID) as? TypedStudent)
        #expect(ada.name == "Ada")
        var note: ContextNotification?
        let observation = writer.observe { if $0.kind == .didSave { note = $0 } }
        defer { observation.cancel() }
        let firings = ObservationSupport.track { _ = ada.name }
        if saved == "change" {
            written.name = "Ada Lovelace"
        } else {
            writer.delete(written)
        }
        try writer.save()
        #expect(firings.value == 0)
        try viewer.mergeChanges(fromContextDidSave: try #require(note))
        #expect(firings.value == 1)
        if saved == "change" {
            #expect(ada.name == "Ada Lovelace")
        } else {
            #expect(ada.context == nil)
        }
    }

    @Test("an observer of one object's property does not fire for the same property of others")
    func precision() throws {
        try Self.inContext { context in
            let ada = try ObservationSupport.student(context, "Ada")
            let others = try (0..<300).map {
                try ObservationSupport.student(context, "Student \($0)")
            }
            let adaRead = ObservationSupport.track { _ = ada.name }
            let othersRead = others.map { other in ObservationSupport.track { _ = other.name } }
            for other in others { other.name = "Renamed" }
            #expect(adaRead.value == 0)
            #expect(othersRead.allSatisfy { $0.value == 1 })
            ada.email = "ada@example.com"
            #expect(adaRead.value == 0)
            ada.name = "Ada Lovelace"
            #expect(adaRead.value == 1)
            #expect(othersRead.allSatisfy { $0.value == 1 })
        }
    }

    @Test("a read outside a tracking scope registers nothing; a later read inside one does")
    func untrackedRead() throws {
        try Self.inContext { context in
            let ada = try ObservationSupport.student(context, "Ada")
            _ = ada.name
            let unrelated = ObservationSupport.track { _ = ada.email }
            ada.name = "Ada Lovelace"
            #expect(unrelated.value == 0)
            let firings = ObservationSupport.track { _ = ada.name }
            ada.name = "Ada"
            #expect(firings.value == 1 && unrelated.value == 0)
        }
    }

    @Test("a read in a nested tracking scope fires the observers of both scopes")
    func nestedScopes() throws {
        try Self.inContext { context in
            let ada = try ObservationSupport.student(context, "Ada")
            let inner = ObservationSupport.Firings()
            let outer = ObservationSupport.track {
                withObservationTracking {
                    _ = ada.name
                } onChange: {
                    inner.fire()
                }
            }
            ada.name = "Ada Lovelace"
            #expect(inner.value == 1 && outer.value == 1)
        }
    }

    @Test("a reset of the context fires the observers of the objects it held")
    func reset() throws {
        try Self.inContext { context in
            let ada = try ObservationSupport.student(context, "Ada")
            try context.save()
            let firings = ObservationSupport.track { _ = ada.name }
            context.reset()
            #expect(firings.value == 1)
        }
    }

    @Test("a context with tracksObservation off registers no typed reads")
    func trackingOff() throws {
        try Self.inContext { context in
            #expect(context.tracksObservation)
            let ada = try ObservationSupport.student(context, "Ada")
            context.tracksObservation = false
            let firings = ObservationSupport.track { _ = ada.name }
            ada.name = "Ada Lovelace"
            #expect(firings.value == 0)
            context.tracksObservation = true
            let tracked = ObservationSupport.track { _ = ada.name }
            ada.name = "Ada"
            #expect(tracked.value == 1)
        }
    }
}
