import CSQLite

/// The least wrapping of the sqlite3 C API the raw runner needs: a connection that runs SQL
/// text and prepares statements. Every value goes through `sqlite3_bind_*`.
final class RawDatabase {
    let handle: OpaquePointer

    /// Opens (creating) the file at `path`, with the connection settings ObjectGraph's store
    /// uses (no mutex, 10 s busy timeout).
    init(path: String) throws {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw BenchError.sqlite(code: code, message: message, sql: "open \(path)")
        }
        handle = db
        sqlite3_busy_timeout(db, 10_000)
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs SQL text without values (schema, pragmas, `BEGIN`/`COMMIT`).
    func execute(_ sql: String) throws {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code, sql) }
    }

    /// Runs `body` in one immediate transaction, rolled back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Prepares `sql` once, to be reset and re-bound for every row.
    func prepare(_ sql: String) throws -> RawStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(
            handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code, sql) }
        return RawStatement(statement, database: self, sql: sql)
    }

    func error(_ code: Int32, _ sql: String) -> BenchError {
        .sqlite(code: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
}

/// A prepared statement: bind, step, read columns, reset.
final class RawStatement {
    let handle: OpaquePointer
    let database: RawDatabase
    let sql: String

    /// `SQLITE_TRANSIENT`: SQLite copies bound text before `bind` returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ handle: OpaquePointer, database: RawDatabase, sql: String) {
        self.handle = handle
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(handle, index, value) }
    func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(handle, index, value) }
    func bind(_ index: Int32, _ value: String) {
        sqlite3_bind_text(handle, index, value, -1, Self.transient)
    }

    /// Steps once: `true` for a row, `false` when done.
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw database.error(code, sql)
    }

    /// Runs a statement that returns no rows, then resets it for the next binding.
    func run() throws {
        defer { reset() }
        _ = try step()
    }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    func string(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: text)
    }
}
