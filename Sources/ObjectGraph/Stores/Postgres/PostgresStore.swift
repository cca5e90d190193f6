import Foundation
import PostgresClient

/// A store in a PostgreSQL schema, laid out as Core Data lays out its SQLite files (the same
/// ``StoreLayout``: a table per inheritance tree with `Z_PK`, `Z_ENT`, `Z_OPT` and a column per
/// property, join tables, `Z_PRIMARYKEY`, `Z_METADATA`), with PostgreSQL column types (see
/// ``PostgresSchemaDDL``). Many processes on many machines may open the same schema: keys are
/// handed out under `Z_PRIMARYKEY`'s row locks and saves are checked by `Z_OPT`.
///
/// ```swift
/// try coordinator.addStore(
///     type: .postgres, at: URL(string: "postgresql://app@db.local/shop?schema=orders")!)
/// ```
///
/// Used only under its coordinator's lock (the coordinator serializes every call), but for
/// saves, which run outside it, each on a save writer of its own. Its
/// connections come from the process's ``PostgresConnectionPool`` for the URL: one is borrowed
/// for each operation (see ``withConnection(_:)``) and given back after it.
final class PostgresStore: PersistentStore {
    /// The schema used when the URL names none.
    static let defaultSchema = "objectgraph"

    let description: StoreDescription
    /// The process's connections to this URL, shared with every store open on it.
    let pool: PostgresConnectionPool
    /// The connection the store holds now: borrowed for the operation under way, or pinned
    /// for a query generation's life (see ``connection``).
    var held: PostgresConnection?
    /// How deep ``withConnection(_:)`` calls are nested now.
    var holdDepth = 0
    /// Whether ``held`` stays until the store goes (a query generation's snapshot).
    let pinsConnection: Bool
    /// The SQL log the store's statements go to (``StoreOptions/sqlDebugLevel``).
    let sqlLog: SQLLog?
    let layout: StoreLayout
    let schema: ModelSchema
    /// The store's URL with its password replaced by `***` (what errors name).
    let path: String
    /// The PostgreSQL schema holding the tables.
    let schemaName: String
    /// Layout of each schema entity (by schema index).
    let entityLayouts: [EntityLayout]
    /// Schema index by `Z_ENT`.
    let schemaIndexByNumber: [Int: Int]
    /// The model's uniqueness constraints by constraint name.
    let uniqueConstraints: [String: PostgresSchemaDDL.UniqueConstraint]
    /// Row decoding plans by schema entity index, made on first use.
    var readPlans: [Int: PostgresReadPlan] = [:]
    /// The ID spaces of the entities' objects in this store, by entity name, made on first use.
    var idSpaces: [String: ObjectIDSpace] = [:]
    /// Row writing plans by schema entity index, made on first use.
    var writePlans: [Int: PostgresWritePlan] = [:]
    /// The plans of fetches whose SQL depends on the query alone (see
    /// ``withSelectPlan(_:_:)``), by query.
    var selectPlans: [StoreQuery: Plan] = [:]
    /// The plans of aggregate fetches whose SQL depends on the query alone, by query (nil:
    /// left to the evaluator).
    var aggregatePlans: [StoreAggregateQuery: AggregatePlan?] = [:]
    /// History recording and save announcements (`PostgresStore+Publishing.swift`).
    let publishing: PostgresPublishing
    /// Who makes the next save, recorded in its history (set by the coordinator before each
    /// save; each save writer has its own).
    var saveOrigin = HistoryOrigin()
    /// What makes text comparisons byte order on this server, for the compiler's native
    /// string translations (``SQLQueryCompiler/byteOrderCollation``); read at open.
    let byteOrderCollation: String?

    /// Connects to the database `url` names and opens (or creates) the store in its schema.
    /// - Throws: ``StoreError/cannotOpen(path:reason:)`` when the URL cannot be read or the
    ///   server cannot be reached, or the schema holds no store and may not create one;
    ///   ``StoreError/incompatibleModel(path:compatibility:)`` for a store of another model.
    init(url: URL, schema: ModelSchema, configuration: String?, options: StoreOptions) throws {
        let address: PostgresURL
        do {
            address = try PostgresURL(url)
        } catch {
            throw StoreError.cannotOpen(
                path: PostgresURL.redacted(url.absoluteString), reason: "\(error)")
        }
        path = address.description
        schemaName = address.schema ?? Self.defaultSchema
        publishing = PostgresPublishing(schema: schemaName)
        self.schema = schema
        do {
            layout = try StoreLayout(
                model: schema.model,
                frameworkVersion: options.frameworkVersion ?? StoreMetadata.defaultFrameworkVersion)
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "the model has no layout: \(error)")
        }
        var layouts: [EntityLayout] = []
        var byNumber: [Int: Int] = [:]
        for entity in schema.entities {
            guard let entityLayout = layout.entity(named: entity.name) else {
                throw StoreError.cannotOpen(
                    path: path, reason: "the layout has no entity \(entity.name)")
            }
            layouts.append(entityLayout)
            byNumber[entityLayout.entityNumber] = entity.index
        }
        entityLayouts = layouts
        schemaIndexByNumber = byNumber
        let ddl = PostgresSchemaDDL(layout: layout, schema: schema)
        var constraints: [String: PostgresSchemaDDL.UniqueConstraint] = [:]
        for constraint in ddl.uniqueConstraints { constraints[constraint.name] = constraint }
        uniqueConstraints = constraints
        pinsConnection = false
        sqlLog = options.sqlLog()
        let pool = PostgresConnectionPool.pool(
            for: address, schema: schemaName, isReadOnly: options.isReadOnly)
        self.pool = pool
        let opening: PostgresConnection
        do {
            opening = try pool.acquire()
        } catch {
            pool.leave()
            throw StoreError.cannotOpen(path: path, reason: "\(error)")
        }
        opening.statementObserver = Self.statementObserver(sqlLog)
        do {
            let collation = Self.byteOrderCollation(opening)
            byteOrderCollation = collation
            let metadata = try Self.openSchema(
                opening, ddl: ddl, byteOrderCollation: collation, name: schemaName, path: path,
                options: options)
            description = StoreDescription(
                type: .postgres, url: address.redactedURL, configurationName: configuration,
                isReadOnly: options.isReadOnly, metadata: metadata)
        } catch {
            pool.release(opening)
            pool.leave()
            throw error
        }
        pool.release(opening)
        // The store is whole now: should this throw, `deinit` leaves the pool.
        if options.tracksHistory, !options.isReadOnly { try prepareHistoryTables() }
    }

    /// A copy of `store` sharing its pool, identity and caches as they are now, with a
    /// connection state of its own: a query generation's read-only copy reading through
    /// `connection`, which stays pinned to it (`connection` holds the snapshot's
    /// transaction), or, with `connection` `nil`, a save writer borrowing its own connection
    /// (see `PostgresStore+ConcurrentSaving.swift`).
    init(sharing store: PostgresStore, pinning connection: PostgresConnection?) {
        var description = store.description
        if connection != nil { description.isReadOnly = true }
        self.description = description
        pool = store.pool
        pool.join()
        held = connection
        pinsConnection = connection != nil
        sqlLog = store.sqlLog
        layout = store.layout
        schema = store.schema
        path = store.path
        schemaName = store.schemaName
        entityLayouts = store.entityLayouts
        schemaIndexByNumber = store.schemaIndexByNumber
        uniqueConstraints = store.uniqueConstraints
        publishing = store.publishing
        byteOrderCollation = store.byteOrderCollation
        readPlans = store.readPlans
        idSpaces = store.idSpaces
        writePlans = store.writePlans
    }

    deinit {
        if let held { pool.release(held) }
        pool.leave()
    }

    /// Reads the store's metadata in schema `name` (the pool's connections point there),
    /// creating the schema, tables and metadata first when the schema holds no store (under an
    /// advisory lock, so that processes opening a new store at once create it once), with
    /// the string indexes `byteOrderCollation` allows (see ``PostgresSchemaDDL``).
    private static func openSchema(
        _ connection: PostgresConnection, ddl: PostgresSchemaDDL, byteOrderCollation: String?,
        name: String, path: String, options: StoreOptions
    ) throws -> StoreMetadata {
        do {
            return try connection.transaction { () throws -> StoreMetadata in
                try connection.execute(
                    "SELECT pg_advisory_xact_lock(hashtext($1::text))",
                    [.text("objectgraph store " + name)])
                let found = try connection.execute(
                    "SELECT to_regclass($1::text) IS NOT NULL",
                    [.text(PostgresIdentifier.qualified(name, "Z_METADATA"))])
                if try found.rows.first?.bool(0) == true {
                    return try readCompatibleMetadata(connection, schema: ddl.schema, path: path)
                }
                guard !options.isReadOnly, options.createIfMissing else {
                    throw StoreError.cannotOpen(
                        path: path, reason: "schema \(name) holds no ObjectGraph store")
                }
                return try createSchema(
                    connection, ddl: ddl, byteOrderCollation: byteOrderCollation, name: name,
                    path: path, frameworkVersion: options.frameworkVersion)
            }
        } catch let error as PostgresError {
            throw StoreError.cannotOpen(path: path, reason: error.description)
        }
    }

    /// Creates schema `name`, the layout's tables and indexes, `Z_PRIMARYKEY`'s rows and the
    /// metadata (inside the caller's transaction).
    private static func createSchema(
        _ connection: PostgresConnection, ddl: PostgresSchemaDDL, byteOrderCollation: String?,
        name: String, path: String, frameworkVersion: Int?
    ) throws -> StoreMetadata {
        try connection.run("CREATE SCHEMA IF NOT EXISTS \(PostgresIdentifier.quoted(name))")
        for statement in ddl.createStatements(byteOrderCollation: byteOrderCollation) {
            try connection.run(statement)
        }
        for entity in ddl.layout.entities {
            try connection.execute(
                "INSERT INTO \"Z_PRIMARYKEY\" (\"Z_ENT\", \"Z_NAME\", \"Z_SUPER\", \"Z_MAX\")"
                    + " VALUES ($1, $2, $3, 0)",
                [
                    .integer(Int64(entity.entityNumber)), .text(entity.name),
                    .integer(Int64(entity.superNumber)),
                ])
        }
        var metadata = StoreMetadata(
            model: ddl.schema.model,
            frameworkVersion: frameworkVersion ?? StoreMetadata.defaultFrameworkVersion)
        metadata.storeType = StoreType.postgres.rawValue
        let plist: Data
        do {
            plist = try metadata.propertyListData()
        } catch {
            throw StoreError.corruptMetadata(path: path, reason: "\(error)")
        }
        try connection.execute(
            "INSERT INTO \"Z_METADATA\" (\"Z_VERSION\", \"Z_UUID\", \"Z_PLIST\") VALUES (1, $1, $2)",
            [.text(metadata.storeUUID), .bytes(plist)])
        return metadata
    }

    /// The store's metadata, checked against the model.
    static func readCompatibleMetadata(
        _ connection: PostgresConnection, schema: ModelSchema, path: String
    ) throws -> StoreMetadata {
        let result = try connection.execute(
            "SELECT \"Z_UUID\", \"Z_PLIST\" FROM \"Z_METADATA\" ORDER BY \"Z_VERSION\" LIMIT 1")
        guard let row = result.rows.first, let plist = try row.bytes(1) else {
            throw StoreError.corruptMetadata(path: path, reason: "Z_METADATA has no property list")
        }
        let metadata: StoreMetadata
        do {
            metadata = try StoreMetadata(storeUUID: row.string(0) ?? "", propertyList: plist)
        } catch {
            throw StoreError.corruptMetadata(path: path, reason: "\(error)")
        }
        let check = metadata.compatibility(with: schema.model)
        guard check.isCompatible else {
            throw StoreError.incompatibleModel(path: path, compatibility: check)
        }
        return metadata
    }

    /// Runs `body`, turning PostgreSQL errors into store errors naming the store's URL: a
    /// uniqueness constraint's violation into ``StoreError/uniqueConstraint(path:entity:properties:)``.
    /// The connection is borrowed from the pool for `body` (see ``withConnection(_:)``).
    func postgres<T>(_ body: () throws -> T) throws -> T {
        do {
            return try withConnection { _ in try body() }
        } catch let error as PostgresError {
            if error.isUniqueViolation, let name = error.constraint,
                let constraint = uniqueConstraints[name]
            {
                throw StoreError.uniqueConstraint(
                    path: path, entity: constraint.entity, properties: constraint.properties)
            }
            if error.sqlState?.hasPrefix("23") == true {
                throw StoreError.constraintConflict(path: path, message: error.description)
            }
            throw StoreError.postgres(url: path, message: error.description)
        }
    }

    // MARK: - Keys

    /// Reserves `count` keys in one statement: `Z_PRIMARYKEY`'s row stays locked by it until
    /// the statement (or the save around it) commits, so writers never get the same key.
    func newPrimaryKeys(rootEntity: Int, count: Int) throws -> Range<Int64> {
        guard count > 0 else { return 0..<0 }
        if description.isReadOnly { throw StoreError.readOnly(path: path) }
        let number = entityLayouts[rootEntity].entityNumber
        return try postgres {
            let result = try connection.execute(
                "UPDATE \"Z_PRIMARYKEY\" SET \"Z_MAX\" = \"Z_MAX\" + $1 WHERE \"Z_ENT\" = $2"
                    + " RETURNING \"Z_MAX\"",
                [.integer(Int64(count)), .integer(Int64(number))])
            guard let last = try result.rows.first?.int64(0) else {
                throw StoreError.corruptMetadata(
                    path: path, reason: "Z_PRIMARYKEY has no row for entity \(number)")
            }
            return last - Int64(count) + 1..<last + 1
        }
    }

    // MARK: - Capabilities

    /// Uniqueness is checked by the coordinator before a save; the deferred unique
    /// constraints catch what another writer saved meanwhile.
    var enforcesUniqueness: Bool { false }

}
