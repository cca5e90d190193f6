import CSQLite

extension Database {
    // MARK: - Preparing

    /// Prepares one statement. The SQL may end with `;` and comments, but must hold exactly
    /// one statement (use ``execute(sql:arguments:)`` for several).
    ///
    /// ```swift
    /// let statement = try db.makeStatement(sql: "SELECT * FROM player WHERE id = ?")
    /// let row = try statement.fetchOne(arguments: [42])
    /// ```
    ///
    /// - Throws: ``DatabaseError`` with SQLite's message (`.error` for a syntax error or a
    ///   missing table), or `.misuse` for empty SQL or several statements.
    public func makeStatement(sql: String) throws -> Statement {
        try prepare(sql: sql, persistent: false)
    }

    /// Returns the statement for `sql` from the connection's cache, preparing and caching it
    /// the first time. The statement is reset and its bindings cleared before it is returned.
    ///
    /// If the cached statement is in the middle of a run (a cursor is still iterating it), a
    /// new, uncached statement is returned so that the run is not disturbed.
    ///
    /// ```swift
    /// for player in players {
    ///     try db.cachedStatement(sql: "INSERT INTO player (name) VALUES (?)")
    ///         .execute(arguments: [player.name])  // prepared once
    /// }
    /// ```
    public func cachedStatement(sql: String) throws -> Statement {
        if let statement = statementCache[sql] {
            guard !statement.isBusy else {
                return try makeStatement(sql: sql)
            }
            statement.reset()
            statement.clearBindings()
            return statement
        }
        let statement = try prepare(sql: sql, persistent: true)
        statementCache[sql] = statement
        return statement
    }

    /// Finalizes every cached statement.
    public func clearStatementCache() {
        statementCache = [:]
    }

    private func prepare(sql: String, persistent: Bool) throws -> Statement {
        let handle = try connection.openHandle(sql: sql)
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        return try sql.withCString { text in
            var statementHandle: OpaquePointer?
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(handle, text, -1, flags, &statementHandle, &tail)
            guard code == SQLITE_OK else {
                throw connection.error(code: code, sql: sql)
            }
            guard let statementHandle else {
                throw DatabaseError.misuse("no SQL statement to prepare", sql: sql)
            }
            let statement = Statement(connection: connection, handle: statementHandle, sql: sql)
            if let tail, try containsStatement(tail, handle: handle) {
                throw DatabaseError.misuse(
                    "several statements in one: use execute(sql:) to run them", sql: sql)
            }
            return statement
        }
    }

    /// Whether `text` holds an SQL statement (rather than nothing, spaces or comments).
    private func containsStatement(_ text: UnsafePointer<CChar>, handle: OpaquePointer) throws
        -> Bool
    {
        guard !Self.isBlank(text) else { return false }
        var statementHandle: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, text, -1, 0, &statementHandle, nil)
        sqlite3_finalize(statementHandle)
        // A syntax error in the rest still means there is something that is not blank.
        return code != SQLITE_OK || statementHandle != nil
    }

    /// Whether a C string holds only whitespace and semicolons.
    private static func isBlank(_ text: UnsafePointer<CChar>) -> Bool {
        var pointer = text
        while pointer.pointee != 0 {
            switch UInt8(bitPattern: pointer.pointee) {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0C, 0x3B: pointer += 1
            default: return false
            }
        }
        return true
    }

    // MARK: - Executing

    /// Runs one or several statements separated by `;`, ignoring any rows.
    ///
    /// Positional arguments are consumed in order by the statements that have positional
    /// parameters; named arguments are available to every statement. A single statement is
    /// taken from (and kept in) the statement cache.
    ///
    /// ```swift
    /// try db.execute(sql: """
    ///     CREATE TABLE t (a, b);
    ///     INSERT INTO t VALUES (?, ?);
    ///     INSERT INTO t VALUES (:x, :x);
    ///     """, arguments: StatementArguments(positional: [.integer(1), .integer(2)],
    ///                                        named: ["x": .text("x")]))
    /// ```
    ///
    /// - Throws: ``DatabaseError`` for the first statement that fails (earlier ones have run:
    ///   wrap the call in ``inTransaction(_:_:)`` to make it all or nothing), or `.misuse` when
    ///   the number of positional arguments does not match.
    public func execute(sql: String, arguments: StatementArguments = []) throws {
        if let statement = statementCache[sql], !statement.isBusy {
            try statement.execute(arguments: arguments)
            return
        }
        let handle = try connection.openHandle(sql: sql)
        var used = 0
        try sql.withCString { text in
            var remaining: UnsafePointer<CChar> = text
            var isFirst = true
            while !Self.isBlank(remaining) {
                var statementHandle: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v3(handle, remaining, -1, 0, &statementHandle, &tail)
                guard code == SQLITE_OK else {
                    throw connection.error(code: code, sql: sql, arguments: arguments)
                }
                guard let statementHandle else {
                    // Nothing but comments or empty statements: go on after them, if anything.
                    guard let tail, tail != remaining else { break }
                    remaining = tail
                    continue
                }
                let isOnlyStatement = isFirst && (tail.map(Self.isBlank) ?? true)
                let statementSQL =
                    isOnlyStatement
                    ? sql : sqlite3_sql(statementHandle).map { String(cString: $0) } ?? sql
                let statement = Statement(
                    connection: connection, handle: statementHandle, sql: statementSQL)
                used += try statement.bind(arguments, positionalOffset: used)
                try statement.runToCompletion()
                if isOnlyStatement {
                    statementCache[sql] = statement
                }
                isFirst = false
                guard let tail else { break }
                remaining = tail
            }
        }
        if used != arguments.positional.count {
            throw DatabaseError(
                resultCode: .misuse,
                message: "wrong number of statement arguments: the SQL uses \(used) positional "
                    + "value(s), got \(arguments.positional.count)",
                sql: sql, arguments: arguments)
        }
    }

    // MARK: - Fetching

    /// All rows of a query (the statement comes from the cache).
    ///
    /// ```swift
    /// let rows = try db.fetchAll(sql: "SELECT * FROM player WHERE score > ?", arguments: [10])
    /// ```
    public func fetchAll(sql: String, arguments: StatementArguments = [])
        throws -> [Row]
    {
        try cachedStatement(sql: sql).fetchAll(arguments: arguments)
    }

    /// The first row of a query, or nil (the statement comes from the cache).
    public func fetchOne(sql: String, arguments: StatementArguments = [])
        throws -> Row?
    {
        try cachedStatement(sql: sql).fetchOne(arguments: arguments)
    }

    /// The first column of the first row converted to `T`; nil when there is no row or the
    /// value is `NULL`.
    ///
    /// ```swift
    /// let count = try db.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM player") ?? 0
    /// ```
    public func fetchValue<T: DatabaseValueConvertible>(
        _ type: T.Type = T.self, sql: String, arguments: StatementArguments = []
    ) throws -> T? {
        try cachedStatement(sql: sql).fetchValue(T.self, arguments: arguments)
    }

    /// Calls `body` with each row of a query in turn, without keeping them all in memory.
    ///
    /// ```swift
    /// try db.forEachRow(sql: "SELECT name FROM player") { row in
    ///     print(try row.decode(String.self, at: 0))
    /// }
    /// ```
    public func forEachRow(
        sql: String, arguments: StatementArguments = [],
        _ body: (Row) throws -> Void
    ) throws {
        try cachedStatement(sql: sql).forEachRow(arguments: arguments, body)
    }

    /// A cursor over the rows of a query (see ``RowCursor``).
    public func makeCursor(sql: String, arguments: StatementArguments = [])
        throws -> RowCursor
    {
        try cachedStatement(sql: sql).makeCursor(arguments: arguments)
    }
}
