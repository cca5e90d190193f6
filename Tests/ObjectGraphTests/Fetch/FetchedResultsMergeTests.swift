import Foundation
import ObjectGraph
import Testing

/// A fetched-results controller following merges of other contexts' saves, undo and redo, and
/// the asynchronous snapshot sequences.
@Suite("Fetched results: merges, undo, snapshots")
struct FetchedResultsMergeTests {
    /// Runs `body` in `context`, saves, and returns the did-save notification.
    func saving(_ context: ManagedContext, _ body: () throws -> Void) throws -> ContextNotification
    {
        var saved: ContextNotification?
        let observation = context.observe { if $0.kind == .didSave { saved = $0 } }
        defer { observation.cancel() }
        try body()
        try context.save()
        return try #require(saved)
    }

    @Test("a merge of another context's inserts, updates and deletions is reported and applied")
    func merge() throws {
        let fixture = try FetchedResultsFixture()
        defer { fixture.remove() }
        try fixture.item("a", rank: 1)
        try fixture.item("b", rank: 2)
        try fixture.item("c", rank: 3)
        try fixture.context.save()
        let controller = try fixture.controller(try fixture.request(), sections: "group")
        let log = DifferenceLog(controller)
        let other = fixture.otherContext()
        var request = try fixture.request()
        request.predicate = try Predicate(format: "name == 'a' OR name == 'c'")
        let theirs = try other.fetch(request)
        let note = try saving(other) {
            try fixture.item("n", group: "N", rank: 0, in: other)
            try theirs[0].set(9, for: "rank")  // a moves after b
            other.delete(theirs[1])  // c goes
        }
        try fixture.context.mergeChanges(fromContextDidSave: note)
        #expect(names(controller) == [["b", "a"], ["n"]])
        let difference = try #require(log.take())
        #expect(difference.insertedSections == [.init(index: 1, name: "N")])
        #expect(difference.insertedRows.map(\.indexPath) == [.init(row: 0, section: 1)])
        #expect(difference.deletedRows.map(\.indexPath) == [.init(row: 2, section: 0)])
        #expect(difference.movedRows.count + difference.updatedRows.count == 1)
        #expect(log.misfits.isEmpty)
        #expect(controller.fullFetchCount == 1)
        // The same as a new controller's fetch.
        let fresh = try fixture.controller(try fixture.request(), sections: "group")
        #expect(fresh.snapshot == controller.snapshot)
    }

    @Test(
        "an object another context updated to match enters the results, though this context never held it"
    )
    func mergeOfObjectNotHeld() async throws {
        let fixture = try FetchedResultsFixture()
        defer { fixture.remove() }
        let other = fixture.otherContext()
        let x = try fixture.item("x", rank: 1, active: false, in: other)
        try fixture.item("y", rank: 2, in: other)
        try other.save()
        let controller = try fixture.controller(try fixture.request("active == YES"))
        let log = DifferenceLog(controller)
        var snapshots = fixture.context.results(of: try fixture.request("active == YES"))
            .makeAsyncIterator()
        #expect(try await snapshots.next()?.ids.count == 1)
        #expect(names(controller) == [["y"]])
        #expect(fixture.context.registeredObject(for: x.objectID) == nil)
        let note = try saving(other) { try x.set(true, for: "active") }
        try fixture.context.mergeChanges(fromContextDidSave: note)
        #expect(names(controller) == [["x", "y"]])
        #expect(
            log.take()
                == ResultsDifference(insertedRows: [
                    .init(id: x.objectID, indexPath: .init(row: 0, section: 0))
                ]))
        // A local insert after the merge: the newest snapshot holds x too (never waits for a
        // snapshot that may not come).
        try fixture.item("z", rank: 3)
        fixture.context.processPendingChanges()
        #expect(try await snapshots.next()?.ids.count == 3)
        #expect(log.misfits.isEmpty)
        #expect(controller.fullFetchCount == 1)
    }

    @Test("undo and redo of a move, an insert and a delete are reported")
    func undo() throws {
        let fixture = try FetchedResultsFixture()
        defer { fixture.remove() }
        let a = try fixture.item("a", rank: 1)
        try fixture.item("b", rank: 2)
        try fixture.context.save()
        let controller = try fixture.controller(try fixture.request())
        let log = DifferenceLog(controller)
        try a.set(5, for: "rank")
        fixture.context.processPendingChanges()
        #expect(names(controller) == [["b", "a"]])
        fixture.context.undo()
        #expect(names(controller) == [["a", "b"]])
        #expect(log.take()?.movedRows.map(\.id) == [a.objectID])
        fixture.context.redo()
        #expect(names(controller) == [["b", "a"]])
        fixture.context.undo()

        fixture.context.delete(a)
        fixture.context.processPendingChanges()
        #expect(names(controller) == [["b"]])
        fixture.context.undo()
        #expect(names(controller) == [["a", "b"]])
        #expect(log.take()?.insertedRows.map(\.id) == [a.objectID])

        let c = try fixture.item("c", rank: 3)
        fixture.context.processPendingChanges()
        #expect(names(controller) == [["a", "b", "c"]])
        fixture.context.undo()
        #expect(names(controller) == [["a", "b"]])
        #expect(log.take()?.deletedRows.map(\.id) == [c.objectID])
        #expect(log.misfits.isEmpty)
        #expect(controller.fullFetchCount == 1)
    }

    @Test("context.results(of:) yields the results, then a snapshot per change of them only")
    func resultsSequence() async throws {
        let fixture = try FetchedResultsFixture()
        defer { fixture.remove() }
        var context: ManagedContext? = ManagedContext(coordinator: fixture.coordinator)
        let a = try fixture.item("a", rank: 1, in: context)
        try context?.save()
        let request = try fixture.request("active == YES")
        var snapshots = try #require(context).results(of: request).makeAsyncIterator()
        #expect(try await snapshots.next()?.ids == [a.objectID])

        try a.set("renamed", for: "name")  // an update: the IDs stay
        context?.processPendingChanges()
        let b = try fixture.item("b", rank: 2, in: context)
        context?.processPendingChanges()
        let next = try await snapshots.next()
        #expect(next?.ids == [a.objectID, b.objectID])
        #expect(next?.sections.map(\.name) == [""])
        try b.set(false, for: "active")
        context?.processPendingChanges()
        #expect(try await snapshots.next()?.ids == [a.objectID])

        try a.set("again", for: "name")  // no snapshot for this one
        context?.processPendingChanges()
        context = nil  // the sequence ends with the context
        #expect(try await snapshots.next() == nil)
    }

    @Test("context.results(of:) throws for a request it cannot follow")
    func resultsSequenceError() async throws {
        let fixture = try FetchedResultsFixture()
        defer { fixture.remove() }
        var snapshots = fixture.context.results(of: FetchRequest(entityName: "Item"))
            .makeAsyncIterator()
        await #expect(throws: FetchedResultsError.noSortDescriptors(entity: "Item")) {
            try await snapshots.next()
        }
    }

    @Test("the controller's snapshots: now, then after changes that alter the results")
    func controllerSnapshots() async throws {
        let fixture = try FetchedResultsFixture()
        defer { fixture.remove() }
        let a = try fixture.item("a", rank: 1)
        try fixture.context.save()
        var controller: FetchedResultsController? = try fixture.controller(try fixture.request())
        var snapshots = try #require(controller).snapshots.makeAsyncIterator()
        #expect(await snapshots.next()?.ids == [a.objectID])
        let b = try fixture.item("b", rank: 0)
        try fixture.context.save()
        #expect(await snapshots.next()?.ids == [b.objectID, a.objectID])
        try a.set("renamed", for: "name")
        try fixture.context.save()
        controller = nil
        #expect(await snapshots.next() == nil)
    }
}
