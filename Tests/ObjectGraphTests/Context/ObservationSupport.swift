import Foundation
import ObjectGraph
import Observation

/// What the Observation suites share: an observer's firing count, a store of the TypedSchool
/// model, students, and a tracked read.
enum ObservationSupport {
    /// Counts how often an observer fired (it may be called from any thread).
    final class Firings: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func fire() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    /// A coordinator on a new SQLite store of the TypedSchool model in `folder`.
    static func coordinator(folder: URL) throws -> StoreCoordinator {
        let model = try EntityModel(
            contentsOf: TestSupport.models.appendingPathComponent("TypedSchool.xcdatamodeld"))
        let coordinator = StoreCoordinator(model: model)
        try coordinator.addStore(
            type: .sqlite, at: folder.appendingPathComponent("School.sqlite"))
        return coordinator
    }

    /// A new student named `name`, valid for a save.
    static func student(_ context: ManagedContext, _ name: String) throws -> TypedStudent {
        let student = try context.insert(TypedStudent.self)
        student.name = name
        student.id = UUID()
        student.studentNumber = 1
        return student
    }

    /// Tracks the reads `read` makes; the returned count grows when the observer fires.
    static func track(_ read: () -> Void) -> Firings {
        let firings = Firings()
        withObservationTracking(read) { firings.fire() }
        return firings
    }
}
