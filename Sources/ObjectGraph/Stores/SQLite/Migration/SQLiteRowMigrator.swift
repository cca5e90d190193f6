import Foundation
import SQLiteDatabase

/// Runs one step whose mapping is not inferred, inside the caller's transaction: every row is
/// read under the source layout with the store's own decoding (to-many relationships filled),
/// handed to the mapper, the old tables and indexes are dropped, the destination layout is
/// created (the statements of a fresh store) and the returned rows are written through the
/// store's save path; `Z_PRIMARYKEY` and `Z_METADATA` follow.
struct SQLiteRowMigrator {
    let db: Database
    let url: URL
    let metadata: StoreMetadata
    let step: MigrationStep
    let mapper: SQLiteMigrationRowMapper

    func run(progress: (Double, String?) -> Void) throws {
        let sourceSchema = ModelSchema(model: step.source.model)
        let destinationSchema = ModelSchema(model: step.destination.model)
        let reader = try SQLiteStore(
            migrating: db, url: url, schema: sourceSchema, metadata: metadata)
        var rows = try reader.rows(ofEntities: Set(sourceSchema.entities.map(\.index)))
        for index in rows.indices {
            let entity = sourceSchema.entities[rows[index].entityIndex]
            for position in rows[index].values.indices {
                guard case .toMany(nil) = rows[index].values[position] else { continue }
                rows[index].values[position] = .toMany(
                    try reader.relatedIDs(
                        of: rows[index].id, entityIndex: entity.index, position: position))
            }
        }
        progress(0.3, nil)
        let migrated = try mapper(step, rows, sourceSchema, destinationSchema)
        progress(0.6, nil)
        try dropSchema(reader.layout)
        let destination = try SQLiteStore(
            migrating: db, url: url, schema: destinationSchema, metadata: metadata)
        for statement in destination.layout.createStatements(includingModelCache: false)
        where !statement.hasPrefix("CREATE TABLE Z_PRIMARYKEY")
            && !statement.hasPrefix("CREATE TABLE Z_METADATA")
        {
            try db.execute(sql: statement)
        }
        try db.execute(sql: "DELETE FROM Z_PRIMARYKEY")
        for entity in destination.layout.entities {
            try db.execute(
                sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                arguments: [entity.entityNumber, entity.name, entity.superNumber])
        }
        try destination.importRows(migrated, schema: destinationSchema)
        try SQLiteStore.rewriteMetadata(db, path: url.path, model: step.destination.model)
        progress(1, nil)
    }

    /// Drops the indexes, entity tables and join tables of `layout` present in the file.
    func dropSchema(_ layout: StoreLayout) throws {
        try SQLiteStore.dropEntityIndexes(db)
        for name in layout.tables.map(\.name) + layout.joinTables.map(\.name)
        where try db.tableExists(name) {
            try db.execute(sql: "DROP TABLE " + quoteIdentifier(name))
        }
    }
}
