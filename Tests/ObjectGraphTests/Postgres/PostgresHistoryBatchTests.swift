import Foundation
import Testing

@testable import ObjectGraph

/// Batch inserts and batch updates on a PostgreSQL store keeping history run in SQL (never
/// through the rows path, which ``BatchHookCalls`` counts) and are recorded as one
/// transaction each, with the author, the changed objects and, for updates, the updated
/// properties, as the same changes saved are.
@Suite("PostgreSQL batch requests recorded in history")
struct PostgresHistoryBatchTests {
    @Test("a batch insert and a batch update run in SQL and are recorded as transactions")
    func recorded() throws {
        let url = try PostgresStoreTests.freshURL()
        let (coordinator, context) = try PostgresHistoryTests.open(url)
        try context.insert("Folder").set("work", for: "name")
        try context.save()
        let store = try #require(coordinator.storeDescriptions.first)
        let start = try #require(try coordinator.currentHistoryToken(forStore: store))
        let hook = BatchHookCalls()
        var insert = BatchInsertRequest(
            entityName: "Note",
            objects: (1...3).map { ["title": .string("n\($0)"), "rank": .integer(Int64($0))] })
        insert.resultType = .objectIDs
        let inserted = try hook.during { try context.execute(insert) }.objectIDs ?? []
        var update = BatchUpdateRequest(
            entityName: "Note", predicate: try Predicate(format: "rank >= 2"),
            values: ["body": .string("x"), "rank": .integer(7)])
        update.resultType = .objectIDs
        let updated = try hook.during { try context.execute(update) }.objectIDs ?? []
        #expect(hook.calls == 0)
        #expect(inserted.count == 3 && updated.count == 2)

        let transactions = try coordinator.fetchHistory(.fetchHistory(after: start)).transactions
        try #require(transactions.count == 2)
        #expect(transactions.allSatisfy { $0.author == "tester" && $0.contextName == "main" })
        #expect(transactions[0].changes.allSatisfy { $0.changeType == .insert })
        #expect(transactions[0].changes.map(\.changedObjectID) == inserted)
        #expect(transactions[1].changes.allSatisfy { $0.changeType == .update })
        #expect(transactions[1].changes.map(\.changedObjectID) == updated)
        #expect(transactions[1].changes.allSatisfy { $0.updatedProperties == ["body", "rank"] })
        #expect(transactions[1].transactionNumber > transactions[0].transactionNumber)
        #expect(
            try coordinator.currentHistoryToken(forStore: store)?.transactionNumber
                == transactions[1].transactionNumber)
    }

    @Test("a batch that matches nothing records no transaction")
    func nothingMatched() throws {
        let url = try PostgresStoreTests.freshURL()
        let (coordinator, context) = try PostgresHistoryTests.open(url)
        let store = try #require(coordinator.storeDescriptions.first)
        let start = try coordinator.currentHistoryToken(forStore: store)
        let hook = BatchHookCalls()
        try hook.during {
            _ = try context.execute(
                BatchUpdateRequest(
                    entityName: "Note", predicate: try Predicate(format: "rank > 100"),
                    values: ["body": .string("x")]))
        }
        #expect(hook.calls == 0)
        #expect(
            try coordinator.currentHistoryToken(forStore: store)?.transactionNumber
                == start?.transactionNumber)
        #expect(try coordinator.fetchHistory(HistoryRequest()).transactions.isEmpty)
    }
}
