import Foundation

/// How a store written with another version of the model is migrated when it is added (Core
/// Data's `shouldMigrateStoreAutomatically` and `shouldInferMappingModelAutomatically`, both on
/// by default), and where progress is reported.
///
/// ```swift
/// var options = StoreOptions()
/// options.migration.progress = { print(Int($0.fractionCompleted * 100), $0.stage) }
/// let updates = options.migration.progressUpdates()      // or as an async sequence
/// Task { for await step in updates { print(step.fractionCompleted) } }
/// let coordinator = try StoreCoordinator(bundle: ModelBundle(contentsOf: bundleURL))
/// try coordinator.addStore(type: .sqlite, at: storeURL, options: options)
/// ```
///
/// A store whose version hashes match the model opens as it is. Otherwise, with
/// ``migratesAutomatically`` on, its version is found among ``versions`` (or the
/// coordinator's ``StoreCoordinator/modelVersions``) by the store's hashes, a chain of steps is
/// planned to the coordinator's model — a declared ``stages`` entry, else a mapping model of
/// ``mappingModels`` (or the coordinator's), else an inferred mapping when
/// ``infersMappingAutomatically`` is on — and run. A process killed during a migration leaves
/// the store as it was or fully migrated, never in between.
///
/// Equality and hashing compare the flags, versions, mapping models and stages; closures
/// (``progress``, stage handlers, ``storeModel``) are not compared.
public struct MigrationOptions: Sendable, Hashable {
    /// Migrate a store of another version when it is added (on by default). Off: such a store
    /// is refused with ``StoreError/incompatibleModel(path:compatibility:)``.
    public var migratesAutomatically: Bool
    /// Infer a mapping for a step no mapping model or stage covers (on by default). Off: such a
    /// step fails with ``MigrationError/noMigrationPath(from:to:)``.
    public var infersMappingAutomatically: Bool
    /// The model's versions, oldest first (empty: the coordinator's
    /// ``StoreCoordinator/modelVersions``). The coordinator's model is the destination.
    public var versions: [ModelVersion]
    /// Mapping models to use (added to the coordinator's ``StoreCoordinator/mappingModels``).
    public var mappingModels: [MappingModel]
    /// Declared stages (Core Data's staged migration); undeclared steps are inferred.
    public var stages: [MigrationStage]
    /// Called with the migration's progress, on the thread that adds the store.
    public var progress: (@Sendable (MigrationProgress) -> Void)?
    /// The model that wrote a store whose hashes match no version, given the store's file and
    /// metadata, or `nil`. Unset, a SQLite store's own `Z_MODELCACHE` (the model Core Data
    /// keeps inside it) is used, as Core Data does; set it to supply the model an application
    /// knows wrote such stores, or to refuse them (`{ _, _ in nil }`).
    public var storeModel: (@Sendable (URL, StoreMetadata) throws -> ModelVersion?)?
    /// Where ``progressUpdates()`` streams go.
    var updates: MigrationProgressUpdates?

    /// Creates migration options.
    public init(
        migratesAutomatically: Bool = true, infersMappingAutomatically: Bool = true,
        versions: [ModelVersion] = [], mappingModels: [MappingModel] = [],
        stages: [MigrationStage] = [],
        progress: (@Sendable (MigrationProgress) -> Void)? = nil
    ) {
        self.migratesAutomatically = migratesAutomatically
        self.infersMappingAutomatically = infersMappingAutomatically
        self.versions = versions
        self.mappingModels = mappingModels
        self.stages = stages
        self.progress = progress
    }

    /// An async sequence of the progress of the migration run by the next `addStore` given
    /// these options. It ends when that `addStore` returns or throws (at once when no migration
    /// was needed). Each call makes a new sequence; every one gets every report.
    ///
    /// ```swift
    /// var options = StoreOptions()
    /// let updates = options.migration.progressUpdates()
    /// let watcher = Task { for await step in updates { print(step.stage, step.fractionCompleted) } }
    /// try coordinator.addStore(type: .sqlite, at: url, options: options)
    /// await watcher.value
    /// ```
    public mutating func progressUpdates() -> AsyncStream<MigrationProgress> {
        let box = updates ?? MigrationProgressUpdates()
        updates = box
        return box.makeStream()
    }

    /// Reports `progress` to the callback and every stream.
    func report(_ progress: MigrationProgress) {
        self.progress?(progress)
        updates?.yield(progress)
    }

    /// Ends every stream made by ``progressUpdates()``.
    func finishProgressUpdates() {
        updates?.finish()
    }

    public static func == (lhs: MigrationOptions, rhs: MigrationOptions) -> Bool {
        lhs.migratesAutomatically == rhs.migratesAutomatically
            && lhs.infersMappingAutomatically == rhs.infersMappingAutomatically
            && lhs.versions == rhs.versions && lhs.mappingModels == rhs.mappingModels
            && lhs.stages == rhs.stages
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(migratesAutomatically)
        hasher.combine(infersMappingAutomatically)
        hasher.combine(versions)
        hasher.combine(mappingModels)
        hasher.combine(stages)
    }
}
