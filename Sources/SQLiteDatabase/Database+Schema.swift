import CSQLite

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
    /// reported too. Statements run by triggers are not reported separately. The observer and
    /// a ``SQLLog`` (``setSQLLog(_:)``) work side by side.
    public func trace(_ observer: ((String) -> Void)?) throws {
        try updateTraceHub { $0.observer = observer }
    }
}
