import CSQLite
import Foundation

/// A connection to an SQLite database: a file, a temporary file deleted on close, or memory.
///
/// ```swift
/// let db = try Database(path: "/tmp/app.sqlite")
/// try db.execute(sql: """
///     CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER);
///     CREATE INDEX player_name ON player (name);
///     """)
/// try db.inTransaction(.immediate) { db in
///     try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Ann", 10])
/// }
/// let best = try db.fetchOne(sql: "SELECT name FROM player ORDER BY score DESC LIMIT 1")
/// try db.close()
/// ```
///
/// A `Database` is not `Sendable`: use it from one isolation domain at a time. To share one
/// connection between threads or tasks, use ``DatabaseQueue``.
///
/// Values always reach SQLite as bound arguments (``StatementArguments``); names that must go
/// into SQL text go through ``quoteIdentifier(_:)``.
public final class Database {
    /// The owner of the C handle, shared with statements.
    let connection: Connection

    /// The file path, or `":memory:"` for an in-memory database.
    public let path: String

    /// Whether the file is deleted when the database closes (see ``temporary(options:)``).
    public let deletesFileOnClose: Bool

    /// Prepared statements by SQL (see ``cachedStatement(sql:)``).
    var statementCache: [String: Statement] = [:]

    /// The busy timeout in seconds (see ``setBusyTimeout(_:)``).
    public private(set) var busyTimeout: Double = 0

    /// The private copy read instead of the file, when ``OpenMode/readOnlyUntouched`` had to
    /// make one; removed on close.
    private let privateCopy: PrivateCopy?

    /// The private folder the database was copied into to be read untouched, if it was.
    var privateCopyFolder: URL? { privateCopy?.folder }

    /// Whether every write is refused whatever the file's permissions (a read-only mode).
    private let refusesWrites: Bool

    /// Opens (or creates) the database file at `path`.
    ///
    /// ```swift
    /// let db = try Database(path: path, mode: .readOnly)
    /// ```
    ///
    /// With ``OpenMode/readOnlyUntouched`` nothing in the file's folder changes (see
    /// `UntouchedOpening` for the whole table): a file without a `-wal` is read in place (in
    /// WAL mode `immutable`, so no `-wal` or `-shm` is created); a file with a `-wal` and a
    /// `-shm` is read in place with the `-shm` opened read-only (a stale or zeroed `-shm` is
    /// not rewritten: the `-wal` is then read on its own); a file whose `-wal` holds rows but
    /// has no `-shm`, or that has a hot `-journal`, is copied with it to a private folder of
    /// the temporary directory, read there, and the copy is removed on close. A file read in
    /// place without SQLite's locks is assumed not to be written while it is open.
    ///
    /// - Parameters:
    ///   - path: the file path; `":memory:"` opens a new in-memory database.
    ///   - mode: read-write-create (the default), read-write, read-only, or read-only
    ///     leaving the folder untouched.
    ///   - options: busy timeout, journal mode and foreign keys. A read-only mode takes no
    ///     journal mode (setting one writes the file).
    /// - Throws: ``DatabaseError`` (`.cannotOpen`, `.notADatabase`...) naming the path;
    ///   `.cannotOpen` when the path is a folder, FIFO, device or socket; `.misuse` for a
    ///   journal mode with a read-only mode.
    public convenience init(
        path: String, mode: OpenMode = .readWriteCreate, options: Options = Options()
    ) throws {
        if mode.isReadOnly, let journalMode = options.journalMode {
            throw DatabaseError.misuse(
                "a read-only connection cannot set the journal mode (\(journalMode)) of \(path)")
        }
        let inMemory = path.isEmpty || path == ":memory:"
        if !inMemory { try FileTypeCheck.refuseNonRegularFile(atPath: path) }
        if mode == .readOnlyUntouched, !inMemory {
            let (connection, copy) = try UntouchedOpening.open(path: path)
            try self.init(
                connection: connection, path: path, options: options, deletesFileOnClose: false,
                privateCopy: copy, refusesWrites: true)
        } else {
            try self.init(
                path: path, flags: mode.flags, options: options, deletesFileOnClose: false)
        }
    }

    /// Opens (or creates) the database file at a file URL.
    public convenience init(
        url: URL, mode: OpenMode = .readWriteCreate, options: Options = Options()
    ) throws {
        try self.init(path: url.path, mode: mode, options: options)
    }

    /// Creates a database in a new file of the temporary directory, deleted (with its
    /// journal and WAL files) when the database closes or is released.
    ///
    /// ```swift
    /// let scratch = try Database.temporary()
    /// print(scratch.path)  // /tmp/SQLiteDatabase-6F1C....sqlite
    /// ```
    public static func temporary(options: Options = Options()) throws -> Database {
        let name = "SQLiteDatabase-\(UUID().uuidString).sqlite"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
        return try Database(
            path: path, flags: OpenMode.readWriteCreate.flags, options: options,
            deletesFileOnClose: true)
    }

    /// Creates a private in-memory database, gone when it closes.
    public static func inMemory(options: Options = Options()) throws -> Database {
        try Database(path: ":memory:", options: options)
    }

    convenience init(path: String, flags: Int32, options: Options, deletesFileOnClose: Bool)
        throws
    {
        try self.init(
            connection: Self.openConnection(path, flags: flags, path: path), path: path,
            options: options, deletesFileOnClose: deletesFileOnClose, privateCopy: nil,
            refusesWrites: flags & SQLITE_OPEN_READONLY != 0)
    }

    private init(
        connection: Connection, path: String, options: Options, deletesFileOnClose: Bool,
        privateCopy: PrivateCopy?, refusesWrites: Bool
    ) throws {
        self.connection = connection
        self.path = path
        self.deletesFileOnClose = deletesFileOnClose
        self.privateCopy = privateCopy
        self.refusesWrites = refusesWrites
        do {
            try apply(options)
        } catch {
            try? close()
            throw error
        }
    }

    /// Opens a connection to `target` (a path, or a `file:` URI with `SQLITE_OPEN_URI`);
    /// errors name `path`.
    static func openConnection(_ target: String, flags: Int32, path: String) throws -> Connection {
        var handle: OpaquePointer?
        // NOMUTEX: a Database is never used by two threads at once (it is not Sendable, and
        // DatabaseQueue serializes access), so SQLite's own connection mutex is not needed.
        let code = sqlite3_open_v2(target, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard let handle else {
            throw DatabaseError(
                resultCode: .noMemory, message: "cannot allocate a connection for \(path)")
        }
        let connection = Connection(handle: handle)
        guard code == SQLITE_OK else {
            let error = connection.error(code: code, sql: nil)
            _ = connection.close()
            throw DatabaseError(
                resultCode: error.extendedResultCode, message: "\(error.message): \(path)")
        }
        sqlite3_extended_result_codes(handle, 1)
        return connection
    }

    deinit {
        try? close()
    }

    private func apply(_ options: Options) throws {
        if let sqlLog = options.sqlLog {
            try setSQLLog(sqlLog)
        }
        if options.busyTimeout > 0 {
            try setBusyTimeout(options.busyTimeout)
        }
        if options.foreignKeys {
            try execute(sql: "PRAGMA foreign_keys = ON")
        }
        if let journalMode = options.journalMode {
            try setJournalMode(journalMode)
        }
    }

    // MARK: - Closing

    /// Whether the database is open.
    public var isOpen: Bool {
        connection.handle != nil
    }

    /// Closes the database: finalizes cached statements, closes the connection, and deletes
    /// the file of a temporary database. Closing twice does nothing. Afterwards every use
    /// throws `.misuse`; statements still alive are finalized when released.
    ///
    /// - Throws: ``DatabaseError`` when SQLite reports a failure closing the connection.
    public func close() throws {
        guard connection.handle != nil else { return }
        statementCache = [:]
        let code = connection.close()
        privateCopy?.remove()
        if deletesFileOnClose {
            for suffix in ["", "-journal", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
        }
        guard code == SQLITE_OK else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: "cannot close \(path)")
        }
    }

    // MARK: - State

    /// Whether the connection refuses writes (opened read-only, or the file is read-only).
    public var isReadOnly: Bool {
        guard let handle = connection.handle else { return false }
        return refusesWrites || sqlite3_db_readonly(handle, "main") == 1
    }

    /// Whether a transaction is open (the connection is not in autocommit mode).
    public var isInsideTransaction: Bool {
        guard let handle = connection.handle else { return false }
        return sqlite3_get_autocommit(handle) == 0
    }

    /// The row ID of the last row inserted by this connection (0 when none).
    public var lastInsertRowID: Int64 {
        guard let handle = connection.handle else { return 0 }
        return sqlite3_last_insert_rowid(handle)
    }

    /// The number of rows changed by the last `INSERT`, `UPDATE` or `DELETE`.
    public var changes: Int {
        guard let handle = connection.handle else { return 0 }
        return Int(sqlite3_changes64(handle))
    }

    /// The number of rows changed since the connection opened.
    public var totalChanges: Int {
        guard let handle = connection.handle else { return 0 }
        return Int(sqlite3_total_changes64(handle))
    }

    /// Sets how long, in seconds, a statement waits for another connection's lock before
    /// failing with `.busy` (0 fails at once).
    public func setBusyTimeout(_ seconds: Double) throws {
        let handle = try connection.openHandle()
        let milliseconds = (seconds * 1000).rounded()
        let clamped = Int32(max(0, min(Double(Int32.max), milliseconds.isNaN ? 0 : milliseconds)))
        let code = sqlite3_busy_timeout(handle, clamped)
        guard code == SQLITE_OK else { throw connection.error(code: code, sql: nil) }
        busyTimeout = Double(clamped) / 1000
    }
}

@available(*, unavailable, message: "Use DatabaseQueue to share a database between threads")
extension Database: Sendable {}
