import Foundation
import PostgresClient

/// Migrating a PostgreSQL store to another model version, and creating one whole from the rows
/// of another store: both write the new store into a staging schema and swap it in with
/// ``PostgresStoreInstaller``, in one transaction.
extension PostgresStore {
    /// `url`'s text with its password replaced by `***` (what messages about the store name).
    static func displayName(of url: URL) -> String {
        (try? PostgresURL(url).description) ?? PostgresURL.redacted(url.absoluteString)
    }

    /// The metadata of the store `url` names, `nil` when its schema holds no store. Nothing
    /// is changed.
    /// - Throws: ``StoreError`` naming the (redacted) URL when the server cannot be reached or
    ///   the metadata cannot be read.
    static func metadata(ofStoreAt url: URL) throws -> StoreMetadata? {
        try PostgresStoreInstaller(url: url).storedMetadata()
    }

    /// Migrates the store `url` names through `steps`, in ONE transaction (writers locked
    /// out, readers not): a store of the last step's destination model is written into a
    /// staging schema and swapped in for the old tables (``PostgresStoreInstaller``). One
    /// inferred step that only adds, removes or renames attributes is copied in SQL
    /// (``PostgresInferredMigrator``: one `INSERT … SELECT` per table, nothing per row) when
    /// `inferredInSQL`; otherwise every object is read with the first step's source model,
    /// mapped through every step by `rowMapper` and written row by row. The store keeps its
    /// UUID, so object URIs stay valid wherever an object keeps its entity and key. A failure,
    /// or a killed process, leaves the store at its old version; a store another process
    /// migrated meanwhile is left as it is.
    ///
    /// - Throws: ``MigrationError`` from the mapping; ``StoreError`` naming the (redacted) URL:
    ///   `incompatibleModel` when the store is at neither end of the steps, `postgres` when a
    ///   statement fails (the message names it).
    static func migrate(
        at url: URL, steps: [MigrationStep],
        rowMapper: (
            _ step: MigrationStep, _ rows: [StoreRow], _ source: ModelSchema,
            _ destination: ModelSchema
        ) throws -> [StoreRow],
        progress: ((MigrationProgress) -> Void)? = nil, inferredInSQL: Bool = true
    ) throws {
        guard let first = steps.first, let last = steps.last else { return }
        let inSQL = inferredInSQL ? PostgresInferredMigrator(steps: steps) : nil
        let installer = try PostgresStoreInstaller(url: url)
        let sourceSchema = ModelSchema(model: first.source.model)
        let source: PostgresStore
        do {
            source = try PostgresStore(
                url: url, schema: sourceSchema, configuration: nil,
                options: StoreOptions(isReadOnly: true, createIfMissing: false))
        } catch StoreError.incompatibleModel(let path, let compatibility) {
            if let now = try installer.storedMetadata(),
                now.compatibility(with: last.destination.model).isCompatible
            {
                return  // migrated by another process meanwhile
            }
            throw StoreError.incompatibleModel(path: path, compatibility: compatibility)
        }
        try installer.clearStaging()
        do {
            try installer.transaction {
                guard let metadata = try installer.storedMetadata() else {
                    throw StoreError.cannotOpen(
                        path: installer.path, reason: "schema \(installer.target) holds no store")
                }
                if metadata.compatibility(with: last.destination.model).isCompatible { return }
                let check = metadata.compatibility(with: first.source.model)
                guard check.isCompatible else {
                    throw StoreError.incompatibleModel(path: installer.path, compatibility: check)
                }
                let oldTables = try storeTables(of: first.source.model, path: installer.path)
                try installer.lockAgainstWriters(oldTables)
                let staged = try PostgresStore(
                    url: installer.stagingURL(), schema: ModelSchema(model: last.destination.model),
                    configuration: nil,
                    options: StoreOptions(isReadOnly: false, createIfMissing: true))
                if let inSQL, try inSQL.holdsExactly(installer) {
                    let report = StepProgress(index: 0, of: steps) { progress?($0) }
                    try report.run { try inSQL.copy(with: installer, progress: $0) }
                } else {
                    var rows = try StoreCoordinator.allRows(
                        of: source, schema: sourceSchema, progress: nil)
                    var schema = sourceSchema
                    for (index, step) in steps.enumerated() {
                        let report = StepProgress(index: index, of: steps) { progress?($0) }
                        let destination = ModelSchema(model: step.destination.model)
                        rows = try report.run { _ in
                            try rowMapper(step, rows, schema, destination)
                        }
                        schema = destination
                    }
                    try staged.importRows(rows, schema: schema)
                }
                withExtendedLifetime(staged) {}
                var migrated = StoreMetadata(
                    model: last.destination.model, storeUUID: metadata.storeUUID,
                    frameworkVersion: metadata.frameworkVersion
                        ?? StoreMetadata.defaultFrameworkVersion)
                migrated.storeType = metadata.storeType
                migrated.additionalEntries = metadata.additionalEntries
                try installer.install(replacing: oldTables, keepingTargetTables: true)
                try installer.writeMetadata(migrated)
            }
        } catch {
            installer.discardStaging()
            throw error
        }
    }

    /// Creates the store `url` names, filled by `fill` (given the new store, written in a
    /// staging schema), and installs it in its schema in one transaction: the store appears
    /// whole or not at all. Returns the store opened where `url` points.
    /// - Throws: ``ObjectGraphError/fileExists(path:)`` (naming the redacted URL) when the
    ///   schema holds a store already, what `fill` throws, ``StoreError`` naming the URL.
    static func createAtomically(
        at url: URL, schema: ModelSchema, configuration: String?,
        fill: (any PersistentStore) throws -> Void
    ) throws -> PostgresStore {
        let installer = try PostgresStoreInstaller(url: url)
        try installer.clearStaging()
        do {
            try installer.transaction {
                if try installer.storedMetadata() != nil {
                    throw ObjectGraphError.fileExists(path: installer.path)
                }
                let staged = try PostgresStore(
                    url: installer.stagingURL(), schema: schema, configuration: configuration,
                    options: StoreOptions(isReadOnly: false, createIfMissing: true))
                try fill(staged)
                try installer.install(replacing: [], keepingTargetTables: false)
            }
        } catch {
            installer.discardStaging()
            throw error
        }
        return try PostgresStore(
            url: url, schema: schema, configuration: configuration,
            options: StoreOptions(isReadOnly: false, createIfMissing: false))
    }

    /// The tables a store of `model` keeps: its metadata and keys, the entity tables and the
    /// join tables.
    private static func storeTables(of model: EntityModel, path: String) throws -> [String] {
        let layout: StoreLayout
        do {
            layout = try StoreLayout(model: model)
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "the model has no layout: \(error)")
        }
        return ["Z_METADATA", "Z_PRIMARYKEY"] + layout.tables.map(\.name)
            + layout.joinTables.map(\.name)
    }
}
