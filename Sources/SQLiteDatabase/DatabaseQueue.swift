import Dispatch
import Foundation

/// One database connection shared by many threads and tasks, which take turns on a serial
/// queue.
///
/// ```swift
/// let queue = try DatabaseQueue(path: path, options: .init(busyTimeout: 5, journalMode: .wal))
/// try queue.write { db in
///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Ann"])
/// }
/// let count = try queue.read { db in
///     try db.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM player") ?? 0
/// }
/// // From async code, without blocking a cooperative thread:
/// let names = try await queue.asyncRead { db in
///     try db.fetchAll(sql: "SELECT name FROM player").map { try $0.decode(String.self, at: 0) }
/// }
/// ```
///
/// The closures receive the ``Database``: use it only inside the closure — do not store it or
/// return it. The synchronous methods block the calling thread until the work is done; the
/// `async` ones (named `asyncRead`, `asyncWrite`...) suspend instead. None of them may be
/// called from inside another closure of the same queue (that would deadlock): such a call
/// throws `.misuse` instead.
public final class DatabaseQueue: @unchecked Sendable {
    // @unchecked Sendable: the only mutable, non-Sendable state is `database`, and it is only
    // touched by work running on `queue`, a serial DispatchQueue (every method below reaches
    // it through `perform` or `schedule`). The other stored properties are immutable and
    // Sendable.

    /// The connection; only used on `queue`.
    private let database: Database

    /// The serial queue that runs every access to `database`.
    private let queue: DispatchQueue

    /// Marks `queue` so that reentrant calls can be detected.
    private let queueKey = DispatchSpecificKey<Bool>()

    /// The file path, or `":memory:"`.
    public let path: String

    /// Opens (or creates) the database file at `path`; see ``Database/init(path:mode:options:)``.
    public convenience init(
        path: String, mode: Database.OpenMode = .readWriteCreate,
        options: Database.Options = Database.Options()
    ) throws {
        self.init(database: try Database(path: path, mode: mode, options: options))
    }

    /// Opens (or creates) the database file at a file URL.
    public convenience init(
        url: URL, mode: Database.OpenMode = .readWriteCreate,
        options: Database.Options = Database.Options()
    ) throws {
        self.init(database: try Database(url: url, mode: mode, options: options))
    }

    /// A queue on a new temporary database file, deleted when the queue closes or is released.
    public static func temporary(options: Database.Options = Database.Options()) throws
        -> DatabaseQueue
    {
        DatabaseQueue(database: try Database.temporary(options: options))
    }

    /// A queue on a private in-memory database.
    public static func inMemory(options: Database.Options = Database.Options()) throws
        -> DatabaseQueue
    {
        DatabaseQueue(database: try Database.inMemory(options: options))
    }

    private init(database: Database) {
        self.database = database
        self.path = database.path
        self.queue = DispatchQueue(label: "SQLiteDatabase.DatabaseQueue")
        queue.setSpecific(key: queueKey, value: true)
    }

    // MARK: - Synchronous access

    /// Runs read-only work and returns its result. The work runs in a deferred transaction
    /// (a consistent snapshot) with writes forbidden: any write fails with `.readOnly`.
    ///
    /// - Throws: the error thrown by `body`, or a ``DatabaseError``.
    public func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T {
        try perform { try Self.read($0, body) }
    }

    /// Runs work in an immediate transaction, committed when `body` returns and rolled back
    /// when it throws, and returns its result.
    ///
    /// - Throws: the error thrown by `body`, or a ``DatabaseError`` (`.busy` when another
    ///   connection holds the write lock beyond the busy timeout).
    public func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T {
        try perform { try Self.write($0, body) }
    }

    /// Runs work outside of any transaction (for `VACUUM`, `PRAGMA journal_mode`, or work
    /// that manages its own transactions). A transaction left open by `body` is rolled back
    /// and reported as a `.misuse` error.
    public func writeWithoutTransaction<T: Sendable>(_ body: @Sendable (Database) throws -> T)
        throws -> T
    {
        try perform { try Self.writeWithoutTransaction($0, body) }
    }

    /// Closes the database (see ``Database/close()``). Later accesses throw `.misuse`.
    public func close() throws {
        try perform { try $0.close() }
    }

    // MARK: - Asynchronous access

    /// Like ``read(_:)``, suspending the task instead of blocking its thread.
    ///
    /// - Throws: `CancellationError` when the task is cancelled before the work starts
    ///   (work that has started runs to its end).
    public func asyncRead<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T)
        async throws -> T
    {
        try await schedule { try Self.read($0, body) }
    }

    /// Like ``write(_:)``, suspending the task instead of blocking its thread.
    ///
    /// - Throws: `CancellationError` when the task is cancelled before the work starts
    ///   (work that has started runs to its end, committed or rolled back as usual).
    public func asyncWrite<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T)
        async throws -> T
    {
        try await schedule { try Self.write($0, body) }
    }

    /// Like ``writeWithoutTransaction(_:)``, suspending the task instead of blocking its
    /// thread.
    public func asyncWriteWithoutTransaction<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T
    ) async throws -> T {
        try await schedule { try Self.writeWithoutTransaction($0, body) }
    }

    // MARK: - Running work on the queue

    private func perform<T>(_ work: (Database) throws -> T) throws -> T {
        guard DispatchQueue.getSpecific(key: queueKey) == nil else {
            throw DatabaseError.misuse(
                "DatabaseQueue is not reentrant: use the Database passed to the closure")
        }
        return try queue.sync { try work(database) }
    }

    private func schedule<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T)
        async throws -> T
    {
        try Task.checkCancellation()
        let cancellation = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queue.async {
                    // A task cancelled while its work waited in line gives up before starting.
                    // Work already running is not interrupted.
                    guard !cancellation.isCancelled else {
                        continuation.resume(throwing: CancellationError())
                        return
                    }
                    continuation.resume(with: Result { try work(self.database) })
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    private static func read<T>(_ db: Database, _ body: (Database) throws -> T) throws -> T {
        try db.execute(sql: "PRAGMA query_only = 1")
        defer { try? db.execute(sql: "PRAGMA query_only = 0") }
        return try db.inTransaction(.deferred, body)
    }

    private static func write<T>(_ db: Database, _ body: (Database) throws -> T) throws -> T {
        try db.inTransaction(.immediate, body)
    }

    private static func writeWithoutTransaction<T>(
        _ db: Database, _ body: (Database) throws -> T
    ) throws -> T {
        let result = try body(db)
        if db.isInsideTransaction {
            try? db.rollback()
            throw DatabaseError.misuse(
                "a transaction was left open by writeWithoutTransaction and was rolled back")
        }
        return result
    }
}

/// Set once when a task is cancelled; read by the work waiting on the queue.
private final class CancellationFlag: @unchecked Sendable {
    // @unchecked Sendable: `cancelled` is only read or written while holding `lock`.
    private let lock = NSLock()
    private var cancelled = false

    var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }
}
