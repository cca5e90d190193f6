import CSQLite

extension Database {
    /// How a database file is opened.
    public enum OpenMode: Sendable, Hashable {
        /// Read and write; create the file when it does not exist (the default).
        case readWriteCreate
        /// Read and write an existing file; fail with `.cannotOpen` when it is missing.
        case readWrite
        /// Read only: every write fails with `.readOnly`. The connection takes part in
        /// SQLite's locking, so it sees what other connections commit; to do that on a
        /// database in WAL mode SQLite creates the `-wal` and `-shm` files beside it when they
        /// are missing (and leaves them). Use ``readOnlyUntouched`` to change nothing.
        case readOnly
        /// Read only, and nothing in the file's folder changes: no file is created, and the
        /// file, its `-wal`, `-shm` and `-journal` keep their bytes. Every committed row is
        /// read, the `-wal`'s included. Meant for reading a file as it is (a store copied off a
        /// device, a folder without write permission): see ``Database/init(path:mode:options:)``
        /// for how it is read and the one case it copies the file first.
        case readOnlyUntouched

        /// Whether every write through the connection fails.
        var isReadOnly: Bool {
            self == .readOnly || self == .readOnlyUntouched
        }

        var flags: Int32 {
            switch self {
            case .readWriteCreate: return SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            case .readWrite: return SQLITE_OPEN_READWRITE
            case .readOnly, .readOnlyUntouched: return SQLITE_OPEN_READONLY
            }
        }
    }

    /// Settings applied when a database is opened.
    ///
    /// ```swift
    /// var options = Database.Options()
    /// options.busyTimeout = 5  // seconds
    /// options.journalMode = .wal
    /// options.foreignKeys = true
    /// let db = try Database(path: path, options: options)
    /// ```
    public struct Options: Sendable, Hashable {
        /// How long, in seconds, a statement waits for another connection's lock before
        /// failing with `.busy`. 0 (the default) fails at once.
        public var busyTimeout: Double

        /// The journal mode to set, or nil (the default) to keep the file's own.
        public var journalMode: JournalMode?

        /// Whether foreign key constraints are enforced (SQLite's default is off).
        public var foreignKeys: Bool

        /// The log of every statement the connection runs, from the ones that apply these
        /// options on; nil (the default) for none. See ``SQLLog``.
        public var sqlLog: SQLLog?

        /// Creates options.
        public init(
            busyTimeout: Double = 0, journalMode: JournalMode? = nil, foreignKeys: Bool = false,
            sqlLog: SQLLog? = nil
        ) {
            self.busyTimeout = busyTimeout
            self.journalMode = journalMode
            self.foreignKeys = foreignKeys
            self.sqlLog = sqlLog
        }
    }

    /// A journal mode (`PRAGMA journal_mode`).
    public enum JournalMode: String, Sendable, Hashable, CaseIterable {
        /// The rollback journal is deleted at the end of each transaction (SQLite's default).
        case delete
        /// The rollback journal is truncated to zero length.
        case truncate
        /// The rollback journal's header is zeroed.
        case persist
        /// The rollback journal is kept in memory (the only mode of in-memory databases).
        case memory
        /// Write-ahead logging: readers do not block the writer, nor the writer readers.
        case wal
        /// No rollback journal: a crash can corrupt the file.
        case off

        /// The `PRAGMA` that sets this mode (a fixed text: no value is interpolated).
        var pragma: String {
            switch self {
            case .delete: return "PRAGMA journal_mode = DELETE"
            case .truncate: return "PRAGMA journal_mode = TRUNCATE"
            case .persist: return "PRAGMA journal_mode = PERSIST"
            case .memory: return "PRAGMA journal_mode = MEMORY"
            case .wal: return "PRAGMA journal_mode = WAL"
            case .off: return "PRAGMA journal_mode = OFF"
            }
        }
    }

    /// The kind of a transaction: when it takes the write lock.
    public enum TransactionKind: Sendable, Hashable {
        /// Locks are taken on first read or write (SQLite's default).
        case deferred
        /// The write lock is taken at once: other writers wait or fail with `.busy`.
        case immediate
        /// Like `immediate`; in rollback-journal modes, readers are locked out too.
        case exclusive

        var beginSQL: String {
            switch self {
            case .deferred: return "BEGIN DEFERRED TRANSACTION"
            case .immediate: return "BEGIN IMMEDIATE TRANSACTION"
            case .exclusive: return "BEGIN EXCLUSIVE TRANSACTION"
            }
        }
    }
}
