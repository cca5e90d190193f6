import Foundation

/// The raw side of `concurrent_import`: ``Workload/importWriters`` threads, each with its own
/// sqlite3 connection to a fresh file in WAL mode (10 s busy timeout), each inserting its slice
/// of the people (and its teams) in transactions of ``Workload/importBatch`` rows, taking
/// primary keys from `Z_PRIMARYKEY` in each transaction as Core Data does, while the main thread
/// counts the people every ``Workload/importReadInterval`` on a connection of its own.
///
/// Creating the file and opening the connections is not timed; the clock stops once every
/// writer has committed its last batch and the reader has counted all the people.
struct RawConcurrentImport {
    let n: Int
    let path: String

    func run() throws -> SideResult {
        let setup = try RawDatabase(path: path)
        try RawSQLiteRunner(n: n, path: path).createSchema(setup)
        let connections = try (0..<Workload.importWriters).map { _ in
            Handoff(database: try RawDatabase(path: path))
        }
        let reader = try RawDatabase(path: path)
        let count = try reader.prepare("SELECT COUNT(*) FROM ZPERSON")
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
        func countPeople() throws -> Int {
            defer { count.reset() }
            guard try count.step() else { throw BenchError.failed("COUNT(*) returned no row") }
            return Int(count.int64(0))
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

    /// Writer `writer`'s import on its own connection: its teams in its first transaction,
    /// then its people, ``Workload/importBatch`` per transaction. Returns the checksum of the
    /// people's values.
    private static func importSlice(writer: Int, n: Int, into db: RawDatabase) throws -> Int64 {
        let slice = Workload.importSlice(writer: writer, people: n)
        let teamCount = Workload.importTeamCount(people: n)
        // Takes `count` primary keys of entity `entity`; returns the last one.
        let keys = try db.prepare(
            "UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + ? WHERE Z_ENT = ? RETURNING Z_MAX")
        func takeKeys(_ count: Int, of entity: Int64) throws -> Int64 {
            keys.bind(1, Int64(count))
            keys.bind(2, entity)
            defer { keys.reset() }
            guard try keys.step() else {
                throw BenchError.failed("Z_PRIMARYKEY has no row for entity \(entity)")
            }
            return keys.int64(0)
        }
        let teams = try db.prepare(
            "INSERT INTO ZTEAM (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, 1, ?)")
        let people = try db.prepare(RawSQLiteRunner.insertPersonSQL)
        var firstTeam: Int64 = 0
        var checksum: Int64 = 0
        var next = slice.lowerBound
        while next < slice.upperBound {
            let batch = next..<min(next + Workload.importBatch, slice.upperBound)
            try db.transaction {
                if firstTeam == 0 {
                    firstTeam =
                        try takeKeys(teamCount, of: RawSQLiteRunner.teamEntity)
                        - Int64(teamCount) + 1
                    for index in 0..<teamCount {
                        teams.bind(1, firstTeam + Int64(index))
                        teams.bind(2, RawSQLiteRunner.teamEntity)
                        teams.bind(3, Workload.teamName(writer * teamCount + index))
                        try teams.run()
                    }
                }
                let firstPerson =
                    try takeKeys(batch.count, of: RawSQLiteRunner.personEntity)
                    - Int64(batch.count) + 1
                for index in batch {
                    checksum &+= try RawSQLiteRunner.insertPerson(
                        index, key: firstPerson + Int64(index - batch.lowerBound),
                        team: firstTeam + Int64((index - slice.lowerBound) % teamCount),
                        with: people)
                }
            }
            next = batch.upperBound
        }
        return checksum
    }
}

/// A connection handed to the one thread that uses it from then on. `@unchecked Sendable`:
/// the main thread opens it and does not touch it again; the writer thread it is handed to is
/// its only user (a connection opened without SQLite's mutex may change threads when no two use
/// it at once).
struct Handoff: @unchecked Sendable {
    let database: RawDatabase
}
