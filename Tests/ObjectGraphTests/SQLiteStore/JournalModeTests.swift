import Foundation
import SQLiteDatabase
import Testing

@testable import ObjectGraph

/// A writable SQLite store runs in WAL, or says why it cannot; it never runs silently in a mode
/// nobody chose.
@Suite("SQLite journal mode")
struct JournalModeTests {
    @Test("a writable store reports WAL; a read-only one reports no journal mode")
    func reportsWAL() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try RedTeamLeague.write(in: folder)
        let writable = StoreCoordinator(model: TestModels.league())
        #expect(try writable.addStore(type: .sqlite, at: url).journalMode == "wal")
        let readOnly = StoreCoordinator(model: TestModels.league())
        let description = try readOnly.addStore(
            type: .sqlite, at: url, options: StoreOptions(isReadOnly: true))
        #expect(description.journalMode == nil)
    }

    @Test("WAL refused by a rollback-journal transaction of another connection is an error")
    func walRefusedThrows() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try RedTeamLeague.write(in: folder)
        let holder = try Database(url: url)
        #expect(try holder.setJournalMode(.delete) == .delete)
        try holder.execute(sql: "BEGIN IMMEDIATE")
        let coordinator = StoreCoordinator(model: TestModels.league())
        #expect {
            try coordinator.addStore(type: .sqlite, at: url, options: StoreOptions(busyTimeout: 0))
        } throws: { error in
            guard case StoreError.cannotOpen(let path, let reason) = error else { return false }
            return path == url.path && reason.contains("WAL") && reason.contains("SQLITE_BUSY")
        }
        #expect(coordinator.storeDescriptions.isEmpty)
        #expect(try holder.fetchValue(String.self, sql: "PRAGMA journal_mode") == "delete")
        try holder.execute(sql: "COMMIT")
        try holder.close()
        // Once the other connection is done, the store opens in WAL.
        #expect(try coordinator.addStore(type: .sqlite, at: url).journalMode == "wal")
    }
}
