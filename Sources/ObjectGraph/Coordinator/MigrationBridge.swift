import Foundation

/// The coordinator's one door to the other parts of the migration machinery: inference and
/// planning (`Migration/Inference`, `Migration/Planning`), the row-level migration manager
/// (`Migration/Execution`), the mapping-model reader (`Migration/Reading`) and the in-place
/// SQLite migrator (`Stores/SQLite/Migration`). Every call the coordinator, the container and
/// the command-line tool make into them goes through here.
enum MigrationBridge {
    // MARK: - Planning (part B)

    /// The mapping Core Data would infer from `source` to `destination`.
    static func inferredMapping(from source: ModelVersion, to destination: ModelVersion)
        throws(MigrationError) -> MappingModel
    {
        try MappingModel.inferred(from: source, to: destination)
    }

    /// The version among `versions` whose hashes are exactly `storeHashes`; the error names
    /// the entities that differ from `current`.
    static func sourceVersion(
        for storeHashes: [String: Data], among versions: [ModelVersion], store: String,
        current: ModelVersion
    ) throws(MigrationError) -> ModelVersion {
        try MigrationPlanner.sourceVersion(
            for: storeHashes, among: versions, store: store, current: current)
    }

    /// The chain of steps from `source` to `destination`.
    static func plan(
        from source: ModelVersion, to destination: ModelVersion, versions: [ModelVersion],
        mappingModels: [MappingModel], declaredSteps: [MigrationStep], infers: Bool
    ) throws(MigrationError) -> [MigrationStep] {
        try MigrationPlanner.plan(
            from: source, to: destination, versions: versions, mappingModels: mappingModels,
            declaredSteps: declaredSteps, infers: infers)
    }

    // MARK: - Mapping models (part A)

    /// The mapping models in and beside the bundle at `bundleURL`.
    static func mappingModels(besides bundleURL: URL, versions: [ModelVersion]) throws
        -> [MappingModel]
    {
        try MappingModelLocator.mappingModels(besides: bundleURL, versions: versions)
    }

    /// The mapping model in the `.xcmappingmodel` folder at `url`.
    static func mappingModel(at url: URL, versions: [ModelVersion]) throws -> MappingModel {
        try MappingModel(contentsOf: url, versions: versions)
    }

    // MARK: - Rows (part C)

    /// The rows of `step`'s destination model that `rows` (of its source model) become.
    static func mapRows(
        _ step: MigrationStep, rows: [StoreRow], source: ModelSchema, destination: ModelSchema,
        progress: ((String?, Double) -> Void)?
    ) throws -> [StoreRow] {
        try MigrationRows.map(
            step, rows: rows, source: source, destination: destination, progress: progress)
    }

    // MARK: - PostgreSQL

    /// Migrates the PostgreSQL store `url` names through `steps` in one transaction (every
    /// step, inferred ones too, through the row-level migration).
    static func migratePostgres(
        at url: URL, steps: [MigrationStep], progress: @escaping (MigrationProgress) -> Void
    ) throws {
        try PostgresStore.migrate(
            at: url, steps: steps,
            rowMapper: { step, rows, source, destination in
                try MigrationRows.map(
                    step, rows: rows, source: source, destination: destination, progress: nil)
            }, progress: progress)
    }

    // MARK: - SQLite in place (part D)

    /// Migrates the SQLite store at `url` through `steps` in one transaction.
    static func migrateSQLite(
        at url: URL, steps: [MigrationStep], busyTimeout: TimeInterval, sqlLog: SQLLog? = nil,
        progress: @escaping (MigrationProgress) -> Void
    ) throws {
        try SQLiteStore.migrate(
            at: url, steps: steps, busyTimeout: busyTimeout, sqlLog: sqlLog,
            rowMapper: { step, rows, source, destination in
                try MigrationRows.map(
                    step, rows: rows, source: source, destination: destination, progress: nil)
            }, progress: progress)
    }
}
