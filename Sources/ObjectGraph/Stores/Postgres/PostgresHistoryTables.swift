import PostgresClient

/// Core Data's persistent-history tables in a PostgreSQL schema: the current layout of the
/// SQLite store's (``HistoryTables``: `ATRANSACTION` with its strings interned in
/// `ATRANSACTIONSTRING`, `ACHANGE` with its tombstone columns, the same entity numbers in
/// `Z_PRIMARYKEY`), with PostgreSQL types: keys `bigint`, `ZTIMESTAMP` `double precision`
/// (seconds since 2001, as the store's dates), `ZCOLUMNS` `bytea`, and the tombstones `text`
/// (each holds the PostgreSQL text form of the deleted row's column, read back as the
/// attribute's type, so one column serves attributes of any type).
enum PostgresHistoryTables {
    /// The statements creating what a schema lacks, with at least `tombstones` tombstone
    /// columns, and the bookkeeping rows of `Z_PRIMARYKEY` (run in one transaction, under the
    /// store's advisory lock).
    static func preparation(tombstones: Int) -> [String] {
        var statements = [
            "CREATE TABLE IF NOT EXISTS \"ATRANSACTION\" (\"Z_PK\" bigint PRIMARY KEY,"
                + " \"Z_ENT\" integer, \"Z_OPT\" bigint, \"ZAUTHORTS\" bigint,"
                + " \"ZBUNDLEIDTS\" bigint, \"ZCONTEXTNAMETS\" bigint, \"ZPROCESSIDTS\" bigint,"
                + " \"ZTIMESTAMP\" double precision, \"ZAUTHOR\" text, \"ZBUNDLEID\" text,"
                + " \"ZCONTEXTNAME\" text, \"ZPROCESSID\" text, \"ZQUERYGEN\" bytea)",
            "CREATE TABLE IF NOT EXISTS \"ACHANGE\" (\"Z_PK\" bigint PRIMARY KEY,"
                + " \"Z_ENT\" integer, \"Z_OPT\" bigint, \"ZCHANGETYPE\" integer,"
                + " \"ZENTITY\" integer, \"ZENTITYPK\" bigint, \"ZTRANSACTIONID\" bigint,"
                + " \"ZCOLUMNS\" bytea)",
            "CREATE TABLE IF NOT EXISTS \"ATRANSACTIONSTRING\" (\"Z_PK\" bigint PRIMARY KEY,"
                + " \"Z_ENT\" integer, \"Z_OPT\" bigint, \"ZNAME\" text,"
                + " CONSTRAINT \"Z_TRANSACTIONSTRING_UNIQUE_NAME\" UNIQUE (\"ZNAME\"))",
            "CREATE INDEX IF NOT EXISTS \"ACHANGE_ZTRANSACTIONID_INDEX\" ON \"ACHANGE\""
                + " (\"ZTRANSACTIONID\")",
            "CREATE INDEX IF NOT EXISTS \"Z_TRANSACTION_TransactionAuthorIndex\" ON"
                + " \"ATRANSACTION\" (\"ZAUTHORTS\")",
            "CREATE INDEX IF NOT EXISTS \"Z_TRANSACTION_TransactionTimestampIndex\" ON"
                + " \"ATRANSACTION\" (\"ZTIMESTAMP\")",
        ]
        for column in 0..<tombstones {
            statements.append(
                "ALTER TABLE \"ACHANGE\" ADD COLUMN IF NOT EXISTS \"ZTOMBSTONE\(column)\" text")
        }
        statements.append(
            "INSERT INTO \"Z_PRIMARYKEY\" (\"Z_ENT\", \"Z_NAME\", \"Z_SUPER\", \"Z_MAX\") VALUES"
                + " (\(HistoryTables.changeEntity), 'CHANGE', 0, 0),"
                + " (\(HistoryTables.transactionEntity), 'TRANSACTION', 0, 0),"
                + " (\(HistoryTables.stringEntity), 'TRANSACTIONSTRING', 0, 0)"
                + " ON CONFLICT (\"Z_ENT\") DO NOTHING")
        return statements
    }

    /// Whether the schema the connection's `search_path` names has the history tables.
    static func exist(_ connection: PostgresConnection) throws(PostgresError) -> Bool {
        let result = try connection.execute(
            "SELECT to_regclass('\"ATRANSACTION\"') IS NOT NULL"
                + " AND to_regclass('\"ACHANGE\"') IS NOT NULL")
        return try result.rows.first?.bool(0) == true
    }

    /// Whether the schema has the history tables with at least `tombstones` tombstone columns
    /// and the bookkeeping rows of `Z_PRIMARYKEY` (then ``preparation(tombstones:)`` has
    /// nothing to do).
    static func isReady(_ connection: PostgresConnection, tombstones: Int) throws(PostgresError)
        -> Bool
    {
        guard try exist(connection), try tombstoneColumns(connection) >= tombstones else {
            return false
        }
        let rows = try connection.execute(
            "SELECT count(*) FROM \"Z_PRIMARYKEY\" WHERE \"Z_ENT\" = ANY($1::integer[])",
            [
                integerArray(
                    [
                        HistoryTables.changeEntity, HistoryTables.transactionEntity,
                        HistoryTables.stringEntity,
                    ].map(Int64.init))
            ])
        return try rows.rows.first?.int64(0) == 3
    }

    /// How many `ZTOMBSTONEn` columns `ACHANGE` has (counted from 0 without gaps).
    static func tombstoneColumns(_ connection: PostgresConnection) throws(PostgresError) -> Int {
        let result = try connection.execute(
            "SELECT attname FROM pg_attribute WHERE attrelid = to_regclass('\"ACHANGE\"')"
                + " AND attnum > 0 AND NOT attisdropped")
        let names = Set(result.rows.compactMap { $0.string(0) })
        var count = 0
        while names.contains("ZTOMBSTONE\(count)") { count += 1 }
        return count
    }

    /// A PostgreSQL array literal of `texts` (`{"a","b\"c",NULL}`), for a `text[]` parameter.
    static func textArray(_ texts: [String?]) -> PostgresValue {
        .text(
            "{"
                + texts.map { text in
                    guard let text else { return "NULL" }
                    var quoted = "\""
                    for character in text.unicodeScalars {
                        if character == "\"" || character == "\\" { quoted.append("\\") }
                        quoted.unicodeScalars.append(character)
                    }
                    return quoted + "\""
                }.joined(separator: ",") + "}")
    }

    /// A PostgreSQL array literal of `numbers`, for a `bigint[]` or `integer[]` parameter.
    static func integerArray(_ numbers: [Int64]) -> PostgresValue {
        .text("{" + numbers.map(String.init).joined(separator: ",") + "}")
    }
}
