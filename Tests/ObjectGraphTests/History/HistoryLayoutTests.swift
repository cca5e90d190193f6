import Foundation
import SQLiteDatabase
import Testing

@testable import ObjectGraph

@Suite("Persistent history: Core Data's tables, and history from Apple devices")
struct HistoryLayoutTests {
    @Test("a store written here has Core Data's history tables, read with plain SQLite")
    func tableLayout() throws {
        let fixture = try HistoryFixture()
        try fixture.seed()
        let database = try Database(path: fixture.url.path, mode: .readOnly)
        func ddl(_ name: String) throws -> String? {
            try database.fetchValue(
                String.self, sql: "SELECT sql FROM sqlite_master WHERE name = ?",
                arguments: [name])
        }
        // The research notes' DDL (coredata-store-format.md §4.4), with the model's two
        // tombstone columns (Note keeps title and rank).
        #expect(
            try ddl("ATRANSACTION")
                == "CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT"
                + " INTEGER, ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER,"
                + " ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR,"
                + " ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB )")
        #expect(
            try ddl("ACHANGE")
                == "CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER,"
                + " ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID"
                + " INTEGER, ZCOLUMNS BLOB, ZTOMBSTONE0 BLOB, ZTOMBSTONE1 BLOB )")
        #expect(
            try ddl("ATRANSACTIONSTRING")
                == "CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER,"
                + " Z_OPT INTEGER, ZNAME VARCHAR )")
        for index in [
            "ACHANGE_ZTRANSACTIONID_INDEX", "Z_TRANSACTION_TransactionAuthorIndex",
            "Z_TRANSACTION_TransactionTimestampIndex", "Z_TRANSACTIONSTRING_UNIQUE_NAME",
        ] {
            #expect(try ddl(index) != nil, "no index \(index)")
        }
        let keys = try database.fetchAll(
            sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000"
                + " ORDER BY Z_ENT")
        // tester, main, and the process's bundle ID and name (the same text on Linux).
        let strings = Set(["tester", "main", HistoryOrigin.bundleID, HistoryOrigin.processID])
        #expect(
            keys.map(\.values) == [
                [.integer(16001), .text("CHANGE"), .integer(0), .integer(3)],
                [.integer(16002), .text("TRANSACTION"), .integer(0), .integer(1)],
                [
                    .integer(16003), .text("TRANSACTIONSTRING"), .integer(0),
                    .integer(Int64(strings.count)),
                ],
            ])
        // Strings are interned: the author's text is in ATRANSACTIONSTRING, not inline.
        let row = try #require(
            try database.fetchOne(
                sql: "SELECT s.ZNAME, t.ZAUTHOR, t.Z_ENT FROM ATRANSACTION t"
                    + " JOIN ATRANSACTIONSTRING s ON s.Z_PK = t.ZAUTHORTS"))
        #expect(row.values == [.text("tester"), .null, .integer(16002)])
        let changes = try database.fetchAll(
            sql: "SELECT DISTINCT Z_ENT, ZCHANGETYPE, ZTRANSACTIONID FROM ACHANGE")
        #expect(changes.map(\.values) == [[.integer(16001), .integer(0), .integer(1)]])
    }

    @Test("the history of a macOS 10.13 store (strings inline, tombstones) reads here")
    func appleStore() throws {
        guard let corpus = TestSupport.corpus else { return }
        let url = corpus.appendingPathComponent(
            "coredata-stores/10-plaso-macos-knowledgec-10.13/knowledgec-10.13.db")
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        let model = try #require(try StoreCoordinator.cachedModel(ofStoreAt: url))
        let coordinator = StoreCoordinator(model: model)
        let store = try coordinator.addStore(
            type: .sqlite, at: url, options: StoreOptions(isReadOnly: true))
        let result = try coordinator.fetchHistory(HistoryRequest())
        #expect(result.transactions.count == 536)
        #expect(result.changes.count == 1115)
        let first = try #require(result.transactions.first)
        #expect(first.bundleID == "com.apple.coreduetd")
        #expect(first.processID == "coreduetd")
        #expect(first.timestamp == Date(timeIntervalSinceReferenceDate: 545_433_821.127018))
        #expect(first.storeIdentifier == store.identifier)
        let kinds = Dictionary(grouping: result.changes, by: \.changeType).mapValues(\.count)
        #expect(kinds == [.insert: 554, .update: 28, .delete: 533])
        // Deleted objects keep their identifiers as tombstones.
        let deletion = try #require(result.changes.first { $0.changeID == 200 })
        #expect(deletion.changeType == .delete)
        #expect(
            deletion.tombstone?.values.contains(.string("D9516B99-6DF8-45E1-B751-C38ACBC6ED89"))
                == true)
        let later = try coordinator.fetchHistory(
            .fetchHistory(after: result.transactions[500].token))
        #expect(later.transactions.count == 35)
        #expect(try coordinator.currentHistoryToken(forStore: store)?.transactionNumber == 536)
    }
}
