import Foundation

/// Connects a model to its stores. `Sendable`: any thread may use it; it serializes every store
/// access with one lock (but the saves of a PostgreSQL store, which run at once). Contexts
/// never touch stores directly.
///
/// ```swift
/// let coordinator = StoreCoordinator(model: model)
/// try coordinator.addStore(type: .inMemory)
/// let context = ManagedContext(coordinator: coordinator)
/// ```
///
/// Several stores can be added, each for one configuration of the model; objects are routed to
/// the store whose configuration lists their entity.
public final class StoreCoordinator: @unchecked Sendable {
    // `lock` protects `stores` and `replacedStores` and serializes every call into a store:
    // stores are not thread-safe themselves. (A `ConcurrentSavingStore` makes a save writer
    // under the lock, which is then used outside it by that save alone.) Nothing else here is
    // mutable.
    private let lock = NSLock()
    private var stores: [any PersistentStore] = []
    /// Identifiers of stores replaced by ``migrateStore(_:to:type:progress:)``, mapped to their successors.
    private var replacedStores: [String: String] = [:]

    /// The model.
    public let model: EntityModel
    let schema: ModelSchema
    /// Contexts hearing of every save made through this coordinator (thread-safe itself).
    let saveObservers = SaveObservers()
    /// Stores' file watches and who hears of other writers' commits
    /// (``StoreOptions/postsRemoteChangeNotifications``); stops the watches when released.
    let remoteChangeCenter = RemoteChangeCenter()
    /// The model's versions, oldest first, when the coordinator was made from a bundle: stores
    /// written with any of them are migrated to ``model`` when added (see ``MigrationOptions``).
    public let modelVersions: [ModelVersion]
    /// The mapping models found beside the bundle, used when a migration needs one.
    public let mappingModels: [MappingModel]

    /// Creates a coordinator for `model`, with no store yet.
    public init(model: EntityModel) {
        self.model = model
        schema = ModelSchema(model: model)
        modelVersions = []
        mappingModels = []
    }

    /// Creates a coordinator for `model` that knows the model's earlier `versions` and the
    /// `mappingModels` between them.
    public init(model: EntityModel, versions: [ModelVersion], mappingModels: [MappingModel] = []) {
        self.model = model
        schema = ModelSchema(model: model)
        modelVersions = versions
        self.mappingModels = mappingModels
    }

    /// Adds a store and returns its description.
    ///
    /// - Parameters:
    ///   - type: the store type.
    ///   - url: the file, for stores that have one.
    ///   - configuration: the model configuration whose entities go to this store (`nil`: all).
    ///   - options: read-only, creation and migration options.
    ///
    /// A writable store file written with another version of the model is migrated in place
    /// first, as ``StoreOptions/migration`` says (see ``MigrationOptions``).
    ///
    /// - Throws: ``StoreError/cannotOpen(path:reason:)`` when `url` names a folder, FIFO,
    ///   device or socket (checked before it is opened), or the file cannot be read;
    ///   ``StoreError/incompatibleModel(path:compatibility:)`` for a store of another version
    ///   that is not migrated; a ``MigrationError`` when its migration cannot run or fails
    ///   (the store is then left as it was); ``HistoryError/notSupported(storeType:)`` when
    ///   ``StoreOptions/tracksHistory`` is on for a store type other than SQLite and PostgreSQL.
    @discardableResult
    public func addStore(
        type: StoreType = .inMemory, at url: URL? = nil, configuration: String? = nil,
        options: StoreOptions = StoreOptions()
    ) throws -> StoreDescription {
        if let configuration, model.configuration(named: configuration) == nil {
            throw ObjectGraphError.unknownConfiguration(configuration)
        }
        if options.tracksHistory, type != .sqlite, type != .postgres {
            throw HistoryError.notSupported(storeType: type.rawValue)
        }
        if type != .inMemory, type != .postgres, let path = url?.path,
            let reason = PathKind.refusal(ofPath: path)
        {
            // Checked before any store opens the file: reading a FIFO would block for good.
            throw StoreError.cannotOpen(path: path, reason: reason)
        }
        if !options.isReadOnly, let url, type != .inMemory {
            // A store of another model version is migrated in place before it is opened.
            try migrateIfNeeded(type: type, at: url, configuration: configuration, options: options)
        } else {
            options.migration.finishProgressUpdates()
        }
        let store: any PersistentStore
        switch type {
        case .inMemory:
            var metadata = StoreMetadata(model: model)
            metadata.storeType = StoreType.inMemory.rawValue
            store = InMemoryStore(
                description: StoreDescription(
                    type: .inMemory, url: url, configurationName: configuration,
                    isReadOnly: options.isReadOnly, metadata: metadata))
        case .sqlite:
            guard let url else { throw ObjectGraphError.storeNeedsURL(type: type.rawValue) }
            // What a migration to this file killed midway left (atomic stores do the same).
            if !options.isReadOnly { StagingFile.removeStale(beside: url) }
            store = try SQLiteStore(
                url: url, schema: schema, configuration: configuration, options: options)
        case .binary:
            guard let url else { throw ObjectGraphError.storeNeedsURL(type: type.rawValue) }
            store = try AtomicStore(
                url: url, format: BinaryStoreFormat(), schema: schema,
                configuration: configuration, options: options)
        case .xml:
            guard let url else { throw ObjectGraphError.storeNeedsURL(type: type.rawValue) }
            store = try AtomicStore(
                url: url, format: XMLStoreFormat(), schema: schema, configuration: configuration,
                options: options)
        case .postgres:
            guard let url else { throw ObjectGraphError.storeNeedsURL(type: type.rawValue) }
            store = try PostgresStore(
                url: url, schema: schema, configuration: configuration, options: options)
        default:
            throw ObjectGraphError.unsupported("store type \(type) is not available yet")
        }
        // Started before the store is added, kept (with the store's mark) as it is added.
        let watch = try Self.startWatch(of: store, options: options, for: self)
        do {
            try lock.withLock {
                if let watch { try beginWatch(watch, of: store) }
                stores.append(store)
            }
        } catch {
            watch?.stop()
            throw error
        }
        return store.description
    }

    /// The stores, in the order they were added.
    public var storeDescriptions: [StoreDescription] {
        lock.withLock { stores.map(\.description) }
    }

    /// Removes the store with `identifier`. Contexts holding its objects should be reset. The
    /// store's remote change watch (``StoreOptions/postsRemoteChangeNotifications``) has stopped
    /// when this returns.
    public func removeStore(_ description: StoreDescription) {
        lock.withLock { stores.removeAll { $0.description.identifier == description.identifier } }
        remoteChangeCenter.end(description.identifier)
    }

    /// The ID an object URI stands for (`x-coredata://<store>/<Entity>/p<N>`). A URI naming a
    /// store that ``migrateStore(_:to:type:progress:)`` replaced gives the ID in the new store.
    /// - Throws: ``ObjectGraphError/invalidObjectURI(_:)`` when it names no store or entity here.
    public func objectID(forURI uri: URL) throws -> ObjectID {
        let text = uri.absoluteString
        let parts = uri.path.split(separator: "/").map(String.init)
        guard uri.scheme == "x-coredata", let host = uri.host, parts.count == 2,
            schema.entity(named: parts[0]) != nil, parts[1].hasPrefix("p"),
            let key = Int64(parts[1].dropFirst()), key > 0
        else {
            throw ObjectGraphError.invalidObjectURI(text)
        }
        let current = lock.withLock { () -> String? in
            var identifier = host
            var steps = 0
            while let next = replacedStores[identifier], steps <= replacedStores.count {
                identifier = next
                steps += 1
            }
            return stores.contains { $0.description.identifier == identifier } ? identifier : nil
        }
        guard let current else { throw ObjectGraphError.invalidObjectURI(text) }
        return ObjectID(entityName: parts[0], storeIdentifier: current, key: .permanent(key))
    }

    /// Puts `replacement` in the place of the store `oldIdentifier`, which is removed (or adds
    /// it, when that store is gone); URIs naming the old store then resolve to the new one.
    func replaceStore(_ oldIdentifier: String, with replacement: any PersistentStore) {
        let newIdentifier = replacement.description.identifier
        lock.withLock {
            stores.removeAll { $0.description.identifier == newIdentifier }
            if let oldIndex = stores.firstIndex(where: {
                $0.description.identifier == oldIdentifier
            }) {
                stores[oldIndex] = replacement
            } else {
                stores.append(replacement)
            }
            replacedStores[oldIdentifier] = newIdentifier
        }
        remoteChangeCenter.end(oldIdentifier)
    }

    // MARK: - Store access

    /// Runs `body` with the stores, under the lock. The coordinator's own: contexts reach the
    /// stores through the coordinator's methods (`StoreCoordinator+Fetching.swift`,
    /// `StoreCoordinator+Saving.swift`), never through this (the boundary test holds it).
    func withStoresLocked<T>(_ body: ([any PersistentStore]) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(stores)
    }

    /// The store that holds objects of `entity`.
    static func store(
        for entity: EntitySchema, in stores: [any PersistentStore], model: EntityModel
    ) throws -> any PersistentStore {
        guard let store = stores.first(where: { holds($0, entity.name, model: model) }) else {
            throw ObjectGraphError.noStore(entity: entity.name)
        }
        return store
    }

    /// The one store that may hold objects of `entities` (by index), or `nil` when none or
    /// several may (the context then reads every store's rows).
    static func onlyStore(
        for entities: Set<Int>, in stores: [any PersistentStore], schema: ModelSchema
    ) -> (any PersistentStore)? {
        let holding = stores.filter { store in
            entities.contains { holds(store, schema.entities[$0].name, model: schema.model) }
        }
        return holding.count == 1 ? holding[0] : nil
    }

    /// Whether `store` holds objects of the entity named `entity`: a store without a
    /// configuration holds every entity, one with a configuration its members.
    static func holds(_ store: any PersistentStore, _ entity: String, model: EntityModel) -> Bool {
        guard let name = store.description.configurationName else { return true }
        return model.configuration(named: name)?.entityNames.contains(entity) == true
    }

    /// The store with `identifier` among `stores`.
    static func store(identifiedBy identifier: String, in stores: [any PersistentStore])
        -> (any PersistentStore)?
    {
        stores.first { $0.description.identifier == identifier }
    }
}
