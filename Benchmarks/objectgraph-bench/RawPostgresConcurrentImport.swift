import Foundation

/// The raw side of `concurrent_import` on PostgreSQL: ``Workload/importWriters`` threads, each
/// with its own libpq connection, each inserting its slice of the people (and its teams) in
/// transactions of ``Workload/importBatch`` people, while the main thread counts the people
/// every ``Workload/importReadInterval`` on a connection of its own.
///
/// Each batch sends the SQL ObjectGraph's PostgreSQL store sends for a background context's
/// save, as prepared statements: the batch's keys reserved in `Z_PRIMARYKEY` first, one
/// autocommitted `UPDATE … RETURNING` per entity (as a context obtains permanent IDs before it
/// saves, so the row lock is not held through the batch), then one transaction with the teams
/// that gain members bumped (`Z_OPT` checked, in key order) and the people inserted as the
/// store inserts a save's rows (``RawPostgresSetInsert``: one `INSERT … FROM unnest(…)`; the
/// first batch inserting the writer's teams instead). ObjectGraph's `pg_notify` for other
/// processes is left out: the raw reader polls.
///
/// Creating the schema and opening the connections is not timed; the clock stops once every
/// writer has committed its last batch and the reader has counted all the people.
struct RawPostgresConcurrentImport {
    let n: Int
    /// The libpq connection string (a URL without ObjectGraph's `schema=`).
    let conninfo: String
    /// The schema this side's tables are made in.
    let schema: String

    func run() throws -> SideResult {
        try RawPostgresRunner.createTables(conninfo: conninfo, schema: schema)
        let connections = try (0..<Workload.importWriters).map { _ in
            PostgresHandoff(database: try RawPostgres(conninfo: conninfo, schema: schema))
        }
        let reader = try RawPostgres(conninfo: conninfo, schema: schema)
        func countPeople() throws -> Int {
            let result = try reader.run("count", "SELECT count(*) FROM \"ZPERSON\"")
            defer { result.clear() }
            return Int(result.int64(0, 0))
        }
        let start = Clock.now()
        let startCPU = Clock.cpu()
        let outcomes = WriterOutcomes()
        let n = self.n
        for (writer, connection) in connections.enumerated() {
            let thread = Thread {
                let outcome = Result {
                    try Self.importSlice(writer: writer, n: n, into: connection.database)
                }
                outcomes.record(outcome, of: writer)
            }
            thread.start()
        }
        while outcomes.finished < connections.count {
            usleep(UInt32(Workload.importReadInterval * 1_000_000))
            _ = try countPeople()
        }
        let people = try countPeople()
        let seconds = Clock.now() - start
        let cpuSeconds = Clock.cpu() - startCPU
        let checksum = try outcomes.checksum(writers: connections.count)
        guard people == n else {
            throw BenchError.failed("concurrent_import: the reader counts \(people) of \(n)")
        }
        var result = SideResult(seconds: seconds, checksum: checksum, count: people)
        result.cpuSeconds = cpuSeconds
        return result
    }

    /// Writer `writer`'s import on its own connection: its teams with its first batch, then
    /// its people, ``Workload/importBatch`` per transaction. Returns the checksum of the
    /// people's values.
    private static func importSlice(writer: Int, n: Int, into db: RawPostgres) throws -> Int64 {
        let slice = Workload.importSlice(writer: writer, people: n)
        let teamCount = Workload.importTeamCount(people: n)
        // The writer's teams: key and version (`Z_OPT`), by team index.
        var teams: [(key: Int64, version: Int64)] = []
        var checksum: Int64 = 0
        var next = slice.lowerBound
        while next < slice.upperBound {
            let batch = next..<min(next + Workload.importBatch, slice.upperBound)
            let firstTeam =
                teams.isEmpty
                ? try RawPostgresRunner.reserveKeys(db, entity: 2, count: teamCount) : 0
            let firstPerson = try RawPostgresRunner.reserveKeys(db, entity: 1, count: batch.count)
            checksum &+= try db.transaction {
                if teams.isEmpty {
                    let keys = (0..<teamCount).map { firstTeam + Int64($0) }
                    try RawPostgresSetInsert.teams(
                        keys: keys,
                        names: (0..<teamCount).map {
                            Workload.teamName(writer * teamCount + $0)
                        }, name: "import_team", db)
                    teams = keys.map { ($0, 1) }
                } else {
                    try bumpTeams(
                        of: batch, slice: slice, teamCount: teamCount, teams: &teams, db: db)
                }
                var batchChecksum: Int64 = 0
                var people: [RawPostgresSetInsert.Person] = []
                for index in batch {
                    let values = Workload.person(index)
                    let team = teams[(index - slice.lowerBound) % teamCount].key
                    people.append((firstPerson + Int64(index - batch.lowerBound), team, values))
                    batchChecksum &+= values.checksum
                }
                try RawPostgresSetInsert.people(people, name: "import_person", db)
                return batchChecksum
            }
            next = batch.upperBound
        }
        return checksum
    }

    /// Bumps the version of every team that gains members in `batch` (in key order, each
    /// update checking the version the writer knows, as a save checks `Z_OPT`).
    private static func bumpTeams(
        of batch: Range<Int>, slice: Range<Int>, teamCount: Int,
        teams: inout [(key: Int64, version: Int64)], db: RawPostgres
    ) throws {
        let touched = Set(batch.map { ($0 - slice.lowerBound) % teamCount }).sorted()
        for team in touched {
            let (key, version) = teams[team]
            let result = try db.run(
                "import_touch",
                "UPDATE \"ZTEAM\" SET \"Z_OPT\" = $1 WHERE \"Z_PK\" = $2 AND COALESCE(\"Z_OPT\", 0)"
                    + " = $3", [String(version + 1), String(key), String(version)])
            defer { result.clear() }
            guard result.affectedRows == 1 else {
                throw BenchError.failed("raw import: ZTEAM row \(key) changed meanwhile")
            }
            teams[team].version = version + 1
        }
    }
}

/// A libpq connection handed to the one thread that uses it from then on. `@unchecked
/// Sendable`: the main thread opens it and does not touch it again; the writer thread it is
/// handed to is its only user (libpq allows a connection to change threads when no two use it
/// at once).
struct PostgresHandoff: @unchecked Sendable {
    let database: RawPostgres
}
