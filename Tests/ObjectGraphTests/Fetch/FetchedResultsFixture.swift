import Foundation
import ObjectGraph
import Testing

/// A SQLite store of `Item`s (name, group, rank, active) in a temporary folder, a context on
/// it with an undo manager, and helpers to follow a fetched-results controller.
struct FetchedResultsFixture {
    let folder: URL
    let coordinator: StoreCoordinator
    let context: ManagedContext

    /// Item: name, group (optional), rank, active.
    static func model() -> EntityModel {
        var item = Entity("Item")
        item.attributes = [
            Attribute("name", type: .string),
            Attribute("group", type: .string),
            Attribute("rank", type: .integer32),
            Attribute("active", type: .boolean),
        ]
        var tag = Entity("Tag")
        tag.attributes = [Attribute("label", type: .string)]
        return EntityModel(entities: [item, tag])
    }

    init() throws {
        folder = try TestSupport.makeTemporaryFolder()
        coordinator = StoreCoordinator(model: Self.model())
        try coordinator.addStore(type: .sqlite, at: folder.appendingPathComponent("items.sqlite"))
        context = ManagedContext(coordinator: coordinator, undoManager: UndoManager())
    }

    /// Another context on the same store.
    func otherContext() -> ManagedContext { ManagedContext(coordinator: coordinator) }

    func remove() { TestSupport.removeTemporaryFolder(folder) }

    /// Inserts an item into `context` (this fixture's by default).
    @discardableResult
    func item(
        _ name: String, group: String? = "A", rank: Int, active: Bool = true,
        in context: ManagedContext? = nil
    ) throws -> ManagedObject {
        let object = try (context ?? self.context).insert("Item")
        try object.set(name, for: "name")
        try object.set(group, for: "group")
        try object.set(rank, for: "rank")
        try object.set(active, for: "active")
        return object
    }

    /// A request for items sorted by `sort` (by group then rank by default).
    func request(
        _ predicate: String? = nil,
        sort: [ObjectGraph.SortDescriptor] = [
            ObjectGraph.SortDescriptor("group"), ObjectGraph.SortDescriptor("rank"),
        ]
    ) throws -> FetchRequest<ManagedObject> {
        FetchRequest(
            entityName: "Item", predicate: try predicate.map { try Predicate(format: $0) },
            sortDescriptors: sort)
    }

    /// A fetched controller on `request`.
    func controller(
        _ request: FetchRequest<ManagedObject>, sections: String? = nil
    ) throws -> FetchedResultsController<ManagedObject> {
        let controller = try FetchedResultsController(
            context: context, fetchRequest: request, sectionNameKeyPath: sections)
        try controller.performFetch()
        return controller
    }
}

/// The names of a controller's objects, section by section.
func names(_ controller: FetchedResultsController<ManagedObject>) -> [[String]] {
    (controller.sections ?? []).map { section in
        section.objects.map { ($0["name"] as String?) ?? "?" }
    }
}

/// Records a controller's differences and checks each one: applied to the snapshot before,
/// it gives the snapshot after.
final class DifferenceLog {
    private(set) var differences: [ResultsDifference] = []
    /// Differences that did not turn the snapshot before into the one after.
    private(set) var misfits: [ResultsDifference] = []
    private var last: ResultsSnapshot?
    private var observation: ContextObservation?

    init(_ controller: FetchedResultsController<ManagedObject>) {
        last = controller.snapshot
        controller.onChange = { [unowned self, unowned controller] difference in
            differences.append(difference)
            if let last, difference.applied(to: last) != controller.snapshot {
                misfits.append(difference)
            }
            last = controller.snapshot
        }
        // A save's permanent IDs change the snapshot without a difference.
        observation = controller.context.observe { [unowned self, unowned controller] note in
            if note.kind == .didSave { last = controller.snapshot }
        }
    }

    /// The last difference, taking it off the log.
    func take() -> ResultsDifference? { differences.popLast() }
}
