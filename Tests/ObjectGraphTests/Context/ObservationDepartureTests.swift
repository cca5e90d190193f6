import Foundation
import ObjectGraph
import Observation
import Testing

/// Observers of an object that leaves its context (its deletion saved, a merged deletion from
/// another context, a reset) hear of it: the object's values are gone from the context.
@Suite("Observation of objects that leave their context")
struct ObservationDepartureTests {
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

    private static func track(_ read: () -> Void) -> Firings {
        let firings = Firings()
        withObservationTracking(read) { firings.fire() }
        return firings
    }

    @Test("an observed object whose deletion is saved fires its observer; others do not")
    func savedDeletion() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = ManagedContext(
            coordinator: try Self.coordinator(folder: folder), classes: ManagedObjectClasses())
        let ada = try Self.student(context, "Ada")
        let bob = try Self.student(context, "Bob")
        try context.save()
        let adaRead = Self.track { _ = ada.name }
        let bobRead = Self.track { _ = bob.name }
        context.delete(ada)
        try context.save()
        #expect(ada.context == nil)
        #expect(adaRead.value == 1)
        #expect(bobRead.value == 0)
    }

    @Test("an observed object deleted by another context fires its observer when merged")
    func mergedDeletion() throws {
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
        writer.delete(written)
        try writer.save()
        #expect(firings.value == 0)
        try viewer.mergeChanges(fromContextDidSave: try #require(note))
        #expect(firings.value == 1)
    }
}
