import Foundation
import ObjectGraph
import Observation
import Testing

/// Observers of an object that leaves its context (its deletion saved, a merged deletion from
/// another context, a reset) hear of it: the object's values are gone from the context.
@Suite("Observation of objects that leave their context")
struct ObservationDepartureTests {
    @Test("an observed object whose deletion is saved fires its observer; others do not")
    func savedDeletion() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = ManagedContext(
            coordinator: try ObservationSupport.coordinator(folder: folder),
            classes: ManagedObjectClasses())
        let ada = try ObservationSupport.student(context, "Ada")
        let bob = try ObservationSupport.student(context, "Bob")
        bob.studentNumber = 2
        try context.save()
        let adaRead = ObservationSupport.track { _ = ada.name }
        let bobRead = ObservationSupport.track { _ = bob.name }
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
        writer.delete(written)
        try writer.save()
        #expect(firings.value == 0)
        try viewer.mergeChanges(fromContextDidSave: try #require(note))
        #expect(firings.value == 1)
    }
}
