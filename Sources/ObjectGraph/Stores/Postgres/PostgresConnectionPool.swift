import Foundation
import PostgresClient

/// The connections of one process to one PostgreSQL store: shared by every ``PostgresStore``
/// open on the same URL (credentials, schema and all) and access mode, so that the
/// coordinators and contexts of a process use a bounded number of connections, each store
/// borrowing one for an operation or a transaction and giving it back after.
///
/// - At most ``limit`` connections are open at once (the URL's `pool_size`, else
///   ``defaultLimit``); a store asking for one while all are lent waits for one to come back,
///   up to ``waitLimit`` seconds, then fails naming the URL.
/// - Each new connection is pointed at the store's schema (`search_path`) and, for a read-only
///   store, made read-only, once.
/// - A connection coming back inside a transaction is rolled back; one that is broken (the
///   server ended it, the network dropped it) is closed and replaced by a new one when next
///   needed. Idle connections are checked before they are lent (``PostgresConnection/isUsable``:
///   a non-blocking read, no round trip).
///
/// ```swift
/// let pool = PostgresConnectionPool.pool(for: address, isReadOnly: false)
/// let connection = try pool.acquire()
/// defer { pool.release(connection) }
/// ```
final class PostgresConnectionPool: @unchecked Sendable {
    // `@unchecked`: the mutable state (`idle`, `open`, `users`, `isRetired`) is read and
    // written only under `condition`; a connection is used by the one store that borrowed it.

    /// What pools are shared by: the URL (its password included) and the access mode.
    struct Key: Hashable, Sendable {
        let url: PostgresURL
        let isReadOnly: Bool
    }

    /// The most connections a pool opens when the URL gives no `pool_size`.
    static let defaultLimit = 10
    /// How long, in seconds, a store waits for a connection when all are lent.
    static let waitLimit: TimeInterval = 30

    let key: Key
    /// The most connections open at once.
    let limit: Int
    /// The schema every connection reads and writes (its `search_path`).
    let schema: String

    private let condition = NSCondition()
    /// Connections not lent, the most recently returned last.
    private var idle: [PostgresConnection] = []
    /// Connections open (idle or lent) or being opened.
    private var open = 0
    /// The stores using the pool.
    private var users = 0
    /// Whether the last store left (the pool is out of the table; its connections close).
    private var isRetired = false

    private init(key: Key, schema: String) {
        self.key = key
        self.schema = schema
        limit = key.url.poolSize ?? Self.defaultLimit
    }

    // MARK: - The process's pools

    /// The pools in use, by key.
    private static let pools = Locked([Key: PostgresConnectionPool]())

    /// The pool of `url` for a store of that access mode, counting the caller as one of its
    /// users (balance with ``leave()``).
    static func pool(for url: PostgresURL, schema: String, isReadOnly: Bool)
        -> PostgresConnectionPool
    {
        let key = Key(url: url, isReadOnly: isReadOnly)
        return pools.withLock { pools in
            let pool = pools[key] ?? PostgresConnectionPool(key: key, schema: schema)
            pools[key] = pool
            pool.join()
            return pool
        }
    }

    /// Counts one more user (a query generation of a store using the pool).
    func join() {
        condition.withLock { users += 1 }
    }

    /// Counts one user less; the last one takes the pool out of the table and closes its idle
    /// connections.
    func leave() {
        let closing = Self.pools.withLock { pools -> [PostgresConnection] in
            condition.withLock {
                users -= 1
                guard users <= 0 else { return [] }
                isRetired = true
                if pools[key] === self { pools[key] = nil }
                defer { idle = [] }
                open -= idle.count
                return idle
            }
        }
        _ = closing  // closed here, outside the locks, when the array goes
    }

    // MARK: - Lending

    /// A connection to lend: an idle one that is still usable, else a new one when fewer than
    /// ``limit`` are open, else the first one returned within ``waitLimit`` seconds.
    /// - Throws: ``PostgresError`` (``PostgresError/Kind/connection``) when the server cannot
    ///   be reached or the wait ran out.
    func acquire() throws(PostgresError) -> PostgresConnection {
        let deadline = Date().addingTimeInterval(Self.waitLimit)
        condition.lock()
        while true {
            while let connection = idle.popLast() {
                if connection.isUsable {
                    condition.unlock()
                    return connection
                }
                open -= 1  // broken while idle: dropped (closed when released here)
            }
            if open < limit { break }
            if !condition.wait(until: deadline) {
                condition.unlock()
                throw PostgresError(
                    .connection,
                    "\(key.url): all \(limit) connections of the process's pool are in use"
                        + " (waited \(Int(Self.waitLimit)) s; raise pool_size= in the URL, or"
                        + " let go of query generations, which hold one each)")
            }
        }
        open += 1
        condition.unlock()
        do {
            return try connect()
        } catch {
            condition.withLock {
                open -= 1
                condition.signal()
            }
            throw error
        }
    }

    /// Takes back `connection`: rolled back when a transaction is open, closed when broken (or
    /// when the pool is retired), else kept for the next store.
    func release(_ connection: PostgresConnection) {
        connection.statementObserver = nil
        if connection.isInsideTransaction { _ = try? connection.run("ROLLBACK") }
        let keep = connection.isUsable && !connection.isInsideTransaction
        condition.withLock {
            if keep && !isRetired {
                idle.append(connection)
            } else {
                open -= 1
            }
            condition.signal()
        }
    }

    /// The number of connections open (idle or lent).
    var openCount: Int { condition.withLock { open } }

    /// A new connection, pointed at the schema (and read-only for a read-only store).
    private func connect() throws(PostgresError) -> PostgresConnection {
        let connection = try PostgresConnection(url: key.url)
        try connection.execute(
            "SELECT set_config('search_path', $1::text, false)",
            [.text(PostgresIdentifier.quoted(schema))])
        if key.isReadOnly {
            try connection.execute(
                "SELECT set_config('default_transaction_read_only', 'on', false)")
        }
        return connection
    }
}
