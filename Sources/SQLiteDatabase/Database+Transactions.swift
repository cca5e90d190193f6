extension Database {
    /// Runs `body` in a transaction: committed when `body` returns, rolled back when it
    /// throws (the error is then rethrown).
    ///
    /// ```swift
    /// try db.inTransaction(.immediate) { db in
    ///     try db.execute(sql: "UPDATE account SET balance = balance - ? WHERE id = ?",
    ///                    arguments: [amount, from])
    ///     try db.execute(sql: "UPDATE account SET balance = balance + ? WHERE id = ?",
    ///                    arguments: [amount, to])
    /// }
    /// ```
    ///
    /// Transactions do not nest: inside one, use ``inSavepoint(named:_:)``.
    ///
    /// - Parameters:
    ///   - kind: when the write lock is taken (`.deferred` by default).
    ///   - body: the work; do not keep the database beyond the call.
    /// - Throws: the error thrown by `body`, or ``DatabaseError`` when `BEGIN` or `COMMIT`
    ///   fails (`.error` when a transaction is already open, `.busy` when another connection
    ///   holds the lock). When `COMMIT` fails the transaction is rolled back.
    public func inTransaction<T>(
        _ kind: TransactionKind = .deferred, _ body: (Database) throws -> T
    ) throws -> T {
        try beginTransaction(kind)
        let result: T
        do {
            result = try body(self)
            try commit()
        } catch {
            rollbackIfNeeded()
            throw error
        }
        return result
    }

    /// Runs `body` inside a savepoint: released when `body` returns, rolled back to (undoing
    /// only the savepoint's changes) when it throws. Savepoints nest, inside or outside a
    /// transaction; outside, the savepoint is a transaction of its own.
    ///
    /// ```swift
    /// try db.inTransaction { db in
    ///     try db.execute(sql: "INSERT INTO log (message) VALUES ('kept')")
    ///     try? db.inSavepoint(named: "attempt") { db in
    ///         try db.execute(sql: "INSERT INTO log (message) VALUES ('undone')")
    ///         throw CancellationError()
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: the savepoint's name; quoted, so any text is safe.
    ///   - body: the work to run inside the savepoint, given this database.
    public func inSavepoint<T>(named name: String, _ body: (Database) throws -> T) throws -> T {
        let quoted = quoteIdentifier(name)
        try execute(sql: "SAVEPOINT " + quoted)
        let result: T
        do {
            result = try body(self)
            try execute(sql: "RELEASE SAVEPOINT " + quoted)
        } catch {
            // SQLite may already have rolled the whole transaction back (after SQLITE_FULL,
            // SQLITE_BUSY...): the savepoint is then gone, and there is nothing to undo.
            if isInsideTransaction {
                try? execute(sql: "ROLLBACK TO SAVEPOINT " + quoted)
                try? execute(sql: "RELEASE SAVEPOINT " + quoted)
            }
            throw error
        }
        return result
    }

    /// Begins a transaction. Prefer ``inTransaction(_:_:)``, which always ends it.
    public func beginTransaction(_ kind: TransactionKind = .deferred) throws {
        try execute(sql: kind.beginSQL)
    }

    /// Commits the open transaction.
    public func commit() throws {
        try execute(sql: "COMMIT TRANSACTION")
    }

    /// Rolls the open transaction back.
    public func rollback() throws {
        try execute(sql: "ROLLBACK TRANSACTION")
    }

    /// Rolls back when a transaction is still open; failures are ignored because the error
    /// being reported is the one that caused the rollback.
    private func rollbackIfNeeded() {
        if isInsideTransaction {
            try? rollback()
        }
    }
}
