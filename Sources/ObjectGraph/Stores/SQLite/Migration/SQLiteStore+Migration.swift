import Foundation
import SQLiteDatabase

/// The seam of a step whose mapping is not inferred (a mapping model, a custom stage): every
/// object of the store decoded with `source` (the step's source model; ids
/// `.permanent(Z_PK)`, to-many values filled) goes out, the destination objects come back as
/// rows of `destination` (its entity indexes and value positions; ids and relationship
/// targets `.permanent(key)` — objects of an entity that keeps its table keep their key so
/// URIs stay valid; keys unique per destination table). The store then drops the old tables,
/// creates the destination layout and inserts them, in the same transaction.
typealias SQLiteMigrationRowMapper = (
    _ step: MigrationStep, _ sourceRows: [StoreRow], _ source: ModelSchema,
    _ destination: ModelSchema
) throws -> [StoreRow]

/// In-place migration of a SQLite store (the entry the coordinator calls).
extension SQLiteStore {
    /// Migrates the SQLite store at `url` in place through `steps` (in order), all of them in
    /// ONE immediate transaction on a connection of its own (opened, committed, closed): a
    /// failure or a kill leaves the file at its old version. Inferred steps
    /// (`step.mapping.isInferred`) run as SQL only (``SQLiteInferredMigrator``); the others go
    /// through `rowMapper`.
    ///
    /// - Throws: ``MigrationError`` (`missingRequiredValues`, `uniquenessViolated`,
    ///   `cannotInferMapping` when an inferred mapping asks for what SQL cannot do,
    ///   `cannotConvertValue`, `stageFailed` when a non-inferred step has no `rowMapper`) or
    ///   ``StoreError`` (`cannotOpen`, `incompatibleModel` when the store is not at the first
    ///   step's source version, `sqlite`, `corruptMetadata`) naming the file.
    static func migrate(
        at url: URL, steps: [MigrationStep], busyTimeout: TimeInterval = 5,
        sqlLog: SQLLog? = nil, rowMapper: SQLiteMigrationRowMapper? = nil,
        progress: ((MigrationProgress) -> Void)? = nil
    ) throws {
        guard let first = steps.first else { return }
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError.cannotOpen(path: path, reason: "no such file")
        }
        let database: Database
        do {
            database = try Database(
                url: url, mode: .readWrite,
                options: Database.Options(busyTimeout: busyTimeout, sqlLog: sqlLog))
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "\(error)")
        }
        defer { try? database.close() }
        do {
            try SQLFunctions.register(on: database)
            try database.inTransaction(.immediate) { db in
                let metadata = try readMetadata(db, path: path)
                let check = metadata.compatibility(with: first.source.model)
                guard check.isCompatible else {
                    throw StoreError.incompatibleModel(path: path, compatibility: check)
                }
                for (index, step) in steps.enumerated() {
                    let report = { (fraction: Double, entity: String?) -> Void in
                        progress?(
                            MigrationProgress(
                                fractionCompleted: (Double(index) + fraction)
                                    / Double(steps.count),
                                stageIndex: index, stageCount: steps.count, stage: step.label,
                                entityName: entity))
                    }
                    if step.mapping.isInferred {
                        var migrator = try SQLiteInferredMigrator(
                            db: db, path: path, storeUUID: metadata.storeUUID, step: step)
                        try migrator.run(progress: report)
                    } else {
                        guard let rowMapper else {
                            throw MigrationError.stageFailed(
                                stage: step.label,
                                reason:
                                    "its mapping is not inferred and no row-level migration was"
                                    + " given")
                        }
                        try SQLiteRowMigrator(
                            db: db, url: url, metadata: metadata, step: step, mapper: rowMapper
                        ).run(progress: report)
                    }
                }
            }
        } catch let error as DatabaseError {
            throw StoreError.sqlite(path: path, message: error.description)
        }
    }

    /// The names of the schema objects of `type` (`table`, `index`) in the file.
    static func schemaNames(_ db: Database, type: String) throws -> [String] {
        try db.fetchAll(sql: "SELECT name FROM sqlite_master WHERE type = ?", arguments: [type])
            .map { try $0.decode(String.self, at: 0) }
    }

    /// Drops the indexes of the entity and join tables (not SQLite's own), but those
    /// `keeping(table, sql)` keeps.
    static func dropEntityIndexes(
        _ db: Database, keeping: (String, String) -> Bool = { _, _ in false }
    ) throws {
        let rows = try db.fetchAll(
            sql:
                "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT"
                + " NULL AND tbl_name NOT IN ('Z_PRIMARYKEY', 'Z_METADATA', 'Z_MODELCACHE')")
        for row in rows {
            let name = try row.decode(String.self, at: 0)
            guard !keeping(try row.decode(String.self, at: 1), try row.decode(String.self, at: 2))
            else { continue }
            try db.execute(sql: "DROP INDEX " + quoteIdentifier(name))
        }
    }

    /// Writes `model`'s hashes, identifiers and digest into `Z_METADATA`, keeping the store
    /// UUID and every other key; `Z_MODELCACHE` then holds `model`. The framework version
    /// becomes the one whose DDL the migration wrote (``StoreMetadata/defaultFrameworkVersion``'s
    /// index names and unique indexes), as a store migrated by a newer Core Data claims that
    /// Core Data's version.
    static func rewriteMetadata(_ db: Database, path: String, model: EntityModel) throws {
        let old = try readMetadata(db, path: path)
        var metadata = StoreMetadata(
            model: model, storeUUID: old.storeUUID,
            frameworkVersion: StoreMetadata.defaultFrameworkVersion)
        metadata.additionalEntries = old.additionalEntries
        metadata.autoVacuumLevel = old.autoVacuumLevel ?? metadata.autoVacuumLevel
        let plist: Data
        do {
            plist = try metadata.propertyListData()
        } catch {
            throw StoreError.corruptMetadata(path: path, reason: "\(error)")
        }
        try db.execute(
            sql:
                "UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = (SELECT Z_VERSION FROM"
                + " Z_METADATA ORDER BY Z_VERSION LIMIT 1)",
            arguments: [plist])
        try writeModelCache(db, model: model)
    }
}

/// Migrating SQLite stores in place, for tools and benchmarks that hold the steps already (an
/// app opens its store through `StoreCoordinator.addStore`, which migrates).
///
/// ```swift
/// let step = MigrationStep(source: v1, destination: v2, mapping: try MappingModel.inferred(from: v1, to: v2))
/// try SQLiteStoreMigration.migrate(storeAt: url, steps: [step]) { print($0.fractionCompleted) }
/// ```
public enum SQLiteStoreMigration {
    /// Migrates the SQLite store at `url` through `steps`, in one transaction. Every step's
    /// mapping must be inferred (mapping models run through the coordinator).
    /// - Throws: ``MigrationError`` or ``StoreError`` naming the file; the file is then
    ///   unchanged.
    public static func migrate(
        storeAt url: URL, steps: [MigrationStep],
        progress: ((MigrationProgress) -> Void)? = nil
    ) throws {
        try SQLiteStore.migrate(at: url, steps: steps, progress: progress)
    }
}
