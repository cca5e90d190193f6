import Foundation
import SQLiteDatabase
import Testing

@testable import ObjectGraph

/// The exact `ATRANSACTION` and `ACHANGE` rows saves and batch requests write, read back with
/// plain SQLite: the recorder's set-based writing must keep every value the row-by-row writing
/// gave (keys, order, types, entities, transactions, changed-column masks, tombstones).
@Suite("Persistent history: the rows written")
struct HistoryRowsTests {
    @Test("inserts, updates and deletes of saves and batch requests write Core Data's rows")
    func rowsWritten() throws {
        let fixture = try HistoryFixture()
        let context = fixture.context
        // Save 1: inserts of two entities, interleaved, with a key left unused in the middle
        // (an object given its permanent ID, then discarded before the save).
        let first = try context.insert("Folder")
        try first.set("work", for: "name")
        var notes: [ManagedObject] = []
        func note(_ title: String, _ rank: Int, in folder: ManagedObject) throws {
            let note = try context.insert("Note")
            try note.set(title, for: "title")
            try note.set("body of \(title)", for: "body")
            try note.set(rank, for: "rank")
            try note.setObject(folder, for: "folder")
            notes.append(note)
        }
        try note("a", 1, in: first)
        try note("b", 2, in: first)
        let discarded = try context.insert("Note")
        try context.obtainPermanentIDs(for: notes + [discarded])
        context.delete(discarded)
        let second = try context.insert("Folder")
        try second.set("home", for: "name")
        try second.set("red", for: "color")
        try note("c", 3, in: second)
        try note("d", 4, in: first)
        try note("e", 5, in: first)
        try context.save()
        // Save 2: updates with different changed properties.
        try notes[0].set("a2", for: "title")
        try notes[1].set("b2", for: "title")
        try notes[2].set(30, for: "rank")
        try notes[3].set(40, for: "rank")
        try notes[3].set("d2", for: "title")
        try first.set("blue", for: "color")
        try context.save()
        // Save 3: deletes, one cascading, with tombstones; an update beside them.
        context.delete(notes[4])
        context.delete(second)
        try notes[0].set("body", for: "body")
        try context.save()
        // Batch requests: an update of every note, an insert, a delete with a cascade.
        try context.execute(
            BatchUpdateRequest(entityName: "Note", values: ["body": .string("x")]))
        try context.execute(
            BatchInsertRequest(
                entityName: "Note", objects: [["title": .string("f")], ["title": .string("g")]]))
        try context.execute(
            BatchDeleteRequest(
                entityName: "Folder", predicate: try Predicate(format: "name == 'work'")))

        let database = try Database(path: fixture.url.path, mode: .readOnly)
        let transactions = try database.fetchAll(
            sql: "SELECT Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS,"
                + " ZPROCESSIDTS, typeof(ZTIMESTAMP), ZAUTHOR, ZBUNDLEID, ZCONTEXTNAME,"
                + " ZPROCESSID, ZQUERYGEN FROM ATRANSACTION ORDER BY Z_PK")
        let changes = try database.fetchAll(
            sql: "SELECT Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID,"
                + " ZCOLUMNS, ZTOMBSTONE0, ZTOMBSTONE1 FROM ACHANGE ORDER BY Z_PK")
        #expect(
            try database.fetchValue(
                Int64.self, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 16001") == 26)
        // Six transactions: author "tester" (1), bundle and process (2: one text on Linux),
        // context "main" (3); each timestamp a real. Z_OPT and the inline strings stay NULL.
        #expect(
            transactions.map { "\($0.values)" } == [
                "[1, 16002, NULL, 1, 2, 3, 2, 'real', NULL, NULL, NULL, NULL, NULL]",
                "[2, 16002, NULL, 1, 2, 3, 2, 'real', NULL, NULL, NULL, NULL, NULL]",
                "[3, 16002, NULL, 1, 2, 3, 2, 'real', NULL, NULL, NULL, NULL, NULL]",
                "[4, 16002, NULL, 1, 2, 3, 2, 'real', NULL, NULL, NULL, NULL, NULL]",
                "[5, 16002, NULL, 1, 2, 3, 2, 'real', NULL, NULL, NULL, NULL, NULL]",
                "[6, 16002, NULL, 1, 2, 3, 2, 'real', NULL, NULL, NULL, NULL, NULL]",
            ])
        // Save 1: Folder 1, Notes 1 and 2, Folder 2, Notes 4–6 (key 3 given out, unused).
        // Save 2: updates (ZCOLUMNS: title 0x01, body 0x02, rank 0x04; Folder color 0x02).
        // Save 3: updates, then the deletes with their tombstones (Folder 2 cascading to
        // Note 4). Batch update of every note's body, batch insert of two notes, batch
        // delete of Folder 1 with its notes.
        // The order of a save's new objects is the context's (not fixed for objects given
        // permanent IDs early): save 1's changes are compared in key order, after their
        // `ACHANGE` keys, 1…7.
        let firstSave = changes.prefix { $0.values[6] == .integer(1) }
        #expect(firstSave.map { $0.values[0] } == (1...7).map { .integer($0) })
        let ordered =
            firstSave.map { "\($0.values.dropFirst())" }.sorted()
            + changes.dropFirst(firstSave.count).map { "\($0.values)" }
        #expect(
            ordered == [
                "[16001, NULL, 0, 1, 1, 1, NULL, NULL, NULL]",
                "[16001, NULL, 0, 1, 2, 1, NULL, NULL, NULL]",
                "[16001, NULL, 0, 2, 1, 1, NULL, NULL, NULL]",
                "[16001, NULL, 0, 2, 2, 1, NULL, NULL, NULL]",
                "[16001, NULL, 0, 2, 4, 1, NULL, NULL, NULL]",
                "[16001, NULL, 0, 2, 5, 1, NULL, NULL, NULL]",
                "[16001, NULL, 0, 2, 6, 1, NULL, NULL, NULL]",
                "[8, 16001, NULL, 1, 2, 1, 2, X'01', NULL, NULL]",
                "[9, 16001, NULL, 1, 2, 2, 2, X'01', NULL, NULL]",
                "[10, 16001, NULL, 1, 2, 4, 2, X'04', NULL, NULL]",
                "[11, 16001, NULL, 1, 2, 5, 2, X'05', NULL, NULL]",
                "[12, 16001, NULL, 1, 1, 1, 2, X'02', NULL, NULL]",
                "[13, 16001, NULL, 1, 1, 1, 3, X'04', NULL, NULL]",
                "[14, 16001, NULL, 1, 2, 1, 3, X'02', NULL, NULL]",
                "[15, 16001, NULL, 2, 1, 2, 3, NULL, 'home', NULL]",
                "[16, 16001, NULL, 2, 2, 4, 3, NULL, 'c', 30]",
                "[17, 16001, NULL, 2, 2, 6, 3, NULL, 'e', 5]",
                "[18, 16001, NULL, 1, 2, 1, 4, X'02', NULL, NULL]",
                "[19, 16001, NULL, 1, 2, 2, 4, X'02', NULL, NULL]",
                "[20, 16001, NULL, 1, 2, 5, 4, X'02', NULL, NULL]",
                "[21, 16001, NULL, 0, 2, 7, 5, NULL, NULL, NULL]",
                "[22, 16001, NULL, 0, 2, 8, 5, NULL, NULL, NULL]",
                "[23, 16001, NULL, 2, 1, 1, 6, NULL, 'work', NULL]",
                "[24, 16001, NULL, 2, 2, 1, 6, NULL, 'a2', 1]",
                "[25, 16001, NULL, 2, 2, 2, 6, NULL, 'b2', 2]",
                "[26, 16001, NULL, 2, 2, 5, 6, NULL, 'd2', 40]",
            ])
    }

    @Test("a save of many new or updated rows records them with a statement per run, not per row")
    func statementsPerRun() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let entries = SQLDebugLogTests.Collector()
        var options = StoreOptions()
        options.tracksHistory = true
        options.sqlDebugLevel = 1
        options.sqlLogHandler = entries.handler
        let coordinator = StoreCoordinator(model: HistoryFixture.model())
        try coordinator.addStore(
            type: .sqlite, at: folder.appendingPathComponent("history.sqlite"), options: options)
        let context = ManagedContext(coordinator: coordinator)
        let parent = try context.insert("Folder")
        try parent.set("work", for: "name")
        var notes: [ManagedObject] = []
        for rank in 1...300 {
            let note = try context.insert("Note")
            try note.set(rank, for: "rank")
            try note.setObject(parent, for: "folder")
            notes.append(note)
        }
        func changeStatements(_ save: () throws -> Void) throws -> Int {
            entries.clear()
            try save()
            return entries.all.filter { $0.sql.hasPrefix("INSERT INTO ACHANGE") }.count
        }
        // The folder, then the notes at consecutive keys: two runs.
        #expect(try changeStatements { try context.save() } == 2)
        for note in notes { try note.set("t", for: "title") }
        #expect(try changeStatements { try context.save() } == 1)
        let history = try coordinator.fetchHistory(HistoryRequest()).transactions
        #expect(history.map(\.changes.count) == [301, 300])
        #expect(history[1].changes.allSatisfy { $0.updatedProperties == ["title"] })
    }
}
