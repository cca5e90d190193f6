import Foundation
import SQLiteDatabase

/// A store in a SQLite file laid out exactly as Apple's Core Data lays it out: a table per
/// inheritance tree (`Z` + root name), `Z_PK`/`Z_ENT`/`Z_OPT`, `Z_PRIMARYKEY`, `Z_METADATA`,
/// join tables. Files written by Core Data on Apple devices open here, and files written here
/// follow the same rules.
///
/// Used only under its coordinator's lock (the coordinator serializes every call).
final class SQLiteStore: PersistentStore {
    let description: StoreDescription
    let database: Database
    let layout: StoreLayout
    let schema: ModelSchema
    let path: String
    /// Layout of each schema entity (by schema index).
    let entityLayouts: [EntityLayout]
    /// Schema index by `Z_ENT`.
    let schemaIndexByNumber: [Int: Int]
    /// The columns of each table, in order, and their positions by name.
    var tableColumns: [String: (names: [String], positions: [String: Int])] = [:]
    /// The `Z_ENT` of every row of each table that holds one entity only: such a table's
    /// `Z_ENT` is selected as this constant and not read per row (as Core Data's `SELECT 0,
    /// t0.Z_PK, …` for an entity without subentities).
    var soleEntityNumbers: [String: Int64] = [:]
    /// Whether every string in the file is NFC (checked at open, kept on save): then plain
    /// string sorts can use SQLite's byte order and its indexes.
    var textIsNFC = false {
        didSet {
            if textIsNFC != oldValue {
                compilerCache = nil
                compiledQueries.removeAll()
            }
        }
    }
    private var compilerCache: SQLQueryCompiler?
    /// Compiled fetches by query (`nil`: not translatable), so repeated fetches skip compiling.
    var compiledQueries: [StoreQuery: CompiledQuery?] = [:]
    /// Compiles fetches to SQL.
    var compiler: SQLQueryCompiler {
        if let compilerCache { return compilerCache }
        let made = SQLQueryCompiler(
            layout: layout, model: schema.model, storeIdentifier: description.identifier,
            textIsNFC: textIsNFC)
        compilerCache = made
        return made
    }
    /// Row decoding plans by schema entity index, made on first use.
    var plans: [Int: RowDecodingPlan] = [:]
    /// The object-ID space of each entity in this store, by entity name, made on first use.
    var idSpaces: [String: ObjectIDSpace] = [:]
    /// Row writing plans by schema entity index, made on first use.
    var writePlans: [Int: RowWritingPlan] = [:]
    /// Partial UPDATE statements by entity and changed columns.
    var updateStatements: [RowWritingPlan.UpdateKey: String] = [:]
    /// Persistent history: whether saves are recorded, and who makes the next one.
    var historyState = SQLiteHistoryState()

    /// Opens (or creates) the store at `url`.
    init(
        url: URL, schema: ModelSchema, configuration: String?, options: StoreOptions
    ) throws {
        path = url.path
        self.schema = schema
        let exists = FileManager.default.fileExists(atPath: path)
        if !exists && (options.isReadOnly || !options.createIfMissing) {
            throw StoreError.cannotOpen(path: path, reason: "no such file")
        }
        let frameworkVersion = options.frameworkVersion ?? StoreMetadata.defaultFrameworkVersion
        (layout, entityLayouts, schemaIndexByNumber) = try Self.layouts(
            of: schema, path: path, frameworkVersion: frameworkVersion)
        do {
            database = try Database(
                // Read-only: nothing beside the file may change (no -wal or -shm created, a
                // stale -shm not rewritten), and every row of a -wal is still read.
                url: url, mode: options.isReadOnly ? .readOnlyUntouched : .readWriteCreate,
                options: Database.Options(
                    busyTimeout: options.busyTimeout, sqlLog: options.sqlLog()))
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "\(error)")
        }
        let metadata: StoreMetadata
        var journalMode: Database.JournalMode?
        do {
            try SQLFunctions.register(on: database)
            if try database.tableExists("Z_METADATA") {
                metadata = try Self.readCompatibleMetadata(database, schema: schema, path: path)
            } else {
                guard !options.isReadOnly else {
                    throw StoreError.corruptMetadata(path: path, reason: "no Z_METADATA table")
                }
                let created = StoreMetadata(
                    model: schema.model, frameworkVersion: frameworkVersion)
                // `false`: another connection (another process) created it meanwhile.
                metadata =
                    try Self.createSchema(
                        database, layout: layout, metadata: created, model: schema.model,
                        path: path)
                    ? created
                    : try Self.readCompatibleMetadata(database, schema: schema, path: path)
            }
            if !options.isReadOnly {
                journalMode = try Self.enableWAL(
                    database, path: path, waitingUpTo: options.busyTimeout)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.sqlite(path: path, message: "\(error)")
        }
        description = StoreDescription(
            type: .sqlite, url: url, configurationName: configuration,
            isReadOnly: options.isReadOnly, metadata: metadata, journalMode: journalMode?.rawValue)
        textIsNFC = checkTextIsNFC()
        indexTableColumns()
        if options.tracksHistory, !options.isReadOnly { try prepareHistoryTables() }
    }

    /// A store over `database`, already open (inside a migration's transaction), holding the
    /// tables of `schema`'s layout: rows are read and written with the store's own code. Used
    /// by the row-level path of an in-place migration.
    init(migrating database: Database, url: URL, schema: ModelSchema, metadata: StoreMetadata)
        throws
    {
        path = url.path
        self.schema = schema
        self.database = database
        (layout, entityLayouts, schemaIndexByNumber) = try Self.layouts(of: schema, path: path)
        description = StoreDescription(
            type: .sqlite, url: url, configurationName: nil, isReadOnly: false,
            metadata: metadata, journalMode: nil)
        indexTableColumns()
    }

    /// The layout of `schema`'s model, each entity's layout (by schema index) and the schema
    /// index of each `Z_ENT`.
    private static func layouts(
        of schema: ModelSchema, path: String,
        frameworkVersion: Int = StoreMetadata.defaultFrameworkVersion
    ) throws -> (StoreLayout, [EntityLayout], [Int: Int]) {
        let layout: StoreLayout
        do {
            layout = try StoreLayout(model: schema.model, frameworkVersion: frameworkVersion)
        } catch {
            throw StoreError.cannotOpen(
                path: path, reason: "the model has no SQLite layout: \(error)")
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
        return (layout, layouts, byNumber)
    }

    /// Records each table's columns and positions, and the sole `Z_ENT` of one-entity tables.
    private func indexTableColumns() {
        for table in layout.tables {
            let names = table.columns.map(\.name)
            var positions: [String: Int] = [:]
            for (index, name) in names.enumerated() { positions[name] = index }
            tableColumns[table.name] = (names, positions)
            if let number = table.soleEntityNumber {
                soleEntityNumbers[table.name] = Int64(number)
            }
        }
    }

    /// A query generation of `store` (see `SQLiteStore+Generations.swift`): the same file,
    /// layout and plans, read-only, read through `database` — a connection of its own holding
    /// a read transaction open.
    init(generationOf store: SQLiteStore, reading database: Database) {
        var description = store.description
        description.isReadOnly = true
        self.description = description
        self.database = database
        layout = store.layout
        schema = store.schema
        path = store.path
        entityLayouts = store.entityLayouts
        schemaIndexByNumber = store.schemaIndexByNumber
        tableColumns = store.tableColumns
        soleEntityNumbers = store.soleEntityNumbers
        textIsNFC = store.textIsNFC
        compiledQueries = store.compiledQueries
        plans = store.plans
        idSpaces = store.idSpaces
    }

    /// Switches a writable file to WAL and returns the journal mode SQLite now uses: `.wal`, or
    /// the rollback journal it keeps when the file system has no shared memory for WAL (a
    /// deliberate fallback, recorded in ``StoreDescription/journalMode``).
    /// - Throws: ``StoreError/cannotOpen(path:reason:)`` with SQLite's message when the mode
    ///   cannot be changed (another connection holds the file in a rollback-journal
    ///   transaction past the busy timeout, say): the store would otherwise run in a mode
    ///   nobody chose.
    ///
    /// The switch can be answered `SQLITE_BUSY` while other connections opening the same new
    /// file hold it (seen with six coordinators opening one new file at once on a loaded
    /// machine), so a busy answer is tried again every few milliseconds until `timeout` (the
    /// store's busy timeout) has passed.
    private static func enableWAL(
        _ database: Database, path: String, waitingUpTo timeout: TimeInterval
    ) throws -> Database.JournalMode {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            do {
                return try database.setJournalMode(.wal)
            } catch let error as DatabaseError where error.resultCode == .busy && Date() < deadline
            {
                usleep(5_000)
            } catch {
                throw StoreError.cannotOpen(
                    path: path, reason: "cannot switch the journal to WAL: \(error)")
            }
        }
    }

    /// Whether no string in the file needs normalizing (one query per table).
    private func checkTextIsNFC() -> Bool {
        let probe = SQLQueryCompiler(layout: layout, model: schema.model, textIsNFC: false)
        for table in layout.tables {
            guard let root = layout.entities.first(where: { $0.tableName == table.name }),
                let query = try? probe.nonNFCTextCount(entity: root.name),
                let count = try? database.fetchValue(
                    Int.self, sql: query.sql, arguments: query.statementArguments),
                count == 0
            else { return false }
        }
        return true
    }

    // MARK: - Schema and metadata

    /// The file's metadata, checked against the model.
    /// - Throws: ``StoreError/incompatibleModel(path:compatibility:)`` when the model cannot
    ///   open the file.
    static func readCompatibleMetadata(_ database: Database, schema: ModelSchema, path: String)
        throws -> StoreMetadata
    {
        let metadata = try readMetadata(database, path: path)
        let check = metadata.compatibility(with: schema.model)
        guard check.isCompatible else {
            throw StoreError.incompatibleModel(path: path, compatibility: check)
        }
        return metadata
    }

    static func readMetadata(_ database: Database, path: String) throws -> StoreMetadata {
        guard
            let row = try database.fetchOne(
                sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1")
        else {
            throw StoreError.corruptMetadata(path: path, reason: "Z_METADATA has no row")
        }
        let uuid = (try? row.decode(String?.self, at: 0)) ?? nil
        let plist = (try? row.decode(Data?.self, at: 1)) ?? nil
        guard let plist else {
            throw StoreError.corruptMetadata(path: path, reason: "Z_METADATA.Z_PLIST is empty")
        }
        do {
            return try StoreMetadata(storeUUID: uuid ?? "", propertyList: plist)
        } catch {
            throw StoreError.corruptMetadata(path: path, reason: "\(error)")
        }
    }

    /// Creates the tables (Core Data's DDL for `layout`'s framework version, `Z_MODELCACHE`
    /// included) and metadata in an empty file, in one transaction; returns `false`
    /// (and changes nothing) when another connection, another process say, created them
    /// since this one looked. `Z_MODELCACHE` holds `model`.
    static func createSchema(
        _ database: Database, layout: StoreLayout, metadata: StoreMetadata, model: EntityModel,
        path: String
    ) throws -> Bool {
        try database.execute(sql: "PRAGMA auto_vacuum = 2")
        return try database.inTransaction(.immediate) { db in
            guard try !db.tableExists("Z_METADATA") else { return false }
            for statement in layout.createStatements() {
                try db.execute(sql: statement)
            }
            for entity in layout.entities {
                try db.execute(
                    sql:
                        "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                    arguments: [entity.entityNumber, entity.name, entity.superNumber])
            }
            let plist: Data
            do {
                plist = try metadata.propertyListData()
            } catch {
                throw StoreError.corruptMetadata(path: path, reason: "\(error)")
            }
            try db.execute(
                sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                arguments: [metadata.storeUUID, plist])
            try writeModelCache(db, model: model)
            return true
        }
    }

    /// Runs `body`, turning SQLite errors into store errors that name the file.
    func sqlite<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            if let (entity, properties) = uniquenessConstraint(refusing: error) {
                throw StoreError.uniqueConstraint(
                    path: path, entity: entity, properties: properties)
            }
            if error.resultCode == .constraint {
                throw StoreError.constraintConflict(path: path, message: error.description)
            }
            throw StoreError.sqlite(path: path, message: error.description)
        }
    }

    /// Runs `body` in an immediate transaction, or in a savepoint when the connection is
    /// already inside one (a migration writing rows in its own transaction).
    func writeTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        database.isInsideTransaction
            ? try database.inSavepoint(named: "objectgraph_write", body)
            : try database.inTransaction(.immediate, body)
    }

    // MARK: - Keys

    func newPrimaryKeys(rootEntity: Int, count: Int) throws -> Range<Int64> {
        guard count > 0 else { return 0..<0 }
        if description.isReadOnly { throw StoreError.readOnly(path: path) }
        let number = entityLayouts[rootEntity].entityNumber
        return try sqlite {
            let reserve = {
                try self.database.execute(
                    sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + ? WHERE Z_ENT = ?",
                    arguments: [count, number])
                return try self.database.fetchValue(
                    Int64.self, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?",
                    arguments: [number]) ?? Int64(count)
            }
            let last =
                database.isInsideTransaction
                ? try reserve() : try database.inTransaction(.immediate) { _ in try reserve() }
            return last - Int64(count) + 1..<last + 1
        }
    }
}
