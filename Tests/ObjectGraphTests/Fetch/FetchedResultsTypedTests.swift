import Foundation
import ObjectGraph
import Testing

/// An `Item` class naming its key paths, as generated classes do.
final class NamedItem: ManagedObject, KeyPathNaming {
    var group: String? { self["group"] }
    var rank: Int { self["rank"] ?? 0 }

    static func propertyName(for keyPath: AnyKeyPath) -> String? {
        [\NamedItem.group: "group", \NamedItem.rank: "rank"][keyPath]
    }
}

/// Typed results (a subclass, a section key path given as a key path) and large changes.
@Suite("Fetched results: typed, large changes")
struct FetchedResultsTypedTests {
    @Test("a subclass's results, sectioned by a key path it names; an unnamed key path is an error")
    func typed() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let coordinator = StoreCoordinator(model: FetchedResultsFixture.model())
        try coordinator.addStore(type: .sqlite, at: folder.appendingPathComponent("typed.sqlite"))
        let classes = ManagedObjectClasses()
        classes.register(NamedItem.self, forEntity: "Item")
        let context = ManagedContext(coordinator: coordinator, classes: classes)
        for (group, rank) in [("B", 1), ("A", 2), ("A", 1)] {
            let item = try context.insert(NamedItem.self)
            try item.set(group, for: "group")
            try item.set(rank, for: "rank")
        }
        let request = FetchRequest<NamedItem>(
            sortDescriptors: [
                ObjectGraph.SortDescriptor("group"), ObjectGraph.SortDescriptor("rank"),
            ])
        let controller = try FetchedResultsController(
            context: context, fetchRequest: request, sectionNameKeyPath: \NamedItem.group)
        try controller.performFetch()
        #expect(controller.sectionNameKeyPath == "group")
        #expect(controller.sections?.map(\.name) == ["A", "B"])
        #expect(controller.fetchedObjects?.map(\.rank) == [1, 2, 1])
        #expect(throws: FetchedResultsError.self) {
            try FetchedResultsController(
                context: context, fetchRequest: request, sectionNameKeyPath: \NamedItem.objectID)
        }
    }

    @Test("a change to many objects fetches again, and still reports the difference")
    func largeChange() throws {
        let fixture = try FetchedResultsFixture()
        defer { fixture.remove() }
        for rank in 0..<10 { try fixture.item("i\(rank)", rank: rank) }
        try fixture.context.save()
        let controller = try fixture.controller(try fixture.request())
        let log = DifferenceLog(controller)
        for rank in 10..<110 { try fixture.item("j\(rank)", rank: rank) }
        try fixture.context.save()
        #expect(controller.fullFetchCount == 2)
        #expect(log.take()?.insertedRows.count == 100)
        #expect(log.misfits.isEmpty)
        // A small change after it is applied in place again.
        fixture.context.delete(try controller.object(at: ResultsIndexPath(row: 0, section: 0)))
        fixture.context.processPendingChanges()
        #expect(controller.fullFetchCount == 2)
        #expect(log.take()?.deletedRows.map(\.indexPath) == [.init(row: 0, section: 0)])
    }
}
