import PostgresClient

/// Query generations of a PostgreSQL store: a snapshot is a `REPEATABLE READ READ ONLY`
/// transaction held open on a connection of the pool, pinned to a read-only copy of the store
/// for the generation's life. PostgreSQL takes the snapshot at the transaction's first
/// statement; every later read of the generation sees the schema as it was then, whatever
/// other connections (of this process or of other servers) commit meanwhile. The connection is
/// rolled back and returned to the pool when the generation is let go.
extension PostgresStore {
    /// A view of the store as it is now, on a connection of its own (see ``StoreGeneration``).
    /// A read-only store gets one too: other processes may write its schema.
    /// - Throws: ``StoreError/postgres(url:message:)`` when no connection can be had or its
    ///   transaction cannot begin.
    func openGeneration() throws -> any PersistentStore {
        let snapshot: PostgresConnection
        do {
            snapshot = try pool.acquire()
        } catch {
            throw StoreError.postgres(url: path, message: "\(error)")
        }
        do {
            try snapshot.run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            // The snapshot is taken here, at the transaction's first statement.
            try snapshot.execute("SELECT count(*) FROM \"Z_METADATA\"")
        } catch {
            pool.release(snapshot)
            throw StoreError.postgres(url: path, message: "\(error)")
        }
        snapshot.statementObserver = Self.statementObserver(sqlLog)
        return PostgresStore(sharing: self, pinning: snapshot)
    }
}
