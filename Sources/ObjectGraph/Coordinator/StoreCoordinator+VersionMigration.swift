import Foundation

/// Opening a store written with another version of the model (Core Data's automatic
/// migration): the store's version is found by its hashes, a chain of steps is planned to the
/// coordinator's model, and the store is migrated in place before it is opened.
extension StoreCoordinator {
    /// The steps that would migrate the `type` store at `url` to this coordinator's model:
    /// empty when the store matches the model (or has no file yet). Nothing is changed.
    ///
    /// ```swift
    /// let coordinator = try StoreCoordinator(bundle: ModelBundle(contentsOf: bundleURL))
    /// for step in try coordinator.migrationPlan(forStoreAt: url, type: .sqlite) {
    ///     print(step.label)   // "Model → Model 2 (inferred)"
    /// }
    /// ```
    ///
    /// - Throws: ``MigrationError/noSourceModel(store:entities:)`` when no version matches the
    ///   store, ``MigrationError/noMigrationPath(from:to:)`` or
    ///   ``MigrationError/cannotInferMapping(entity:property:reason:)`` when no chain leads to
    ///   the model, ``StoreError/incompatibleModel(path:compatibility:)`` when the store does
    ///   not match and there are no versions to look in, ``StoreError`` when the file cannot
    ///   be read.
    public func migrationPlan(
        forStoreAt url: URL, type: StoreType, options: MigrationOptions = MigrationOptions()
    ) throws -> [MigrationStep] {
        guard let metadata = try StoreMetadataProbe.metadata(ofStoreAt: url, type: type) else {
            return []
        }
        let check = metadata.compatibility(with: model)
        guard !check.isCompatible else { return [] }
        return try plan(for: metadata, at: url, type: type, compatibility: check, options: options)
    }

    /// Migrates the store at `url` when it was written with another version (called by
    /// ``addStore(type:at:configuration:options:)`` before the store opens).
    func migrateIfNeeded(
        type: StoreType, at url: URL, configuration: String?, options: StoreOptions
    ) throws {
        let migration = options.migration
        defer { migration.finishProgressUpdates() }
        if type != .postgres, let reason = PathKind.refusal(ofPath: url.path) {
            throw StoreError.cannotOpen(path: url.path, reason: reason)
        }
        guard let metadata = try StoreMetadataProbe.metadata(ofStoreAt: url, type: type) else {
            return
        }
        let check = metadata.compatibility(with: model)
        guard !check.isCompatible else { return }
        guard migration.migratesAutomatically else {
            throw StoreError.incompatibleModel(
                path: Self.displayName(of: url, type: type), compatibility: check)
        }
        let steps = try plan(
            for: metadata, at: url, type: type, compatibility: check, options: migration)
        try StoreMigrationRunner(
            url: url, type: type, steps: steps, stages: migration.stages,
            busyTimeout: options.busyTimeout, sqlLog: options.sqlLog(), report: migration.report
        ).run()
    }

    /// The steps from the store's version (found by `metadata`'s hashes) to the model.
    private func plan(
        for metadata: StoreMetadata, at url: URL, type: StoreType,
        compatibility: ModelCompatibility,
        options: MigrationOptions
    ) throws -> [MigrationStep] {
        var versions = options.versions.isEmpty ? modelVersions : options.versions
        // The model the store carries: the application's hook, else a SQLite store's
        // Z_MODELCACHE (what Core Data falls back to); read only when no version matches.
        let storeModel = {
            if let hook = options.storeModel { return try hook(url, metadata) }
            guard type == .sqlite, let model = try Self.cachedModel(ofStoreAt: url) else {
                return nil
            }
            return ModelVersion(name: "the model in the store", model: model)
        }
        let carried = versions.isEmpty ? try storeModel() : nil
        if versions.isEmpty && carried == nil {
            // Nothing to migrate from: the store is refused as before versions were known.
            throw StoreError.incompatibleModel(
                path: Self.displayName(of: url, type: type), compatibility: compatibility)
        }
        let hashes = model.entityVersionHashes
        let destination: ModelVersion
        if let current = versions.last(where: { $0.model.entityVersionHashes == hashes }) {
            destination = current
        } else {
            destination = ModelVersion(name: "current model", model: model)
            versions.append(destination)
        }
        let source: ModelVersion
        do {
            source = try MigrationBridge.sourceVersion(
                for: metadata.versionHashes, among: versions,
                store: Self.displayName(of: url, type: type),
                current: destination)
        } catch {
            // The hook for the model the store carries (Z_MODELCACHE, once it can be read).
            guard let carried = try carried ?? storeModel(),
                carried.model.entityVersionHashes == metadata.versionHashes
            else { throw error }
            // Such a model is no version of the bundle: the one step goes straight to the model.
            source = carried
            versions = [carried, destination]
        }
        let mappings = options.mappingModels + mappingModels
        let declared = try options.stages.map { stage throws -> MigrationStep in
            try step(for: stage, versions: versions, mappingModels: mappings)
        }
        return try MigrationBridge.plan(
            from: source, to: destination, versions: versions, mappingModels: mappings,
            declaredSteps: declared, infers: options.infersMappingAutomatically)
    }

    /// What messages name a store by: its file's path, or a PostgreSQL store's URL with its
    /// password replaced by `***`.
    static func displayName(of url: URL, type: StoreType) -> String {
        type == .postgres ? PostgresStore.displayName(of: url) : url.path
    }

    /// The step a declared stage stands for.
    private func step(
        for stage: MigrationStage, versions: [ModelVersion], mappingModels: [MappingModel]
    ) throws -> MigrationStep {
        func version(_ name: String) throws -> ModelVersion {
            guard let found = versions.first(where: { $0.name == name }) else {
                throw MigrationError.stageFailed(
                    stage: stage.label,
                    reason: "no model version named '\(name)' (versions: "
                        + versions.map(\.name).joined(separator: ", ") + ")")
            }
            return found
        }
        let source = try version(stage.sourceVersionName)
        let destination = try version(stage.destinationVersionName)
        let mapping: MappingModel
        if let given = stage.mapping, stage.kind == .custom {
            mapping = given
        } else if stage.kind == .custom,
            let found = mappingModels.first(where: {
                $0.sourceVersionName == source.name && $0.destinationVersionName == destination.name
            })
        {
            mapping = found
        } else {
            mapping = try MigrationBridge.inferredMapping(from: source, to: destination)
        }
        return MigrationStep(source: source, destination: destination, mapping: mapping)
    }
}
