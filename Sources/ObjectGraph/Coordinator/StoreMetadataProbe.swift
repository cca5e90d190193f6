import Foundation
import SQLiteDatabase

/// Reads a store file's metadata without opening the store, and without writing anything: a
/// SQLite file is opened read-only leaving its folder untouched (its `-wal` read as it is), an
/// atomic store's header alone is parsed. What a migration looks at before it knows the version
/// the file was written with.
enum StoreMetadataProbe {
    /// The metadata of the `type` store at `url`, or `nil` when there is no file (or an empty
    /// SQLite file, which a store would initialize; or a PostgreSQL schema holding no store).
    /// - Throws: ``StoreError`` naming the file when it cannot be read.
    static func metadata(ofStoreAt url: URL, type: StoreType) throws -> StoreMetadata? {
        if type == .postgres { return try PostgresStore.metadata(ofStoreAt: url) }
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        switch type {
        case .sqlite:
            // An empty file, or one another connection is creating (its lock held), is a new
            // store: the store's own opening settles it.
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int
            guard size != 0 else { return nil }
            let database: Database
            do {
                database = try Database(path: path, mode: .readOnlyUntouched)
            } catch let error as DatabaseError where error.resultCode == .busy {
                return nil
            } catch {
                throw StoreError.cannotOpen(path: path, reason: "\(error)")
            }
            defer { try? database.close() }
            let tables = try? database.fetchValue(
                Int.self, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'Z_METADATA'")
            guard tables == 1 else { return nil }
            do {
                return try SQLiteStore.readMetadata(database, path: path)
            } catch let error as DatabaseError where error.resultCode == .busy {
                return nil
            }
        case .xml, .binary:
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw StoreError.cannotOpen(path: path, reason: "cannot read the file")
            }
            let format: any AtomicStoreFormat =
                type == .xml ? XMLStoreFormat() : BinaryStoreFormat()
            return try format.readMetadata(data, path: path)
        default:
            return nil
        }
    }
}

/// Folds a SQLite file's `-wal` into the file itself, so the file alone holds every committed
/// row (before it is copied or replaced).
enum SQLiteCheckpoint {
    /// Checkpoints the database at `url` and closes it (SQLite removes the `-wal` at the last
    /// close). Nothing happens when there is no `-wal`.
    /// - Throws: ``StoreError/cannotOpen(path:reason:)`` naming the file.
    static func checkpoint(_ url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path + "-wal") else { return }
        do {
            let database = try Database(
                path: url.path, mode: .readWrite, options: Database.Options(busyTimeout: 10))
            try database.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            try database.close()
        } catch {
            throw StoreError.cannotOpen(
                path: url.path, reason: "cannot fold its -wal into the file: \(error)")
        }
    }
}
