import Foundation
import Testing

@testable import ObjectGraph

/// Collects a context's notifications.
final class NotificationLog {
    var notes: [ContextNotification] = []
    var observation: ContextObservation?

    init(_ context: ManagedContext) {
        observation = context.observe { [weak self] note in self?.notes.append(note) }
    }

    /// The notifications of `kind` received since the last call, then forgets them all.
    func take(_ kind: ContextNotification.Kind = .objectsDidChange) -> [ContextChange] {
        defer { notes.removeAll() }
        return notes.filter { $0.kind == kind }.map(\.changes)
    }
}

@Suite("Context notifications")
struct ContextNotificationTests {
    let context: ManagedContext
    let log: NotificationLog

    init() throws {
        context = try GraphTestModels.context(GraphTestModels.deletion())
        log = NotificationLog(context)
    }

    private func make(_ entity: String, _ name: String) throws -> ManagedObject {
        try GraphTestModels.make(context, entity, name)
    }

    @Test("objects-did-change after an insert, an edit, a relationship edit and a delete")
    func changes() throws {
        let work = try context.insert("Folder")
        #expect(log.notes.isEmpty)
        context.processPendingChanges()
        #expect(log.take() == [ContextChange(inserted: [work.objectID])])
        try work.set("work", for: "name")
        context.processPendingChanges()
        #expect(log.take() == [ContextChange(updated: [work.objectID])])
        let file = try make("File", "file")
        try context.save()
        _ = log.take()
        try file.set("renamed", for: "name")
        context.processPendingChanges()
        #expect(log.take() == [ContextChange(updated: [file.objectID])])
        try work.add(file, to: "files")
        context.processPendingChanges()
        #expect(log.take() == [ContextChange(updated: [work.objectID, file.objectID])])
        context.delete(work)
        context.processPendingChanges()
        #expect(log.take() == [ContextChange(deleted: [work.objectID, file.objectID])])
    }

    @Test("one notification per event, none when nothing changes")
    func onePerEvent() throws {
        let work = try make("Folder", "work")
        context.processPendingChanges()
        _ = log.take()
        try work.set("work", for: "name")
        context.processPendingChanges()
        #expect(log.notes.isEmpty)
        try context.undoManager?.group(named: "Two") {
            try work.set("a", for: "name")
            try work.set("b", for: "name")
        }
        #expect(log.take() == [ContextChange(updated: [work.objectID])])
    }

    @Test("objects-did-change after undo and redo, with the right IDs")
    func undoRedo() throws {
        let work = try make("Folder", "work")
        try context.save()
        try work.set("renamed", for: "name")
        context.processPendingChanges()
        _ = log.take()
        context.undo()
        #expect(log.take() == [ContextChange(updated: [work.objectID])])
        context.redo()
        #expect(log.take() == [ContextChange(updated: [work.objectID])])
        let file = try context.insert("File")
        context.processPendingChanges()
        _ = log.take()
        context.undo()
        #expect(log.take() == [ContextChange(deleted: [file.objectID])])
        context.redo()
        #expect(log.take() == [ContextChange(inserted: [file.objectID])])
        context.delete(work)
        context.processPendingChanges()
        _ = log.take()
        context.undo()
        #expect(log.take() == [ContextChange(inserted: [work.objectID])])
        context.undoManager?.removeAllActions()
        context.undo()
        #expect(log.notes.isEmpty)
    }

    @Test("undo and redo through the undo manager itself post objects-did-change too")
    func undoManagerDirect() throws {
        let work = try make("Folder", "work")
        try context.save()
        try work.set("renamed", for: "name")
        context.processPendingChanges()
        _ = log.take()
        context.undoManager?.undo()
        #expect(log.take() == [ContextChange(updated: [work.objectID])])
        context.undoManager?.redo()
        #expect(log.take() == [ContextChange(updated: [work.objectID])])
        let file = try make("File", "file")
        context.processPendingChanges()
        _ = log.take()
        try context.undoManager?.group(named: "Rename") { try file.set("f", for: "name") }
        #expect(log.take() == [ContextChange(updated: [file.objectID])])
    }

    @Test("will-save and did-save list what is written, with permanent IDs")
    func saveNotifications() throws {
        let work = try make("Folder", "work")
        let old = try make("Folder", "old")
        try context.save()
        let saved = log.take(.didSave)
        #expect(saved == [ContextChange(inserted: [work.objectID, old.objectID])])
        #expect(saved.first?.inserted.allSatisfy { !$0.isTemporary } == true)
        let file = try make("File", "file")
        try work.set("work2", for: "name")
        context.delete(old)
        context.processPendingChanges()
        _ = log.take()
        try context.save()
        let kinds = log.notes.map(\.kind)
        #expect(kinds == [.willSave, .didSave])
        let expected = ContextChange(
            inserted: [file.objectID], updated: [work.objectID], deleted: [old.objectID])
        #expect(log.notes.map(\.changes) == [expected, expected])
    }

    @Test("a failed save posts no did-save")
    func failedSave() throws {
        let work = try make("Folder", "work")
        let lock = try make("Lock", "lock")
        try work.add(lock, to: "locks")
        try context.save()
        context.delete(work)
        _ = log.take()
        #expect(throws: SaveError.self) { try context.save() }
        #expect(log.take(.didSave).isEmpty)
    }

    @Test("a cancelled or released observation receives nothing more")
    func cancel() throws {
        var received = 0
        let observation = context.observe { _ in received += 1 }
        _ = try make("Folder", "a")
        context.processPendingChanges()
        let afterFirst = received
        #expect(afterFirst == 1)
        observation.cancel()
        _ = try make("Folder", "b")
        context.processPendingChanges()
        #expect(received == afterFirst)
        var released = 0
        do {
            let temporary = context.observe { _ in released += 1 }
            _ = temporary
        }
        _ = try make("Folder", "c")
        context.processPendingChanges()
        #expect(released == 0)
        #expect(log.take().count == 3)
    }

    @Test("the AsyncStream form delivers the same notifications in order")
    func asyncStream() async throws {
        let stream = context.notifications
        let work = try make("Folder", "work")
        try context.save()
        // More notifications than read, so a missing one fails the test instead of hanging it.
        for index in 0..<4 {
            _ = try make("File", "spare\(index)")
            context.processPendingChanges()
        }
        var kinds: [ContextNotification.Kind] = []
        var firstChange: ContextChange?
        for await note in stream.prefix(4) {
            kinds.append(note.kind)
            if firstChange == nil { firstChange = note.changes }
        }
        #expect(kinds == [.objectsDidChange, .willSave, .didSave, .objectsDidChange])
        #expect(firstChange?.inserted.count == 1)
        #expect(work.objectID.isTemporary == false)
    }

    @Test(
        "the AsyncStream ends when the context goes", .timeLimit(.minutes(1)))
    func streamEnds() async throws {
        var owner: ManagedContext? = try GraphTestModels.context(GraphTestModels.deletion())
        let stream = try #require(owner?.notifications)
        _ = try owner?.insert("Folder")
        owner?.processPendingChanges()
        owner = nil
        var received = 0
        for await _ in stream { received += 1 }
        #expect(received == 1)
    }
}

extension ContextNotificationTests {
    @Test("rollback posts what it undid: inserts as deleted, deletions back, edits as updated")
    func rollbackNotifies() throws {
        let kept = try make("Folder", "kept")
        let gone = try make("Folder", "gone")
        try context.save()
        _ = log.take()
        let added = try make("Folder", "added")
        let insertedThenDeleted = try make("Folder", "brief")
        context.delete(insertedThenDeleted)
        try kept.set("renamed", for: "name")
        context.delete(gone)
        _ = log.take()
        context.rollback()
        #expect(
            log.take() == [
                ContextChange(
                    inserted: [gone.objectID], updated: [kept.objectID],
                    deleted: [added.objectID])
            ])
        #expect(kept["name"] as String? == "kept")
        #expect(!gone.isDeleted)
        context.rollback()
        #expect(log.notes.isEmpty)
    }
}
