import Foundation
import SQLiteDatabase

extension SQLiteStore {
    /// The model Core Data keeps inside the SQLite store at `url` (`Z_MODELCACHE`), or `nil`
    /// when the store has none (no table, no row, or an empty blob: Core Data before 2010 and
    /// some system stores). The file is opened read-only without touching anything beside it.
    /// - Throws: ``StoreError/cannotOpen(path:reason:)`` when the file cannot be opened as an
    ///   SQLite database; ``ArchivedModelError`` naming the store and the archive object when
    ///   the cache is malformed.
    static func cachedModel(at url: URL) throws -> EntityModel? {
        let path = url.path
        let database: Database
        do {
            database = try Database(url: url, mode: .readOnlyUntouched)
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "\(error)")
        }
        let content: Data?
        do {
            guard try database.tableExists("Z_MODELCACHE") else { return nil }
            let row = try database.fetchOne(sql: "SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1")
            content = try row?.decode(Data?.self, at: 0) ?? nil
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "reading Z_MODELCACHE: \(error)")
        }
        guard let content, !content.isEmpty else { return nil }
        return try EntityModel(modelCache: content, source: path)
    }

    /// Writes `model` into the store's `Z_MODELCACHE` in Core Data's format (its one row's
    /// `Z_CONTENT`: ``EntityModel/modelCache()``), creating the table as Core Data does when
    /// the file has none: so Core Data can migrate a store ObjectGraph created or migrated
    /// even when the app no longer ships the model that wrote it. Runs inside the caller's
    /// transaction.
    static func writeModelCache(_ database: Database, model: EntityModel) throws {
        if try !database.tableExists("Z_MODELCACHE") {
            try database.execute(sql: StoreLayout.modelCacheTableSQL)
        }
        try database.execute(sql: "DELETE FROM Z_MODELCACHE")
        try database.execute(
            sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", arguments: [model.modelCache()])
    }
}
