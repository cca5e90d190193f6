import SQLiteDatabase

/// Query generations of a SQLite store: a snapshot is a read transaction held open on a
/// connection of its own. In WAL mode a reader sees the file as it was when its transaction
/// began, whatever other connections (of this coordinator, another one, another process)
/// commit meanwhile; the snapshot's reads go through that connection, which closes when the
/// generation is let go.
extension SQLiteStore {
    /// A view of the file as it is now, on a new connection (see ``StoreGeneration``). A
    /// read-only store is its own view: it is read as it was when opened.
    /// - Throws: ``StoreError/queryGenerationsNeedWAL(path:journalMode:)`` when the file is
    ///   not in WAL mode; ``StoreError/sqlite(path:message:)`` when the connection cannot be
    ///   opened or its transaction begun.
    func openGeneration() throws -> any PersistentStore {
        if description.isReadOnly { return self }
        let journalMode = description.journalMode ?? "unknown"
        guard journalMode == Database.JournalMode.wal.rawValue else {
            throw StoreError.queryGenerationsNeedWAL(path: path, journalMode: journalMode)
        }
        let connection = try sqlite {
            try Database(
                path: path, mode: .readOnly,
                options: Database.Options(
                    busyTimeout: database.busyTimeout, sqlLog: database.sqlLog))
        }
        try sqlite {
            try SQLFunctions.register(on: connection)
            // The snapshot is taken at the transaction's first read, here.
            try connection.execute(sql: "BEGIN DEFERRED")
            _ = try connection.fetchValue(Int.self, sql: "SELECT count(*) FROM Z_METADATA")
        }
        let mode = try sqlite { try connection.fetchValue(String.self, sql: "PRAGMA journal_mode") }
        guard mode == Database.JournalMode.wal.rawValue else {
            throw StoreError.queryGenerationsNeedWAL(path: path, journalMode: mode ?? "unknown")
        }
        return SQLiteStore(generationOf: self, reading: connection)
    }
}
