import Foundation

/// Runs one operation through libpq by hand, on the tables ObjectGraph's PostgreSQL store
/// makes for ``Workload/model()`` (same names, PostgreSQL types and indexes, `Z_PRIMARYKEY`):
/// every statement prepared once and run with parameters, one transaction per writing
/// operation, keys reserved in `Z_PRIMARYKEY` as the store reserves them, `Z_OPT` checked and
/// bumped per row. Rows are read into plain structs (``RawPerson``). Creating the tables (for
/// `insert`) and connecting are not timed.
struct RawPostgresRunner {
    let n: Int
    /// The libpq connection string (a URL without ObjectGraph's `schema=`).
    let conninfo: String
    /// The schema holding this side's tables.
    let schema: String
    /// What the operation read, released only after timing.
    let retained: Retained

    /// The tables, as ``PostgresSchemaDDL`` writes them for the workload's model.
    static let schemaStatements = [
        "CREATE TABLE \"Z_PRIMARYKEY\" (\"Z_ENT\" integer PRIMARY KEY, \"Z_NAME\" text,"
            + " \"Z_SUPER\" integer, \"Z_MAX\" bigint NOT NULL DEFAULT 0)",
        "CREATE TABLE \"Z_METADATA\" (\"Z_VERSION\" integer PRIMARY KEY, \"Z_UUID\" text,"
            + " \"Z_PLIST\" bytea)",
        "CREATE TABLE \"ZPERSON\" (\"Z_PK\" bigint PRIMARY KEY, \"Z_ENT\" integer NOT NULL,"
            + " \"Z_OPT\" bigint, \"ZAGE\" integer, \"ZID\" bigint, \"ZTEAM\" bigint,"
            + " \"ZCREATED\" double precision, \"ZSCORE\" double precision, \"ZEMAIL\" text,"
            + " \"ZNAME\" text)",
        "CREATE TABLE \"ZTEAM\" (\"Z_PK\" bigint PRIMARY KEY, \"Z_ENT\" integer NOT NULL,"
            + " \"Z_OPT\" bigint, \"ZNAME\" text)",
        "CREATE INDEX \"ZPERSON_ZTEAM_INDEX\" ON \"ZPERSON\" (\"ZTEAM\")",
        "CREATE INDEX \"Z_Person_byIdIndex\" ON \"ZPERSON\" (\"ZID\")",
        "CREATE INDEX \"Z_Person_byNameIndex\" ON \"ZPERSON\" (\"ZNAME\")",
        "INSERT INTO \"Z_PRIMARYKEY\" VALUES (1, 'Person', 0, 0), (2, 'Team', 0, 0)",
    ]

    static let personColumns =
        "\"Z_PK\", \"Z_OPT\", \"ZTEAM\", \"ZID\", \"ZNAME\", \"ZAGE\", \"ZEMAIL\", \"ZSCORE\","
        + " \"ZCREATED\""

    /// Creates this side's schema and tables (untimed: ObjectGraph's store makes its own
    /// when it is added).
    static func createTables(conninfo: String, schema: String) throws {
        let db = try RawPostgres(conninfo: conninfo, schema: schema)
        try db.execute("CREATE SCHEMA \"\(schema)\"")
        for statement in schemaStatements { try db.execute(statement) }
    }

    func run(
        _ operation: String, queries: Int, writer: Int = 0, writers: Int = 1, startAt: Double = 0
    ) throws -> SideResult {
        if operation == "insert" { try Self.createTables(conninfo: conninfo, schema: schema) }
        var db = try RawPostgres(conninfo: conninfo, schema: schema)
        if operation == "batch_insert", try !Self.hasTables(db) {
            // Run alone (`--ops batch_insert`): the store is new, as ObjectGraph's.
            try Self.createTables(conninfo: conninfo, schema: schema)
            db = try RawPostgres(conninfo: conninfo, schema: schema)
        }
        if operation == "pg_saver" {
            return try PostgresSavers.raw(
                db, n: n, writer: writer, writers: writers, startAt: startAt)
        }
        if BatchBenchmark.operations.contains(operation) {
            return try RawPostgresBatch.run(operation, n: n, db: db)
        }
        let start = Clock.now()
        let startCPU = Clock.cpu()
        var result: SideResult
        switch operation {
        case "insert": result = try insert(db)
        case "fetch_all": result = try fetchAll(db)
        case "query": result = try query(db, queries: queries)
        case "update_all": result = try updateAll(db)
        case "prefetch": result = try prefetch(db)
        case "aggregate": result = try RawPostgresBatch.aggregate(db, runs: queries)
        case "delete_all": result = try deleteAll(db)
        default: throw BenchError.usage("the PostgreSQL runs have no operation '\(operation)'")
        }
        result.seconds = Clock.now() - start
        result.cpuSeconds = Clock.cpu() - startCPU
        retained.values.append(db)
        return result
    }

    /// Whether the search path's schema holds the tables.
    static func hasTables(_ db: RawPostgres) throws -> Bool {
        let result = try db.run("has_tables", "SELECT to_regclass('\"ZPERSON\"') IS NOT NULL")
        defer { result.clear() }
        return result.string(0, 0) == "t"
    }

    /// Reserves `count` keys of entity `number` in `Z_PRIMARYKEY`; returns the first.
    static func reserveKeys(_ db: RawPostgres, entity number: Int, count: Int) throws -> Int64 {
        let result = try db.run(
            "reserve",
            "UPDATE \"Z_PRIMARYKEY\" SET \"Z_MAX\" = \"Z_MAX\" + $1 WHERE \"Z_ENT\" = $2"
                + " RETURNING \"Z_MAX\"", [String(count), String(number)])
        defer { result.clear() }
        return result.int64(0, 0) - Int64(count) + 1
    }

    /// Inserts people `range` (``Workload/person(_:)``) with keys from `firstKey`, each in team
    /// row `teamKeys[team of person]`; returns their checksum.
    static func insertPeople(
        _ db: RawPostgres, _ range: Range<Int>, firstKey: Int64, teamKeys: [Int64]
    ) throws -> Int64 {
        var checksum: Int64 = 0
        var people: [RawPostgresSetInsert.Person] = []
        people.reserveCapacity(range.count)
        for (offset, index) in range.enumerated() {
            let values = Workload.person(index)
            let team = teamKeys[Workload.team(ofPerson: index, teams: teamKeys.count)]
            people.append((firstKey + Int64(offset), team, values))
            checksum &+= values.checksum
        }
        try RawPostgresSetInsert.people(people, name: "insert_person", db)
        return checksum
    }

    /// Inserts `count` teams named from `firstName` on; returns their keys.
    static func insertTeams(_ db: RawPostgres, count: Int, firstName: Int) throws -> [Int64] {
        let first = try reserveKeys(db, entity: 2, count: count)
        let keys = (0..<count).map { first + Int64($0) }
        try RawPostgresSetInsert.teams(
            keys: keys, names: (0..<count).map { Workload.teamName(firstName + $0) },
            name: "insert_team", db)
        return keys
    }

    private func insert(_ db: RawPostgres) throws -> SideResult {
        try db.transaction {
            let teams = try Self.insertTeams(
                db, count: Workload.teamCount(people: n), firstName: 0)
            let first = try Self.reserveKeys(db, entity: 1, count: n)
            let checksum = try Self.insertPeople(db, 0..<n, firstKey: first, teamKeys: teams)
            return SideResult(seconds: 0, checksum: checksum, count: n)
        }
    }

    /// The people of `result` (columns as ``personColumns``).
    private func people(_ result: RawPostgresResult) -> [RawPerson] {
        (0..<result.rowCount).map { row in
            RawPerson(
                pk: result.int64(row, 0), version: result.int64(row, 1),
                team: result.int64(row, 2),
                values: PersonValues(
                    id: result.int64(row, 3), name: result.string(row, 4),
                    age: Int32(truncatingIfNeeded: result.int64(row, 5)),
                    email: result.string(row, 6), score: result.double(row, 7),
                    created: result.double(row, 8)))
        }
    }

    private func fetchAll(_ db: RawPostgres) throws -> SideResult {
        let result = try db.run("all", "SELECT \(Self.personColumns) FROM \"ZPERSON\"")
        let people = people(result)
        result.clear()
        var checksum: Int64 = 0
        for person in people { checksum &+= person.values.checksum }
        retained.values.append(people)
        return SideResult(seconds: 0, checksum: checksum, count: people.count)
    }

    private func query(_ db: RawPostgres, queries: Int) throws -> SideResult {
        // `name BEGINSWITH 'J'` as a range on the name index (the server's collation is C).
        var checksum: Int64 = 0
        for _ in 0..<queries {
            let result = try db.run(
                "query",
                "SELECT \(Self.personColumns) FROM \"ZPERSON\" WHERE \"ZAGE\" > $1 AND"
                    + " \"ZNAME\" >= $2 AND \"ZNAME\" < $3 ORDER BY \"ZNAME\" LIMIT $4",
                ["30", "J", "K", String(Workload.queryLimit)])
            let page = people(result)
            result.clear()
            for person in page { checksum &+= person.values.checksum }
        }
        return SideResult(seconds: 0, checksum: checksum, count: queries)
    }

    private func updateAll(_ db: RawPostgres) throws -> SideResult {
        try db.transaction {
            let read = try db.run(
                "scores", "SELECT \"Z_PK\", \"Z_OPT\", \"ZSCORE\" FROM \"ZPERSON\"")
            let rows = (0..<read.rowCount).map {
                (pk: read.int64($0, 0), version: read.int64($0, 1), score: read.double($0, 2))
            }
            read.clear()
            var checksum: Int64 = 0
            for row in rows {
                let updated = Workload.updatedScore(row.score)
                let result = try db.run(
                    "update",
                    "UPDATE \"ZPERSON\" SET \"ZSCORE\" = $1, \"Z_OPT\" = $2 WHERE \"Z_PK\" = $3"
                        + " AND \"Z_OPT\" = $4",
                    ["\(updated)", String(row.version + 1), String(row.pk), String(row.version)])
                defer { result.clear() }
                guard result.affectedRows == 1 else {
                    throw BenchError.failed("raw update of ZPERSON row \(row.pk) found no row")
                }
                checksum &+= Int64((updated * 10).rounded())
            }
            retained.values.append(rows)
            return SideResult(seconds: 0, checksum: checksum, count: rows.count)
        }
    }

    private func prefetch(_ db: RawPostgres) throws -> SideResult {
        let teamRows = try db.run("teams", "SELECT \"Z_PK\", \"ZNAME\" FROM \"ZTEAM\"")
        let teams = (0..<teamRows.rowCount).map {
            (pk: teamRows.int64($0, 0), name: teamRows.string($0, 1))
        }
        teamRows.clear()
        // One query for every team's members, grouped by team: what prefetching does.
        let memberRows = try db.run(
            "members",
            "SELECT \(Self.personColumns) FROM \"ZPERSON\" WHERE \"ZTEAM\" IS NOT NULL")
        var members: [Int64: [RawPerson]] = [:]
        for person in people(memberRows) { members[person.team, default: []].append(person) }
        memberRows.clear()
        var checksum: Int64 = 0
        var count = 0
        for team in teams {
            checksum &+= Int64(team.name.utf8.count)
            for person in members[team.pk] ?? [] {
                checksum &+= person.values.checksum
                count += 1
            }
        }
        retained.values.append(members)
        return SideResult(seconds: 0, checksum: checksum, count: count)
    }

    private func deleteAll(_ db: RawPostgres) throws -> SideResult {
        try db.transaction {
            var deleted = 0
            var people = 0
            for table in ["ZPERSON", "ZTEAM"] {
                let read = try db.run(
                    "keys_\(table)", "SELECT \"Z_PK\", \"Z_OPT\" FROM \"\(table)\"")
                let rows = (0..<read.rowCount).map {
                    (pk: read.int64($0, 0), version: read.int64($0, 1))
                }
                read.clear()
                for row in rows {
                    let result = try db.run(
                        "delete_\(table)",
                        "DELETE FROM \"\(table)\" WHERE \"Z_PK\" = $1 AND \"Z_OPT\" = $2",
                        [String(row.pk), String(row.version)])
                    defer { result.clear() }
                    guard result.affectedRows == 1 else {
                        throw BenchError.failed("raw delete of \(table) row \(row.pk) found no row")
                    }
                }
                deleted += rows.count
                retained.values.append(rows)
                if table == "ZPERSON" { people = rows.count }
            }
            return SideResult(seconds: 0, checksum: Int64(deleted), count: people)
        }
    }
}

extension RawPerson {
    init(pk: Int64, version: Int64, team: Int64, values: PersonValues) {
        self.pk = pk
        self.version = version
        self.team = team
        self.values = values
    }
}
