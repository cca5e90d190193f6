import Foundation
import ObjectGraph
import Observation
import Testing

/// Generated classes in Swift's Observation framework: a property read inside
/// `withObservationTracking` is tracked, and a change of it fires the observer.
@Suite("Observation of generated classes")
struct ObservationTests {
    /// Counts how often an observer fired (it may be called from any thread).
    private final class Firings: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func fire() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    private static func coordinator(folder: URL) throws -> StoreCoordinator {
        let model = try EntityModel(
            contentsOf: TestSupport.models.appendingPathComponent("TypedSchool.xcdatamodeld"))
        let coordinator = StoreCoordinator(model: model)
        try coordinator.addStore(
            type: .sqlite, at: folder.appendingPathComponent("School.sqlite"))
        return coordinator
    }

    private static func student(_ context: ManagedContext, _ name: String) throws -> TypedStudent {
        let student = try context.insert(TypedStudent.self)
        student.name = name
        student.id = UUID()
        student.studentNumber = 1
        return student
    }

    /// Runs `body` with a context on a new SQLite store of the TypedSchool model (observation
    /// as a new context has it: on, without asking).
    private static func inContext(_ body: (ManagedContext) throws -> Void) throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = ManagedContext(
            coordinator: try coordinator(folder: folder), classes: ManagedObjectClasses())
        try body(context)
    }

    /// Tracks the reads `read` makes; the returned count grows when the observer fires.
    private static func track(_ read: () -> Void) -> Firings {
        let firings = Firings()
        withObservationTracking(read) { firings.fire() }
        return firings
    }

    @Test("a typed set of a read property fires the observer")
    func typedSet() throws {
        try Self.inContext { context in
            let ada = try Self.student(context, "Ada")
            let firings = Self.track { _ = ada.name }
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
            let ada = try Self.student(context, "Ada")
            let bob = try Self.student(context, "Bob")
            let firings = Self.track { _ = ada.name }
            ada.email = "ada@example.com"
            ada.studentNumber = 9
            bob.name = "Robert"
            #expect(firings.value == 0)
        }
    }

    @Test("undo and redo of a read property fire the observer")
    func undo() throws {
        try Self.inContext { context in
            let ada = try Self.student(context, "Ada")
            try context.save()
            context.undoManager = UndoManager()
            ada.name = "Ada Lovelace"
            let undone = Self.track { _ = ada.name }
            context.undo()
            #expect(undone.value == 1 && ada.name == "Ada")
            let redone = Self.track { _ = ada.name }
            context.redo()
            #expect(redone.value == 1 && ada.name == "Ada Lovelace")
        }
    }

    @Test(
        "a rollback, or a refresh that turns the object into a fault, fires the observer",
        arguments: ["rollback", "refresh"])
    func revert(_ way: String) throws {
        try Self.inContext { context in
            let ada = try Self.student(context, "Ada")
            try context.save()
            ada.name = "Ada Lovelace"
            let firings = Self.track { _ = ada.name }
            if way == "rollback" {
                context.rollback()
            } else {
                try context.refresh(ada, mergeChanges: false)
            }
            #expect(firings.value == 1 && ada.name == "Ada")
        }
    }

    @Test("a merge of another context's save fires the observer of a read property")
    func merge() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let coordinator = try Self.coordinator(folder: folder)
        let classes = ManagedObjectClasses()
        let writer = ManagedContext(coordinator: coordinator, classes: classes)
        let viewer = ManagedContext(coordinator: coordinator, classes: classes)
        let written = try Self.student(writer, "Ada")
        try writer.save()
        let ada = try #require(try viewer.existingObject(with: written.objectID) as? TypedStudent)
        #expect(ada.name == "Ada")
        var note: ContextNotification?
        let observation = writer.observe { if $0.kind == .didSave { note = $0 } }
        defer { observation.cancel() }
        let firings = Self.track { _ = ada.name }
        written.name = "Ada Lovelace"
        try writer.save()
        #expect(firings.value == 0)
        try viewer.mergeChanges(fromContextDidSave: try #require(note))
        #expect(firings.value == 1 && ada.name == "Ada Lovelace")
    }

    @Test("an observer of one object's property does not fire for the same property of others")
    func precision() throws {
        try Self.inContext { context in
            let ada = try Self.student(context, "Ada")
            let others = try (0..<300).map { try Self.student(context, "Student \($0)") }
            let adaRead = Self.track { _ = ada.name }
            let othersRead = others.map { other in Self.track { _ = other.name } }
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
            let ada = try Self.student(context, "Ada")
            _ = ada.name
            let unrelated = Self.track { _ = ada.email }
            ada.name = "Ada Lovelace"
            #expect(unrelated.value == 0)
            let firings = Self.track { _ = ada.name }
            ada.name = "Ada"
            #expect(firings.value == 1 && unrelated.value == 0)
        }
    }

    @Test("a read in a nested tracking scope fires the observers of both scopes")
    func nestedScopes() throws {
        try Self.inContext { context in
            let ada = try Self.student(context, "Ada")
            let inner = Firings()
            let outer = Self.track {
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
            let ada = try Self.student(context, "Ada")
            try context.save()
            let firings = Self.track { _ = ada.name }
            context.reset()
            #expect(firings.value == 1)
        }
    }

    @Test("a context with tracksObservation off registers no typed reads")
    func trackingOff() throws {
        try Self.inContext { context in
            #expect(context.tracksObservation)
            let ada = try Self.student(context, "Ada")
            context.tracksObservation = false
            let firings = Self.track { _ = ada.name }
            ada.name = "Ada Lovelace"
            #expect(firings.value == 0)
            context.tracksObservation = true
            let tracked = Self.track { _ = ada.name }
            ada.name = "Ada"
            #expect(tracked.value == 1)
        }
    }
}
