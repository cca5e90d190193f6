import CSQLite

/// The owner of the `sqlite3*` handle, shared by a ``Database`` and its statements.
///
/// Statements hold the connection (not the database), so a statement that outlives its
/// database never dangles: once the database is closed, the handle is nil and every use
/// throws. The handle is closed with `sqlite3_close_v2`, which lets statements that are
/// still alive be finalized later.
final class Connection {
    /// The handle, nil once closed.
    private(set) var handle: OpaquePointer?

    /// The trace callback's state while a trace or SQL log is set (see ``TraceHub``); `nil`
    /// otherwise, so that statements skip it with one test.
    var traceHub: TraceHub?

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        _ = close()
    }

    /// Closes the handle (idempotent) and returns SQLite's code.
    func close() -> Int32 {
        guard let handle else { return SQLITE_OK }
        self.handle = nil
        // Statements finalized after the close (kept alive by their owners) report nothing.
        if traceHub != nil { sqlite3_trace_v2(handle, 0, nil, nil) }
        return sqlite3_close_v2(handle)
    }

    /// The open handle, or a "closed" error.
    func openHandle(sql: String? = nil) throws -> OpaquePointer {
        guard let handle else { throw DatabaseError.closed(sql: sql) }
        return handle
    }

    /// An error for a failed call returning `code`, with the connection's current message
    /// and extended code.
    func error(code: Int32, sql: String?, arguments: StatementArguments? = nil) -> DatabaseError {
        guard let handle else {
            return DatabaseError(
                resultCode: ResultCode(rawValue: code), sql: sql, arguments: arguments)
        }
        // The extended code describes the last failure; keep it when it agrees with `code`.
        let extended = sqlite3_extended_errcode(handle)
        let resultCode =
            (extended & 0xFF) == (code & 0xFF)
            ? ResultCode(rawValue: extended) : ResultCode(rawValue: code)
        let message = sqlite3_errmsg(handle).map { String(cString: $0) }
        return DatabaseError(
            resultCode: resultCode, message: message, sql: sql, arguments: arguments)
    }

    /// The one place where a failed `sqlite3_step` becomes a ``DatabaseError``: it records
    /// the code, SQLite's message, the SQL and the bound arguments, then resets the statement
    /// so that it can run again.
    func statementDidFail(_ statement: Statement, code: Int32) -> DatabaseError {
        let error = self.error(code: code, sql: statement.sql, arguments: statement.boundArguments)
        sqlite3_reset(statement.handle)
        return error
    }
}
