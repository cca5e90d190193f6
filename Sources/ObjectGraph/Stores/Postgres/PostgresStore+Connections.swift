import Foundation
import PostgresClient
import SQLiteDatabase

/// Borrowing connections: a store holds a connection of its pool only while it works (an
/// operation, a transaction), so that the coordinators of a process share a few connections
/// and a coordinator's store on another thread never waits for this one's socket.
extension PostgresStore {
    /// The connection of the operation under way: the one the store holds, else one borrowed
    /// from the pool now, held until the outermost ``withConnection(_:)`` ends (or, when a
    /// transaction is open on it then, until one ends with none open). Use it inside
    /// ``withConnection(_:)`` or ``postgres(_:)``.
    /// - Throws: ``PostgresError`` when no connection can be had (see
    ///   ``PostgresConnectionPool/acquire()``).
    var connection: PostgresConnection {
        get throws(PostgresError) {
            if let held { return held }
            let lent = try pool.acquire()
            lent.statementObserver = Self.statementObserver(sqlLog)
            held = lent
            return lent
        }
    }

    /// Runs `body` with the store's connection (borrowed when the store holds none), and gives
    /// the connection back when the outermost call ends without a transaction open on it. A
    /// query generation keeps its connection.
    ///
    /// ```swift
    /// let count = try withConnection { try $0.execute("SELECT count(*) FROM \"ZPERSON\"") }
    /// ```
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let current = try connection
        holdDepth += 1
        defer {
            holdDepth -= 1
            if holdDepth == 0 { releaseIdleConnection() }
        }
        return try body(current)
    }

    /// Gives the held connection back to the pool unless it is pinned or inside a
    /// transaction.
    private func releaseIdleConnection() {
        guard !pinsConnection, let current = held, !current.isInsideTransaction else { return }
        held = nil
        pool.release(current)
    }

    /// The observer sending each statement to `log` (Core Data's SQL debug output, in the SQL
    /// log's form); `nil` without a log.
    static func statementObserver(_ log: SQLLog?) -> ((PostgresStatementRecord) -> Void)? {
        guard let log else { return nil }
        return { record in
            let counts = log.level >= .rowCounts
            log.handler(
                SQLLogEntry(
                    sql: record.sql, duration: record.duration, level: log.level,
                    rowsReturned: counts ? record.rowsReturned : nil,
                    rowsChanged: counts ? record.rowsChanged : nil,
                    arguments: log.level >= .boundValues
                        ? record.arguments.map(Self.loggedValue) : nil))
        }
    }

    /// A bound value as the SQL log shows it.
    private static func loggedValue(_ value: PostgresValue) -> DatabaseValue {
        switch value {
        case .null: return .null
        case .bool(let flag): return .integer(flag ? 1 : 0)
        case .integer(let number): return .integer(number)
        case .double(let number): return .real(number)
        case .numeric(let text), .text(let text): return .text(text)
        case .bytes(let data): return .blob(data)
        case .uuid(let uuid): return .text(uuid.uuidString)
        }
    }
}
