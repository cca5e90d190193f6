import Foundation
import SQLiteDatabase
import Testing

@testable import ObjectGraph

@Suite("Persistent history: recording")
struct HistoryRecordingTests {
    @Test("a save records one transaction: author, context name, process, one change per object")
    func insertsRecorded() throws {
        let fixture = try HistoryFixture()
        let (folder, notes) = try fixture.seed()
        let transactions = try fixture.all()
        try #require(transactions.count == 1)
        let transaction = transactions[0]
        #expect(transaction.author == "tester")
        #expect(transaction.contextName == "main")
        #expect(transaction.processID == ProcessInfo.processInfo.processName)
        #expect(transaction.bundleID != nil)
        #expect(abs(transaction.timestamp.timeIntervalSinceNow) < 600)
        #expect(transaction.storeIdentifier == fixture.store.identifier)
        #expect(transaction.changes.allSatisfy { $0.changeType == .insert })
        #expect(
            Set(transaction.changes.map(\.changedObjectID))
                == Set(([folder] + notes).map(\.objectID)))
        #expect(transaction.changes.allSatisfy { $0.updatedProperties == nil })
    }

    @Test("an update records the changed properties; a delete the kept values")
    func updateAndDelete() throws {
        let fixture = try HistoryFixture()
        let (_, notes) = try fixture.seed()
        try notes[0].set("renamed", for: "title")
        try notes[0].set(9, for: "rank")
        try fixture.context.save()
        fixture.context.delete(notes[1])
        try fixture.context.save()
        let transactions = try fixture.all()
        try #require(transactions.count == 3)
        let update = try #require(transactions[1].changes.first)
        #expect(transactions[1].changes.count == 1)
        #expect(update.changeType == .update)
        #expect(update.changedObjectID == notes[0].objectID)
        #expect(update.updatedProperties == ["title", "rank"])
        #expect(update.tombstone == nil)
        let deletion = transactions[2].changes.first { $0.changeType == .delete }
        #expect(deletion?.changedObjectID == notes[1].objectID)
        #expect(deletion?.tombstone == ["title": .string("b"), "rank": .integer(2)])
        // The folder lost a note: recorded as an update of its to-many relationship.
        #expect(transactions[2].changes.contains { $0.changeType == .update })
    }

    @Test("batch update, delete (with cascades and tombstones) and insert are recorded")
    func batchRequests() throws {
        let fixture = try HistoryFixture()
        let (folder, notes) = try fixture.seed()
        let start = try #require(
            try fixture.coordinator.currentHistoryToken(forStore: fixture.store))
        // In SQL: a constant value.
        var update = BatchUpdateRequest(entityName: "Note", values: ["body": .string("x")])
        update.resultType = .objectIDs
        try fixture.context.execute(update)
        // Row by row: an expression.
        try fixture.context.execute(
            BatchUpdateRequest(
                entityName: "Note",
                propertiesToUpdate: ["rank": try Expression(format: "rank + 10")]
            ))
        try fixture.context.execute(
            BatchInsertRequest(entityName: "Note", objects: [["title": .string("new")]]))
        try fixture.context.execute(
            BatchDeleteRequest(
                entityName: "Folder", predicate: try Predicate(format: "name == 'work'")))
        let transactions = try fixture.coordinator.fetchHistory(.fetchHistory(after: start))
            .transactions
        try #require(transactions.count == 4)
        #expect(transactions.allSatisfy { $0.author == "tester" && $0.contextName == "main" })
        #expect(transactions[0].changes.map(\.changeType) == [.update, .update])
        #expect(transactions[0].changes.allSatisfy { $0.updatedProperties == ["body"] })
        #expect(transactions[1].changes.map(\.changeType) == [.update, .update])
        #expect(
            transactions[1].changes.allSatisfy { $0.updatedProperties?.contains("rank") == true })
        #expect(transactions[2].changes.map(\.changeType) == [.insert])
        let deletions = transactions[3].changes.filter { $0.changeType == .delete }
        #expect(
            Set(deletions.map(\.changedObjectID)) == Set(([folder] + notes).map(\.objectID)))
        let folderDeletion = deletions.first { $0.changedObjectID == folder.objectID }
        #expect(folderDeletion?.tombstone == ["name": .string("work")])
        let kept = deletions.compactMap { $0.tombstone?["rank"] }
        #expect(Set(kept) == [.integer(11), .integer(12)])
    }

    @Test("history off records nothing and makes no history table")
    func historyOff() throws {
        let fixture = try HistoryFixture(tracksHistory: false)
        try fixture.seed()
        #expect(try fixture.all().isEmpty)
        #expect(try fixture.coordinator.currentHistoryToken(forStore: fixture.store) == nil)
        let database = try Database(path: fixture.url.path)
        #expect(try !database.tableExists("ATRANSACTION"))
    }

    @Test("history on for a store type other than SQLite is refused, naming the type")
    func otherStoreTypes() throws {
        for type in [StoreType.inMemory, .xml, .binary] {
            let coordinator = StoreCoordinator(model: HistoryFixture.model())
            var options = StoreOptions()
            options.tracksHistory = true
            let folder = try TestSupport.makeTemporaryFolder()
            defer { TestSupport.removeTemporaryFolder(folder) }
            let url = type == .inMemory ? nil : folder.appendingPathComponent("store")
            #expect(throws: HistoryError.notSupported(storeType: type.rawValue)) {
                try coordinator.addStore(type: type, at: url, options: options)
            }
        }
    }

    @Test("turning history on for an existing store adds the tables; later saves are recorded")
    func existingStore() throws {
        let fixture = try HistoryFixture(tracksHistory: false)
        try fixture.seed()
        try fixture.reopen(tracksHistory: true)
        #expect(try fixture.all().isEmpty)
        try fixture.seed(folder: "home", notes: ["c"])
        let transactions = try fixture.all()
        #expect(transactions.count == 1)
        #expect(transactions.first?.changes.count == 2)
        #expect(transactions.first?.transactionNumber == 1)
    }
}
