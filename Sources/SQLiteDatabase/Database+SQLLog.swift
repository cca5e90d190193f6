import CSQLite

extension Database {
    /// The log of the statements this connection runs, or nil (see ``setSQLLog(_:)``).
    public var sqlLog: SQLLog? {
        connection.traceHub?.log
    }

    /// Logs every statement the connection runs from now on to `log`'s handler, or stops
    /// logging when given nil. The log can also be set when opening, with
    /// ``Options/sqlLog``.
    ///
    /// ```swift
    /// try db.setSQLLog(SQLLog(level: .rowCounts))
    /// _ = try db.fetchAll(sql: "SELECT name FROM player")
    /// // sql: SELECT name FROM player
    /// // annotation: fetch returned 3 rows
    /// // time: 0.0001s
    /// ```
    ///
    /// Without a log (and without a ``trace(_:)`` observer) running a statement costs nothing
    /// more than it did. At ``SQLLog/Level-swift.enum/boundValues`` the values of statements
    /// prepared before the log was set are shown only for cached statements.
    public func setSQLLog(_ log: SQLLog?) throws {
        try updateTraceHub { $0.log = log }
    }

    /// Applies `change` to the connection's trace hub (made when missing, with the cached
    /// statements registered), then registers SQLite's callback for what it now holds, or
    /// drops the hub when it holds nothing.
    func updateTraceHub(_ change: (TraceHub) -> Void) throws {
        let handle = try connection.openHandle()
        let hub: TraceHub
        if let existing = connection.traceHub {
            hub = existing
        } else {
            hub = TraceHub()
            for statement in statementCache.values { hub.register(statement) }
        }
        change(hub)
        let code = hub.install(on: handle)
        guard code == SQLITE_OK else { throw connection.error(code: code, sql: nil) }
        connection.traceHub = hub.isEmpty ? nil : hub
    }
}
