import Foundation

/// The raw libpq sides of `aggregate` and the batch operations (``BatchBenchmark``) on the
/// PostgreSQL tables: the SQL ObjectGraph's PostgreSQL store runs for them, each statement
/// prepared once, the writing ones in one transaction.
enum RawPostgresBatch {
    /// `aggregate`: `runs` times the grouped sum and average of the scores.
    static func aggregate(_ db: RawPostgres, runs: Int) throws -> SideResult {
        var checksum: Int64 = 0
        var groups = 0
        for _ in 0..<runs {
            let result = try db.run(
                "aggregate",
                "SELECT \"ZTEAM\", SUM(\"ZSCORE\"), AVG(\"ZSCORE\") FROM \"ZPERSON\""
                    + " GROUP BY \"ZTEAM\"")
            groups = result.rowCount
            for row in 0..<groups {
                checksum &+= AggregateBenchmark.checksum(
                    total: result.double(row, 1), mean: result.double(row, 2))
            }
            result.clear()
        }
        return SideResult(seconds: 0, checksum: checksum, count: groups)
    }

    /// A batch operation, timed here (`batch_insert`'s people are made before the clock).
    static func run(_ operation: String, n: Int, db: RawPostgres) throws -> SideResult {
        let (people, checksum) = BatchBenchmark.people(operation == "batch_insert" ? n : 0)
        let start = Clock.now()
        let startCPU = Clock.cpu()
        let above = String(BatchBenchmark.deletedAbove(people: n))
        var result = try db.transaction { () throws -> SideResult in
            let count: Int
            switch operation {
            case "batch_insert":
                try insert(people, db)
                return SideResult(seconds: 0, checksum: checksum, count: people.count)
            case "batch_update":
                count = try changed(
                    db, "batch_update",
                    "UPDATE \"ZPERSON\" SET \"ZSCORE\" = \"ZSCORE\" + $1::double precision,"
                        + " \"Z_OPT\" = COALESCE(\"Z_OPT\", 0) + 1 WHERE \"Z_ENT\" ="
                        + " ANY($2::integer[]) RETURNING \"Z_PK\", \"Z_ENT\", (\"ZSCORE\" IS NULL"
                        + " OR \"ZSCORE\" = 'NaN'::double precision)", ["1", "{1}"])
            case "batch_delete":
                // The people's teams lose members: their versions go up, as ObjectGraph's.
                _ = try changed(
                    db, "batch_touch",
                    "UPDATE \"ZTEAM\" SET \"Z_OPT\" = COALESCE(\"Z_OPT\", 0) + 1 WHERE \"Z_PK\""
                        + " IN (SELECT \"ZTEAM\" FROM \"ZPERSON\" WHERE \"ZID\" > $1)", [above])
                count = try changed(
                    db, "batch_delete", "DELETE FROM \"ZPERSON\" WHERE \"ZID\" > $1", [above])
            default:
                throw BenchError.usage("unknown operation '\(operation)'")
            }
            return SideResult(seconds: 0, checksum: Int64(count), count: count)
        }
        result.seconds = Clock.now() - start
        result.cpuSeconds = Clock.cpu() - startCPU
        return result
    }

    /// Runs `sql` and returns the rows it changed.
    private static func changed(
        _ db: RawPostgres, _ name: String, _ sql: String, _ parameters: [String?]
    ) throws -> Int {
        let result = try db.run(name, sql, parameters)
        defer { result.clear() }
        return result.affectedRows
    }

    /// Inserts `people` with keys reserved in `Z_PRIMARYKEY`, an `INSERT … SELECT … FROM
    /// unnest(…)` of arrays of each column's values per `chunk` people, as ObjectGraph's store
    /// does.
    private static func insert(_ all: [PersonValues], _ db: RawPostgres) throws {
        guard !all.isEmpty else { return }
        let chunk = 10_000
        let first = try RawPostgresRunner.reserveKeys(db, entity: 1, count: all.count)
        for start in stride(from: 0, to: all.count, by: chunk) {
            let people = all[start..<min(start + chunk, all.count)]
            try insert(people, firstKey: first + Int64(start), db)
        }
    }

    private static func insert(
        _ people: ArraySlice<PersonValues>, firstKey first: Int64, _ db: RawPostgres
    ) throws {
        let arrays = [
            people.map { String($0.id) }, people.map { quoted($0.name) },
            people.map { String($0.age) }, people.map { quoted($0.email) },
            people.map { "\($0.score)" }, people.map { "\($0.created)" },
        ].map { "{" + $0.joined(separator: ",") + "}" }
        try db.run(
            "batch_insert",
            "INSERT INTO \"ZPERSON\" (\"Z_PK\", \"Z_ENT\", \"Z_OPT\", \"ZID\", \"ZNAME\","
                + " \"ZAGE\", \"ZEMAIL\", \"ZSCORE\", \"ZCREATED\") SELECT $1::bigint + u.n - 1,"
                + " 1, 1, u.id, u.name, u.age, u.email, u.score, u.created FROM unnest("
                + "$2::bigint[], $3::text[], $4::integer[], $5::text[], $6::double precision[],"
                + " $7::double precision[]) WITH ORDINALITY AS u(id, name, age, email, score,"
                + " created, n)", [String(first)] + arrays
        ).clear()
    }

    /// `text` as a double-quoted array element.
    private static func quoted(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") })
        else { return "\"" + text + "\"" }
        return "\""
            + text.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
