import Foundation
import SQLiteDatabase

/// How a writable SQLite store tells that another connection committed to its file: a watch of
/// the file's folder (``SQLiteFileWatcher``) says when to look, and SQLite's
/// `PRAGMA data_version` on the store's own connection says whether another connection
/// committed (SQLite changes it for every other connection's commit, never for this
/// connection's own).
extension SQLiteStore: RemoteChangeDetectingStore {
    /// Writable stores only: a read-only store is read as it was when opened.
    var remoteChangeDetecting: (any RemoteChangeDetectingStore)? {
        description.isReadOnly ? nil : self
    }

    /// SQLite's `PRAGMA data_version` on the store's connection.
    /// - Throws: ``StoreError/sqlite(path:message:)`` when SQLite cannot answer.
    func remoteChangeMark() throws -> Int64 {
        try sqlite { try database.fetchValue(Int64.self, sql: "PRAGMA data_version") } ?? 0
    }

    /// Watches the store's file, its `-wal` and its `-journal` (see ``SQLiteFileWatcher``).
    func watchFile(onActivity: @escaping @Sendable () -> Void) throws -> any StoreFileWatch {
        try SQLiteFileWatcher(path: path, onActivity: onActivity)
    }
}
