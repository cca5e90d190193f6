import Foundation
import SQLiteDatabase

#if canImport(Glibc)
    import Glibc
#endif

/// Creating a SQLite store file in one step (moving a store to SQLite): the database is built in
/// a ``StagingFile`` beside the destination, closed in a single-file state, flushed, and moved
/// into place; only then is it opened at its own path.
extension SQLiteStore {
    /// Creates a new store file at `url`: `fill` adds the rows to a store in a staging file;
    /// the staging database is then closed with no `-journal`, `-wal` or `-shm` (its rollback
    /// journal lives in memory: a staging file that does not complete is deleted, never
    /// recovered), flushed, and moved to `url`, which it never replaces. `-journal`, `-wal` and
    /// `-shm` files of an earlier database at `url` (left without their database) are removed
    /// first, so SQLite cannot pair them with the new file. Until the move there is no file at
    /// `url`; on failure there is none either, nor a staging file.
    /// - Returns: the store, open at `url`.
    /// - Throws: ``ObjectGraphError/fileExists(path:)`` when `url` exists (or appears before
    ///   the move), a ``StoreError`` naming the file otherwise, or what `fill` throws.
    static func createAtomically(
        at url: URL, schema: ModelSchema, configuration: String?,
        fill: (SQLiteStore) throws -> Void
    ) throws -> SQLiteStore {
        StagingFile.removeStale(beside: url)
        if FileManager.default.fileExists(atPath: url.path) {
            throw ObjectGraphError.fileExists(path: url.path)
        }
        let staging = try StagingFile(for: url)
        do {
            try build(
                at: URL(fileURLWithPath: staging.path), schema: schema,
                configuration: configuration, fill: fill)
            for suffix in StagingFile.sqliteCompanions {
                try removeEmptyCompanion(staging.path + suffix, of: url)
            }
            try staging.synchronize()
            var info = stat()
            if lstat(url.path, &info) != 0 {
                for suffix in StagingFile.sqliteCompanions { unlink(url.path + suffix) }
            }
            try staging.install(replacing: false)
        } catch {
            staging.discard()
            throw error
        }
        do {
            return try SQLiteStore(
                url: url, schema: schema, configuration: configuration,
                options: StoreOptions(isReadOnly: false, createIfMissing: false))
        } catch {
            for suffix in [""] + StagingFile.sqliteCompanions { unlink(url.path + suffix) }
            throw error
        }
    }

    /// Creates the store at `url` (a staging file), fills it, and closes it.
    private static func build(
        at url: URL, schema: ModelSchema, configuration: String?,
        fill: (SQLiteStore) throws -> Void
    ) throws {
        let store = try SQLiteStore(
            url: url, schema: schema, configuration: configuration,
            options: StoreOptions(isReadOnly: false, createIfMissing: true))
        try store.sqlite {
            // The file is discarded unless it completes: no journal on disk, no flush per
            // transaction (the staging file is flushed once, before the move).
            _ = try store.database.setJournalMode(.memory)
            try store.database.execute(sql: "PRAGMA synchronous = OFF")
        }
        try fill(store)
        try store.sqlite { try store.database.close() }
    }

    /// Removes `path` (SQLite's file beside the closed staging database) when it is empty, and
    /// fails when it holds anything (the database would not be complete without it).
    private static func removeEmptyCompanion(_ path: String, of url: URL) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_size == 0 || path.hasSuffix("-shm") else {
            throw StoreError.cannotWrite(
                path: url.path,
                reason: "the staging database left \(path) (\(info.st_size) bytes) when closed")
        }
        unlink(path)
    }
}
