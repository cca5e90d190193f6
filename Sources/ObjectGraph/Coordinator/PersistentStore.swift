import Foundation

/// The kind of a persistent store.
public struct StoreType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The type's name (`InMemory`, `SQLite`, `XML`, `Binary`, `PostgreSQL`), as stored in
    /// metadata.
    public var rawValue: String

    /// Creates a type from its name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Rows kept in memory; nothing written to disk.
    public static let inMemory = StoreType(rawValue: "InMemory")
    /// A SQLite file in Core Data's layout.
    public static let sqlite = StoreType(rawValue: "SQLite")
    /// A Core Data XML file.
    public static let xml = StoreType(rawValue: "XML")
    /// ObjectGraph's binary file.
    public static let binary = StoreType(rawValue: "Binary")
    /// A schema of a PostgreSQL database, in Core Data's layout, shared by many processes:
    /// ``StoreCoordinator/addStore(type:at:configuration:options:)`` takes a `postgresql://`
    /// URL (see `PostgresURL`).
    public static let postgres = StoreType(rawValue: "PostgreSQL")

    /// The name.
    public var description: String { rawValue }
}

/// A store added to a coordinator, as users see it.
public struct StoreDescription: Sendable, Hashable {
    /// The store's UUID.
    public var identifier: String { metadata.storeUUID }
    /// The store type.
    public var type: StoreType
    /// The file, for stores that have one; for a PostgreSQL store its URL with the password
    /// replaced by `***`.
    public var url: URL?
    /// The model configuration the store holds (`nil`: every entity).
    public var configurationName: String?
    /// Whether saves are refused.
    public var isReadOnly: Bool
    /// The store's metadata.
    public var metadata: StoreMetadata
    /// The journal a writable SQLite store writes with: `"wal"`, or the rollback journal
    /// SQLite kept (`"delete"`, say) when the file system cannot give WAL its shared memory;
    /// `nil` for read-only and other stores.
    ///
    /// ```swift
    /// if coordinator.storeDescriptions[0].journalMode != "wal" { print("no concurrent readers") }
    /// ```
    public var journalMode: String? = nil

    /// The store's file path, or for a store without a file its type and identifier (what
    /// ``StoreError`` cases name).
    var displayPath: String {
        if type == .postgres, let url { return url.absoluteString }
        return url?.path ?? "\(type) store \(identifier)"
    }
}

/// Options for adding a store.
public struct StoreOptions: Sendable, Hashable {
    /// Open the store read-only: fetches work, saves throw, and nothing in the file's folder
    /// changes. A SQLite store is read without creating a `-wal` or `-shm` and without
    /// rewriting an existing `-shm`, and every row of its `-wal` is read, in a folder without
    /// write permission too (when the `-wal` holds rows and there is no `-shm`, from a private
    /// copy in the temporary directory, removed when the store closes). Such a store is read
    /// as it is when opened: it is assumed that no other process writes it meanwhile.
    public var isReadOnly: Bool
    /// Create the file if it does not exist.
    public var createIfMissing: Bool
    /// How long, in seconds, a SQLite store waits for another connection (another
    /// coordinator, another process) that holds the file's write lock before a read or save
    /// fails (SQLite's busy timeout); 10 seconds unless set. Writing stores open their file in
    /// WAL journal mode, so readers never wait for a writer and writers wait for each other
    /// only while one commits. Ignored by the other store types.
    ///
    /// ```swift
    /// try coordinator.addStore(
    ///     type: .sqlite, at: url, options: StoreOptions(busyTimeout: 30))
    /// ```
    public var busyTimeout: Double
    /// Whether and how a store written with another version of the model is migrated when it
    /// is added (Core Data's `NSMigratePersistentStoresAutomaticallyOption` and
    /// `NSInferMappingModelAutomaticallyOption`, both on by default). See ``MigrationOptions``.
    public var migration: MigrationOptions
    /// The Core Data framework version (`NSPersistenceFrameworkVersion`) a new SQLite store
    /// claims, and whose schema (index names, uniqueness constraints, ``SchemaStyle``) and
    /// metadata keys it is created with; `nil`: ``StoreMetadata/defaultFrameworkVersion``.
    /// Existing files keep the schema they have.
    ///
    /// ```swift
    /// var options = StoreOptions()
    /// options.frameworkVersion = 1044  // as an iOS 12 device writes it
    /// ```
    public var frameworkVersion: Int? = nil
    /// Whether the coordinator tells you, without your code polling, when another process or
    /// another coordinator of this process commits to the store's file (Core Data's
    /// `NSPersistentStoreRemoteChangeNotificationPostOptionKey`; `false` by default): it posts
    /// ``StoreCoordinator/remoteChangeNotification`` and yields to every
    /// ``StoreCoordinator/remoteChanges()`` stream, usually within milliseconds of the commit,
    /// and contexts with ``ManagedContext/automaticallyMergesRemoteChanges`` merge. Saves
    /// through this coordinator do not count. Writable SQLite stores (a watch of the file) and
    /// PostgreSQL stores (`LISTEN` on the schema's channel, which every save `NOTIFY`s, across
    /// machines); other types and read-only stores, which are read as they were when opened,
    /// ignore it.
    ///
    /// ```swift
    /// var options = StoreOptions()
    /// options.postsRemoteChangeNotifications = true
    /// try coordinator.addStore(type: .sqlite, at: url, options: options)
    /// ```
    public var postsRemoteChangeNotifications = false
    /// How much a SQLite store logs of the SQL it runs (Core Data's
    /// `-com.apple.CoreData.SQLDebug`): `1` each statement and its time, `2` also the rows it
    /// returned or changed, `3` also its bound values — which may be private data; `0` nothing.
    /// `nil` (the default): the level of the `OBJECTGRAPH_SQL_DEBUG` environment variable,
    /// or nothing. See ``sqlLog(environment:)``.
    ///
    /// ```swift
    /// var options = StoreOptions()
    /// options.sqlDebugLevel = 2
    /// options.sqlLogHandler = SQLLogHandler { entry in logger.debug("\(entry)") }
    /// ```
    public var sqlDebugLevel: Int? = nil
    /// Where the SQL log's entries go: standard error unless set.
    public var sqlLogHandler: SQLLogHandler = .standardError
    /// Record every save and batch request in the store's persistent history (Core Data's
    /// `NSPersistentHistoryTrackingKey`): SQLite and PostgreSQL stores, in Core Data's own
    /// history tables (`ATRANSACTION`, `ACHANGE`, `ATRANSACTIONSTRING`), created when the store
    /// is added with tracking on. Off by default. Another store type with it on throws
    /// ``HistoryError/notSupported(storeType:)``.
    ///
    /// ```swift
    /// var options = StoreOptions()
    /// options.tracksHistory = true
    /// try coordinator.addStore(type: .sqlite, at: url, options: options)
    /// ```
    public var tracksHistory = false

    /// Creates options.
    public init(
        isReadOnly: Bool = false, createIfMissing: Bool = true, busyTimeout: Double = 10,
        migration: MigrationOptions = MigrationOptions()
    ) {
        self.isReadOnly = isReadOnly
        self.createIfMissing = createIfMissing
        self.busyTimeout = busyTimeout
        self.migration = migration
    }
}

/// What a store does for a coordinator. Stores are used only under the coordinator's lock
/// (but for the save writers of a ``ConcurrentSavingStore``, each used by one save outside it).
protocol PersistentStore: AnyObject {
    /// The store's description.
    var description: StoreDescription { get }
    /// The row of the object `id`, or `nil` when the store has none.
    func row(for id: ObjectID) throws -> StoreRow?
    /// Every row of the given entities (by index).
    func rows(ofEntities entities: Set<Int>) throws -> [StoreRow]
    /// The targets of the to-many relationship at `position` of the object `id` (of the entity
    /// at `entityIndex`), for rows that left it unloaded.
    func relatedIDs(of id: ObjectID, entityIndex: Int, position: Int) throws -> [ObjectID]
    /// The rows of the objects `ids` (those the store has), in one pass where it can.
    func rows(for ids: [ObjectID]) throws -> [StoreRow]
    /// The rows of the objects related to each of `owners` (all of the entity at
    /// `entityIndex`) through the to-many relationship at `position`, in relationship order;
    /// `nil` when the store keeps relationship lists in its rows already.
    func relatedRows(of owners: [ObjectID], entityIndex: Int, position: Int) throws
        -> [ObjectID: [StoreRow]]?
    /// Answers `query` in the store, in order, or returns `nil` when the store cannot (the
    /// context then evaluates it in memory over ``rows(ofEntities:)``). A store that answers
    /// must give exactly what the in-memory evaluator gives.
    func fetch(_ query: StoreQuery) throws -> [StoreRow]?
    /// Counts the rows `query` matches, or `nil` when the store cannot.
    func count(_ query: StoreQuery) throws -> Int?
    /// How the store answers `query`: its SQL and SQLite's plan, and what is evaluated in
    /// memory (the default: everything — the store does not run SQL).
    func explain(_ query: StoreQuery) throws -> FetchExplanation
    /// Answers a grouped or aggregate dictionary fetch in the store, or returns `nil` when it
    /// cannot (the context then evaluates it in memory over the matching rows). A store that
    /// answers must give exactly what the in-memory evaluator gives (see
    /// ``StoreAggregateQuery``).
    func aggregate(_ query: StoreAggregateQuery) throws -> [[String: Value]]?
    /// Reserves `count` new primary keys for objects of the hierarchy rooted at `rootEntity`:
    /// a run of consecutive keys.
    func newPrimaryKeys(rootEntity: Int, count: Int) throws -> Range<Int64>
    /// Checks a change set without applying it: returns the optimistic-locking conflicts.
    func conflicts(in changes: ChangeSet) throws -> [SaveConflict]
    /// Applies a change set atomically: all of it or, on a thrown error, none.
    func save(_ changes: ChangeSet) throws
    /// Adds `rows` as they are, all at once (for moving a store to another type): their IDs
    /// already carry this store's identifier, their to-many lists are complete, their primary
    /// keys are kept, and keys given out later continue after the largest.
    func importRows(_ rows: [StoreRow], schema: ModelSchema) throws

    /// A read-only view of the store's rows as they are now, which later saves (through this
    /// store or another connection to its file) do not change: the store's part of a query
    /// generation (``StoreGeneration``). Used, like the store, only under the coordinator's
    /// lock; released when the generation goes.
    /// - Throws: ``StoreError/queryGenerationsNeedWAL(path:journalMode:)`` when the store
    ///   cannot keep a snapshot (a SQLite file not in WAL mode).
    func openGeneration() throws -> any PersistentStore

    /// Runs `batch` in the store by itself (all of it in one transaction, or, on a thrown
    /// error, none), or returns `nil` when it cannot (then the caller works out the rows to
    /// change and saves them). A store that runs it must change exactly the rows the caller
    /// would.
    func execute(_ batch: StoreBatch) throws -> StoreBatchOutcome?

    /// Inserts the rows of `batch` by itself, in one transaction, and returns their new
    /// permanent IDs in order; or returns `nil` when it cannot (then the caller saves rows).
    func insert(_ batch: StoreInsertBatch) throws -> [ObjectID]?

    // Capabilities: a store that has one returns itself (the coordinator never casts).

    /// The store as a ``RowDecodingStore``, when it decodes rows straight into a sink.
    var rowDecoding: (any RowDecodingStore)? { get }
    /// The store as a ``SQLQueryingStore``, when it answers queries in SQL.
    var sqlQuerying: (any SQLQueryingStore)? { get }
    /// The store as a ``HistoryStore``, when it can keep and read persistent history.
    var history: (any HistoryStore)? { get }
    /// Whether the store refuses rows breaking a uniqueness constraint itself (a unique
    /// index), throwing ``StoreError/uniqueConstraint(path:entity:properties:)``; otherwise
    /// the coordinator checks them before the store writes.
    var enforcesUniqueness: Bool { get }
    /// The store as a ``RemoteChangeDetectingStore``, when it can tell that another connection
    /// committed to its file.
    var remoteChangeDetecting: (any RemoteChangeDetectingStore)? { get }
    /// The store as a ``ConcurrentSavingStore``, when its saves may run outside the
    /// coordinator's lock, several at once.
    var concurrentSaving: (any ConcurrentSavingStore)? { get }
}

extension PersistentStore {
    /// Stores give rows unless they say otherwise.
    var rowDecoding: (any RowDecodingStore)? { nil }
    /// Stores evaluate in memory unless they say otherwise.
    var sqlQuerying: (any SQLQueryingStore)? { nil }
    /// Stores hear of no other writer unless they say otherwise.
    var remoteChangeDetecting: (any RemoteChangeDetectingStore)? { nil }
    /// Stores keep no history unless they say otherwise.
    var history: (any HistoryStore)? { nil }
    /// Stores save one at a time, under the coordinator's lock, unless they say otherwise.
    var concurrentSaving: (any ConcurrentSavingStore)? { nil }
    /// Stores leave aggregates to the context's evaluator unless they say otherwise (the
    /// in-memory and atomic stores do: their rows are in memory already).
    func aggregate(_ query: StoreAggregateQuery) throws -> [[String: Value]]? { nil }
    /// Stores leave batches to the caller unless they say otherwise.
    func execute(_ batch: StoreBatch) throws -> StoreBatchOutcome? { nil }
    /// Stores leave batch inserts to the caller unless they say otherwise.
    func insert(_ batch: StoreInsertBatch) throws -> [ObjectID]? { nil }
}
