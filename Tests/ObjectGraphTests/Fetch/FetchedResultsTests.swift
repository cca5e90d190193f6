import Foundation
import ObjectGraph
import Testing

/// A fetched-results controller's sections, and the differences it reports for the context's
/// own changes.
@Suite("Fetched results controller")
struct FetchedResultsTests {
    @Test(
        "a request without sort descriptors, a bad section key path and a bad index are typed errors"
    )
    func errors() throws {
        let fixture = try FetchedResultsFixture()
        defer { fixture.remove() }
        #expect(throws: FetchedResultsError.noSortDescriptors(entity: "Item")) {
            try FetchedResultsController(
                context: fixture.context, fetchRequest: FetchRequest(entityName: "Item"))
        }
        #expect(throws: FetchedResultsError.self) {
            try FetchedResultsController(
                context: fixture.context, fetchRequest: try fixture.request(),
                sectionNameKeyPath: "group ==")
        }
        try fixture.item("a", rank: 1)
        let controller = try fixture.controller(try fixture.request())
        let outside = ResultsIndexPath(row: 1, section: 0)
        #expect(throws: FetchedResultsError.indexPathOutOfRange(outside, sectionCounts: [1])) {
            try controller.object(at: outside)
        }
        #expect(throws: FetchedResultsError.self) {
            try controller.object(at: ResultsIndexPath(row: 0, section: -1))
        }
    }

    @Test("without a section key path there is one section, named \"\", even when empty")
    func oneSection() throws {
        let fixture = try FetchedResultsFixture()
        defer { fixture.remove() }
        let controller = try FetchedResultsController(
            context: fixture.context, fetchRequest: try fixture.request())
        #expect(controller.fetchedObjects == nil)
        try controller.performFetch()
        #expect(controller.sections?.map(\.name) == [""])
        #expect(controller.sections?.map(\.count) == [0])
        let log = DifferenceLog(controller)
        let item = try fixture.item("a", rank: 1)
        fixture.context.processPendingChanges()
        #expect(
            log.take()
                == ResultsDifference(
                    insertedRows: [.init(id: item.objectID, indexPath: .init(row: 0, section: 0))]))
        #expect(controller.indexPath(for: item) == ResultsIndexPath(row: 0, section: 0))
        #expect(try controller.object(at: ResultsIndexPath(row: 0, section: 0)) === item)
    }

    @Test(
        "sections by key path: an insert of a new value makes a section, deleting its last object removes it"
    )
    func sections() throws {
        let fixture = try FetchedResultsFixture()
        defer { fixture.remove() }
        try fixture.item("a1", group: "A", rank: 1)
        try fixture.item("a2", group: "A", rank: 2)
        let b1 = try fixture.item("b1", group: "B", rank: 1)
        try fixture.context.save()
        let controller = try fixture.controller(try fixture.request(), sections: "group")
        let log = DifferenceLog(controller)
        #expect(controller.sections?.map(\.name) == ["A", "B"])
        #expect(names(controller) == [["a1", "a2"], ["b1"]])

        let c1 = try fixture.item("c1", group: "C", rank: 5)
        let a0 = try fixture.item("a0", group: "A", rank: 0)
        fixture.context.processPendingChanges()
        #expect(names(controller) == [["a0", "a1", "a2"], ["b1"], ["c1"]])
        #expect(
            log.take()
                == ResultsDifference(
                    insertedSections: [.init(index: 2, name: "C")],
                    insertedRows: [
                        .init(id: a0.objectID, indexPath: .init(row: 0, section: 0)),
                        .init(id: c1.objectID, indexPath: .init(row: 0, section: 2)),
                    ]))
        try fixture.context.save()
        #expect(log.differences.isEmpty)

        let b1ID = b1.objectID
        fixture.context.delete(b1)
        try fixture.context.save()
        #expect(controller.sections?.map(\.name) == ["A", "C"])
        #expect(
            log.take()
                == ResultsDifference(
                    deletedSections: [.init(index: 1, name: "B")],
                    deletedRows: [.init(id: b1ID, indexPath: .init(row: 0, section: 1))]))
        #expect(log.misfits.isEmpty)
        #expect(controller.fullFetchCount == 1)
    }

    @Test("a changed sort key moves the row; a change into another section moves it there")
    func moves() throws {
        let fixture = try FetchedResultsFixture()
        defer { fixture.remove() }
        let first = try fixture.item("first", rank: 1)
        try fixture.item("second", rank: 2)
        try fixture.item("third", rank: 3)
        try fixture.item("other", group: "B", rank: 1)
        try fixture.context.save()
        let controller = try fixture.controller(try fixture.request(), sections: "group")
        let log = DifferenceLog(controller)

        try first.set(10, for: "rank")
        try fixture.context.save()
        #expect(names(controller) == [["second", "third", "first"], ["other"]])
        #expect(
            log.take()
                == ResultsDifference(movedRows: [
                    .init(
                        id: first.objectID, from: .init(row: 0, section: 0),
                        to: .init(row: 2, section: 0))
                ]))

        try first.set("B", for: "group")
        fixture.context.processPendingChanges()
        #expect(names(controller) == [["second", "third"], ["other", "first"]])
        #expect(
            log.take()
                == ResultsDifference(movedRows: [
                    .init(
                        id: first.objectID, from: .init(row: 2, section: 0),
                        to: .init(row: 1, section: 1))
                ]))
        #expect(log.misfits.isEmpty)
        #expect(controller.fullFetchCount == 1)
    }

    @Test("a change that keeps the order is an update, at its old and new place")
    func updates() throws {
        let fixture = try FetchedResultsFixture()
        defer { fixture.remove() }
        try fixture.item("a", rank: 1)
        let b = try fixture.item("b", rank: 2)
        let c = try fixture.item("c", rank: 3)
        try fixture.context.save()
        let controller = try fixture.controller(try fixture.request())
        let log = DifferenceLog(controller)
        try b.set("bee", for: "name")
        try fixture.context.save()
        #expect(
            log.take()
                == ResultsDifference(updatedRows: [
                    .init(
                        id: b.objectID, from: .init(row: 1, section: 0),
                        to: .init(row: 1, section: 0))
                ]))
        // A sort key changed, the order kept: still an update.
        try c.set(30, for: "rank")
        try fixture.context.save()
        #expect(log.take()?.updatedRows.map(\.id) == [c.objectID])
        // A change of another entity, or an event with nothing in it, reports nothing.
        let tag = try fixture.context.insert("Tag")
        try tag.set("x", for: "label")
        try fixture.context.save()
        #expect(log.differences.isEmpty)
        #expect(log.misfits.isEmpty)
    }

    @Test("a change making an object match enters it; one making it not match takes it out")
    func predicateEntryAndExit() throws {
        let fixture = try FetchedResultsFixture()
        defer { fixture.remove() }
        let a = try fixture.item("a", rank: 1)
        let b = try fixture.item("b", rank: 2, active: false)
        try fixture.context.save()
        let controller = try fixture.controller(try fixture.request("active == YES"))
        let log = DifferenceLog(controller)
        #expect(names(controller) == [["a"]])
        try b.set(true, for: "active")
        fixture.context.processPendingChanges()
        #expect(names(controller) == [["a", "b"]])
        #expect(
            log.take()
                == ResultsDifference(insertedRows: [
                    .init(id: b.objectID, indexPath: .init(row: 1, section: 0))
                ]))
        try a.set(false, for: "active")
        try fixture.context.save()
        #expect(names(controller) == [["b"]])
        #expect(
            log.take()
                == ResultsDifference(deletedRows: [
                    .init(id: a.objectID, indexPath: .init(row: 0, section: 0))
                ]))
        #expect(log.misfits.isEmpty)
        #expect(controller.fullFetchCount == 1)
    }

    @Test(
        "a save gives new objects permanent IDs: the snapshot shows them, no difference is reported"
    )
    func permanentIDs() throws {
        let fixture = try FetchedResultsFixture()
        defer { fixture.remove() }
        let controller = try fixture.controller(try fixture.request())
        let log = DifferenceLog(controller)
        let item = try fixture.item("a", rank: 1)
        fixture.context.processPendingChanges()
        #expect(controller.snapshot?.ids == [item.objectID])
        #expect(item.objectID.isTemporary)
        try fixture.context.save()
        #expect(!item.objectID.isTemporary)
        #expect(controller.snapshot?.ids == [item.objectID])
        #expect(log.differences.count == 1)
        // The object is found by its new ID: deleting it is reported.
        fixture.context.delete(item)
        fixture.context.processPendingChanges()
        #expect(log.take()?.deletedRows.map(\.id) == [item.objectID])
        #expect(controller.fetchedObjects?.isEmpty == true)
    }

    @Test("with a limit and offset the window is kept by fetching again, and reported")
    func limits() throws {
        let fixture = try FetchedResultsFixture()
        defer { fixture.remove() }
        for rank in 1...6 { try fixture.item("i\(rank)", rank: rank) }
        try fixture.context.save()
        var request = try fixture.request()
        request.fetchOffset = 1
        request.fetchLimit = 3
        let controller = try fixture.controller(request)
        let log = DifferenceLog(controller)
        #expect(names(controller) == [["i2", "i3", "i4"]])
        try fixture.item("i0", rank: 0)
        try fixture.context.save()
        #expect(names(controller) == [["i1", "i2", "i3"]])
        #expect(log.take()?.insertedRows.map(\.indexPath) == [.init(row: 0, section: 0)])
        #expect(log.misfits.isEmpty)
    }

    @Test("with includesPendingChanges false the results follow saves, not unsaved changes")
    func savedValuesOnly() throws {
        let fixture = try FetchedResultsFixture()
        defer { fixture.remove() }
        let a = try fixture.item("a", rank: 1)
        try fixture.context.save()
        var request = try fixture.request()
        request.includesPendingChanges = false
        let controller = try fixture.controller(request)
        let log = DifferenceLog(controller)
        try fixture.item("b", rank: 2)
        fixture.context.processPendingChanges()
        #expect(names(controller) == [["a"]])
        try fixture.context.save()
        #expect(names(controller) == [["a", "b"]])
        fixture.context.delete(a)
        fixture.context.processPendingChanges()
        #expect(names(controller) == [["a", "b"]])
        try fixture.context.save()
        #expect(names(controller) == [["b"]])
        #expect(log.misfits.isEmpty)
    }
}
