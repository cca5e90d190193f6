import CSQLite

/// Holds the closure given to `Database.trace(_:)`. The database keeps it alive as long as it
/// is registered; SQLite only borrows it.
final class TraceObserver {
    let observe: (String) -> Void

    init(_ observe: @escaping (String) -> Void) {
        self.observe = observe
    }
}

extension Database {
    /// Whether the main database has a table named `name` (compared case-insensitively, as
    /// SQLite compares names).
    ///
    /// ```swift
    /// if try !db.tableExists("player") {
    ///     try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
    /// }
    /// ```
    public func tableExists(_ name: String) throws -> Bool {
        try fetchValue(
            Bool.self,
            sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' "
                + "AND name = ? COLLATE NOCASE)",
            arguments: [name]) ?? false
    }

    /// The column names of a table or view of the main database, in order; empty when there
    /// is no such table.
    public func columnNames(inTable name: String) throws -> [String] {
        try fetchAll(sql: "SELECT name FROM pragma_table_info(?) ORDER BY cid", arguments: [name])
            .map { try $0.decode(String.self, at: 0) }
    }

    /// Registers `observer` to be called with the SQL text of every statement as it starts
    /// running (not the values bound to it), or removes the observer when given nil. Handy to
    /// log SQL, or to count the queries an operation makes:
    ///
    /// ```swift
    /// var queries = 0
    /// try db.trace { sql in if sql.hasPrefix("SELECT") { queries += 1 } }
    /// ```
    ///
    /// Statements this module runs itself (`BEGIN`, `COMMIT`, `SAVEPOINT`, `PRAGMA`) are
    /// reported too. Statements run by triggers are not reported separately.
    public func trace(_ observer: ((String) -> Void)?) throws {
        let handle = try connection.openHandle()
        guard let observer else {
            sqlite3_trace_v2(handle, 0, nil, nil)
            traceObserver = nil
            return
        }
        let box = TraceObserver(observer)
        let code = sqlite3_trace_v2(
            handle, UInt32(SQLITE_TRACE_STMT),
            { _, context, statement, text in
                guard let context, let statement else { return 0 }
                // For a trigger's program, SQLite passes a "-- trigger name" comment instead
                // of the statement's text: the statement itself was reported already.
                if let text = text?.assumingMemoryBound(to: CChar.self), text[0] == 0x2D,
                    text[1] == 0x2D
                {
                    return 0
                }
                let box = Unmanaged<TraceObserver>.fromOpaque(context).takeUnretainedValue()
                if let sql = sqlite3_sql(OpaquePointer(statement)) {
                    box.observe(String(cString: sql))
                }
                return 0
            },
            Unmanaged.passUnretained(box).toOpaque())
        guard code == SQLITE_OK else {
            throw connection.error(code: code, sql: nil)
        }
        // Replacing the property releases any previous observer, which SQLite no longer uses.
        traceObserver = box
    }
}
