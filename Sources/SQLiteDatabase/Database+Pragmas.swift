extension Database {
    /// The journal mode of the main database.
    ///
    /// ```swift
    /// if try db.journalMode != .wal { try db.setJournalMode(.wal) }
    /// ```
    public var journalMode: JournalMode {
        get throws {
            try Self.journalMode(
                from: fetchValue(String.self, sql: "PRAGMA journal_mode"),
                sql: "PRAGMA journal_mode")
        }
    }

    /// Sets the journal mode and returns the mode in effect afterwards, which SQLite may
    /// refuse to change (an in-memory database stays `.memory`). Run it outside a
    /// transaction.
    @discardableResult
    public func setJournalMode(_ mode: JournalMode) throws -> JournalMode {
        try Self.journalMode(from: fetchValue(String.self, sql: mode.pragma), sql: mode.pragma)
    }

    private static func journalMode(from text: String?, sql: String) throws -> JournalMode {
        guard let text, let mode = JournalMode(rawValue: text.lowercased()) else {
            throw DatabaseError(
                resultCode: .error, message: "unexpected journal mode \(text ?? "NULL")", sql: sql)
        }
        return mode
    }

    /// The `user_version` number stored in the database header (0 for a new database);
    /// applications use it to version their schema.
    public var userVersion: Int32 {
        get throws {
            try fetchValue(Int32.self, sql: "PRAGMA user_version") ?? 0
        }
    }

    /// Stores a new `user_version`.
    ///
    /// ```swift
    /// if try db.userVersion < 2 {
    ///     try db.inTransaction { db in
    ///         try db.execute(sql: "ALTER TABLE player ADD COLUMN email TEXT")
    ///         try db.setUserVersion(2)
    ///     }
    /// }
    /// ```
    public func setUserVersion(_ version: Int32) throws {
        // PRAGMA statements accept no bound parameters. The only text rendered here is the
        // decimal digits of an Int32, which cannot carry SQL.
        try execute(sql: "PRAGMA user_version = " + String(version))
    }

    /// Whether foreign key constraints are enforced.
    public var foreignKeysEnabled: Bool {
        get throws {
            try fetchValue(Bool.self, sql: "PRAGMA foreign_keys") ?? false
        }
    }

    /// Turns foreign key enforcement on or off (outside a transaction only).
    public func setForeignKeysEnabled(_ enabled: Bool) throws {
        try execute(sql: enabled ? "PRAGMA foreign_keys = ON" : "PRAGMA foreign_keys = OFF")
    }
}
