import Foundation
import ObjectGraph

/// `migrate` on PostgreSQL: a store of n people (and n/100 teams) written with
/// ``Workload/model()`` (by an untimed `insert` child of its side) is migrated in place to
/// ``MigrateBenchmark/migratedModel()`` — `rating` (Integer 16, default 0) added, `email`
/// renamed `emailAddress` — in one transaction.
///
/// ObjectGraph: a coordinator of the new model adding the `.postgres` store with the two
/// versions (automatic migration, the inferred mapping): the store reads every row, maps it,
/// writes the new store into a staging schema and swaps its tables in under the store's lock
/// (`PostgresStore.migrate`); opening the migrated store is timed too. Raw: the same rebuild in
/// hand-written SQL, in one transaction on one connection — the old tables locked against
/// writers, a staging schema made with the new model's tables and indexes (as ObjectGraph's
/// DDL writes them), every row copied server-side (`INSERT … SELECT`, 0 for `rating`), the old
/// tables dropped, the staged ones moved into the schema (`ALTER TABLE … SET SCHEMA`), the
/// metadata updated — so both sides end with the tables a fresh store of the new model has.
/// Both check the result with the same query after the clock stops.
enum PostgresMigrateBenchmark {
    /// ObjectGraph's side, on the store `url` names.
    static func objectGraph(url: URL, conninfo: String, schema: String) throws -> SideResult {
        let source = ModelVersion(name: "Bench", model: Workload.model())
        let destination = ModelVersion(name: "Bench 2", model: MigrateBenchmark.migratedModel())
        let coordinator = StoreCoordinator(model: destination.model)
        var options = StoreOptions()
        options.migration = MigrationOptions(versions: [source, destination])
        let start = Clock.now()
        let startCPU = Clock.cpu()
        try coordinator.addStore(type: .postgres, at: url, options: options)
        var result = SideResult(seconds: Clock.now() - start, checksum: 0, count: 0)
        result.cpuSeconds = Clock.cpu() - startCPU
        return try checked(result, conninfo: conninfo, schema: schema)
    }

    /// The migrated person table and the new model's other tables and indexes, as
    /// ObjectGraph's store creates them for ``MigrateBenchmark/migratedModel()``.
    static let migratedTables = [
        "CREATE TABLE \"Z_PRIMARYKEY\" (\"Z_ENT\" integer PRIMARY KEY, \"Z_NAME\" text,"
            + " \"Z_SUPER\" integer, \"Z_MAX\" bigint NOT NULL DEFAULT 0)",
        "CREATE TABLE \"Z_METADATA\" (\"Z_VERSION\" integer PRIMARY KEY, \"Z_UUID\" text,"
            + " \"Z_PLIST\" bytea)",
        "CREATE TABLE \"ZPERSON\" (\"Z_PK\" bigint PRIMARY KEY, \"Z_ENT\" integer NOT NULL,"
            + " \"Z_OPT\" bigint, \"ZAGE\" integer, \"ZID\" bigint, \"ZRATING\" smallint,"
            + " \"ZTEAM\" bigint, \"ZCREATED\" double precision, \"ZSCORE\" double precision,"
            + " \"ZEMAILADDRESS\" text, \"ZNAME\" text)",
        "CREATE TABLE \"ZTEAM\" (\"Z_PK\" bigint PRIMARY KEY, \"Z_ENT\" integer NOT NULL,"
            + " \"Z_OPT\" bigint, \"ZNAME\" text)",
        "CREATE INDEX \"ZPERSON_ZTEAM_INDEX\" ON \"ZPERSON\" (\"ZTEAM\")",
        "CREATE INDEX \"Z_Person_byIdIndex\" ON \"ZPERSON\" (\"ZID\" ASC NULLS FIRST)",
        "CREATE INDEX \"Z_Person_byNameIndex\" ON \"ZPERSON\" (((CASE WHEN"
            + " octet_length(\"ZNAME\") = char_length(\"ZNAME\") THEN \"ZNAME\" ELSE"
            + " normalize(\"ZNAME\", NFC) END)) ASC NULLS FIRST)",
    ]

    /// The tables of both versions (their names do not change).
    static let tables = ["Z_METADATA", "Z_PRIMARYKEY", "ZPERSON", "ZTEAM"]

    /// The raw side: the same rebuild in plain SQL, one transaction.
    static func raw(conninfo: String, schema: String) throws -> SideResult {
        let db = try RawPostgres(conninfo: conninfo, schema: schema)
        let target = quoted(schema)
        let staging = quoted("staging_" + schema)
        let start = Clock.now()
        let startCPU = Clock.cpu()
        try db.transaction {
            try db.execute(
                "LOCK TABLE " + tables.map { "\(target).\(quoted($0))" }.joined(separator: ", ")
                    + " IN EXCLUSIVE MODE")
            try db.execute("CREATE SCHEMA \(staging)")
            try db.execute("SET LOCAL search_path TO \(staging)")
            for statement in migratedTables { try db.execute(statement) }
            try db.execute(
                "INSERT INTO \"Z_PRIMARYKEY\" SELECT * FROM \(target).\"Z_PRIMARYKEY\"")
            try db.execute("INSERT INTO \"Z_METADATA\" SELECT * FROM \(target).\"Z_METADATA\"")
            try db.execute(
                "INSERT INTO \"ZTEAM\" (\"Z_PK\", \"Z_ENT\", \"Z_OPT\", \"ZNAME\") SELECT \"Z_PK\","
                    + " \"Z_ENT\", \"Z_OPT\", \"ZNAME\" FROM \(target).\"ZTEAM\"")
            try db.execute(
                "INSERT INTO \"ZPERSON\" (\"Z_PK\", \"Z_ENT\", \"Z_OPT\", \"ZAGE\", \"ZID\","
                    + " \"ZRATING\", \"ZTEAM\", \"ZCREATED\", \"ZSCORE\", \"ZEMAILADDRESS\","
                    + " \"ZNAME\") SELECT \"Z_PK\", \"Z_ENT\", \"Z_OPT\", \"ZAGE\", \"ZID\", 0,"
                    + " \"ZTEAM\", \"ZCREATED\", \"ZSCORE\", \"ZEMAIL\", \"ZNAME\" FROM"
                    + " \(target).\"ZPERSON\"")
            for table in tables {
                try db.execute("DROP TABLE \(target).\(quoted(table))")
                try db.execute("ALTER TABLE \(staging).\(quoted(table)) SET SCHEMA \(target)")
            }
            try db.execute("DROP SCHEMA \(staging)")
            try db.run(
                "migrated_metadata", "UPDATE \(target).\"Z_METADATA\" SET \"Z_PLIST\" = $1",
                ["\\x6d69677261746564"]
            ).clear()
        }
        var result = SideResult(seconds: Clock.now() - start, checksum: 0, count: 0)
        result.cpuSeconds = Clock.cpu() - startCPU
        return try checked(result, conninfo: conninfo, schema: schema)
    }

    /// `result` with the count and a checksum of the migrated people (read after the clock).
    static func checked(_ result: SideResult, conninfo: String, schema: String) throws
        -> SideResult
    {
        let db = try RawPostgres(conninfo: conninfo, schema: schema)
        let rows = try db.run(
            "migrate_check",
            "SELECT count(*), COALESCE(sum(\"ZID\" + \"ZRATING\" * 7 + length(\"ZEMAILADDRESS\")"
                + " * 3 + \"ZAGE\"), 0) FROM \"ZPERSON\"")
        defer { rows.clear() }
        var checked = result
        checked.count = Int(rows.int64(0, 0))
        checked.checksum = rows.int64(0, 1)
        return checked
    }

    /// `name` as a quoted identifier.
    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
