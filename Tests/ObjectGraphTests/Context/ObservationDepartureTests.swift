import Foundation
import ObjectGraph
import Observation
import Testing

/// Observers of an object that leaves its context hear of it: its values are gone from the
/// context. (A merged deletion and a reset are in ``ObservationTests``.)
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
}
