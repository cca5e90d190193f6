import Foundation
import PostgresClient
import Testing

@testable import ObjectGraph

/// Persistent history on PostgreSQL (issue 22): saves recorded in Core Data's history tables
/// in the store's schema, read after a token or a date, deleted before a token, with tokens
/// that survive restarts.
@Suite("PostgreSQL persistent history")
struct PostgresHistoryTests {
    /// A coordinator on `url` with the history model, tracking history, and a context whose
    /// saves carry an author and a name.
    static func open(_ url: URL, tracksHistory: Bool = true) throws
        -> (StoreCoordinator, ManagedContext)
    {
        let coordinator = StoreCoordinator(model: HistoryFixture.model())
        var options = StoreOptions()
        options.tracksHistory = tracksHistory
        try coordinator.addStore(type: .postgres, at: url, options: options)
        return (coordinator, HistoryFixture.context(coordinator))
    }

    @Test("saves are recorded with their author, changed properties and tombstones")
    func recording() throws {
        let url = try PostgresStoreTests.freshURL()
        let (coordinator, context) = try Self.open(url)
        let folder = try context.insert("Folder")
        try folder.set("work", for: "name")
        var notes: [ManagedObject] = []
        for (rank, title) in ["a", "b"].enumerated() {
            let note = try context.insert("Note")
            try note.set(title, for: "title")
            try note.set(rank + 1, for: "rank")
            try note.setObject(folder, for: "folder")
            notes.append(note)
        }
        try context.save()
        try notes[0].set("a2", for: "title")
        try context.save()
        let deletedIDs = Set([folder.objectID] + notes.map(\.objectID))
        context.delete(folder)  // cascades to the notes
        try context.save()

        let transactions = try coordinator.fetchHistory(HistoryRequest()).transactions
        #expect(transactions.map(\.transactionNumber) == [1, 2, 3])
        #expect(transactions.allSatisfy { $0.author == "tester" && $0.contextName == "main" })
        #expect(transactions.allSatisfy { $0.processID == ProcessInfo.processInfo.processName })
        #expect(transactions[0].changes.map(\.changeType) == [.insert, .insert, .insert])
        #expect(Set(transactions[0].changes.map(\.changedObjectID)) == deletedIDs)
        let update = try #require(transactions[1].changes.first)
        #expect(transactions[1].changes.count == 1)
        #expect(update.changeType == .update)
        #expect(update.changedObjectID == notes[0].objectID)
        #expect(update.updatedProperties == ["title"])
        let deletes = transactions[2].changes
        #expect(deletes.allSatisfy { $0.changeType == .delete })
        #expect(Set(deletes.map(\.changedObjectID)) == deletedIDs)
        let tombstones = Dictionary(
            uniqueKeysWithValues: deletes.map { ($0.changedObjectID, $0.tombstone ?? [:]) })
        #expect(tombstones[folder.objectID] == ["name": .string("work")])
        #expect(tombstones[notes[0].objectID] == ["title": .string("a2"), "rank": .integer(1)])
        #expect(tombstones[notes[1].objectID] == ["title": .string("b"), "rank": .integer(2)])

        // Core Data's tables, in the store's schema.
        let (connection, schema) = try PostgresStoreTests.inspect(url)
        let tables = try connection.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = $1::text"
                + " AND table_name LIKE 'A%' ORDER BY 1", [.text(schema)]
        ).rows.compactMap { $0.string(0) }
        #expect(tables == ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"])
        let names = try connection.execute(
            "SELECT \"ZNAME\" FROM \(PostgresIdentifier.quoted(schema)).\"ATRANSACTIONSTRING\"")
        #expect(Set(names.rows.compactMap { $0.string(0) }).isSuperset(of: ["tester", "main"]))
        #expect(names.rows.count == Set(names.rows.compactMap { $0.string(0) }).count)
    }

    @Test("tokens survive a restart; history after a token; deleted history expires tokens")
    func tokens() throws {
        let url = try PostgresStoreTests.freshURL()
        var (coordinator, context) = try Self.open(url)
        let store = try #require(coordinator.storeDescriptions.first)
        #expect(try coordinator.currentHistoryToken(forStore: store)?.transactionNumber == 0)
        try context.insert("Folder").set("one", for: "name")
        try context.save()
        let first = try #require(try coordinator.currentHistoryToken(forStore: store))
        #expect(first.transactionNumber == 1)
        let kept = try JSONEncoder().encode(first)

        // Another process (a new coordinator) after a restart.
        (coordinator, context) = try Self.open(url)
        try context.insert("Folder").set("two", for: "name")
        try context.save()
        try context.insert("Folder").set("three", for: "name")
        try context.save()
        let token = try JSONDecoder().decode(HistoryToken.self, from: kept)
        let after = try coordinator.fetchHistory(.fetchHistory(after: token)).transactions
        #expect(after.map(\.transactionNumber) == [2, 3])
        #expect(after.allSatisfy { $0.changes.count == 1 })
        let second = after[0].token
        #expect(try coordinator.deleteHistory(before: second) == 2)
        #expect(throws: HistoryError.self) {
            try coordinator.fetchHistory(.fetchHistory(after: token))
        }
        let rest = try coordinator.fetchHistory(.fetchHistory(after: second)).transactions
        #expect(rest.map(\.transactionNumber) == [3])
        let store2 = try #require(coordinator.storeDescriptions.first)
        #expect(try coordinator.currentHistoryToken(forStore: store2)?.transactionNumber == 3)
    }

    @Test("batch deletes and updates are recorded as transactions too")
    func batchRequests() throws {
        let url = try PostgresStoreTests.freshURL()
        let (coordinator, context) = try Self.open(url)
        for name in ["a", "b", "c"] { try context.insert("Folder").set(name, for: "name") }
        try context.save()
        _ = try context.execute(
            BatchUpdateRequest(
                entityName: "Folder", predicate: try Predicate(format: "name != 'c'"),
                propertiesToUpdate: ["color": .constant(.string("red"))]))
        _ = try context.execute(
            BatchDeleteRequest(
                entityName: "Folder", predicate: try Predicate(format: "name == 'a'")))
        let transactions = try coordinator.fetchHistory(HistoryRequest()).transactions
        #expect(transactions.count == 3)
        #expect(transactions.dropFirst().first?.changes.map(\.changeType) == [.update, .update])
        #expect(transactions.dropFirst().first?.changes.first?.updatedProperties == ["color"])
        let deleted = try #require(transactions.last?.changes.first)
        #expect(transactions.last?.changes.count == 1 && deleted.changeType == .delete)
        #expect(deleted.tombstone?["name"] == .string("a"))
    }

    @Test("a store keeping history opens, saves and reads its history on a pool of one")
    func poolOfOne() throws {
        // Opening makes the history tables after giving back the connection it opened with:
        // on a pool of one, holding it would leave the tables waiting for it (30 s, then an
        // error).
        let (url, _) = try PostgresPoolTests.namedURL("&pool_size=1")
        let (coordinator, context) = try Self.open(url)
        try context.insert("Folder").set("one", for: "name")
        try context.save()
        #expect(try coordinator.fetchHistory(HistoryRequest()).transactions.count == 1)
    }

    @Test("a store without tracking records nothing")
    func withoutTracking() throws {
        let url = try PostgresStoreTests.freshURL()
        let (coordinator, context) = try Self.open(url, tracksHistory: false)
        try context.insert("Folder").set("one", for: "name")
        try context.save()
        #expect(try coordinator.fetchHistory(HistoryRequest()).transactions.isEmpty)
        let store = try #require(coordinator.storeDescriptions.first)
        #expect(try coordinator.currentHistoryToken(forStore: store) == nil)
    }
}
