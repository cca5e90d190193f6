import CSQLite
import Foundation

/// Runs one operation through hand-written sqlite3 C calls: the same Core Data file layout
/// ObjectGraph writes (`ZPERSON`/`ZTEAM` with `Z_PK`, `Z_ENT`, `Z_OPT`, the same indexes,
/// `Z_PRIMARYKEY`, `Z_METADATA`, WAL, incremental auto-vacuum), prepared statements reused for
/// every row, one transaction per writing operation, `Z_OPT` checked and bumped per row as
/// ObjectGraph does.
///
/// Rows are read into plain structs (`RawPerson`), the raw counterpart of managed objects.
/// Opening the file (and, for `insert`, creating the schema) is not timed; the rows read are
/// kept until the clock has stopped (as ObjectGraph's context keeps its objects).
struct RawSQLiteRunner {
    let n: Int
    let path: String
    /// What the operation read, released only after timing.
    let retained: Retained

    init(n: Int, path: String, retained: Retained = Retained()) {
        self.n = n
        self.path = path
        self.retained = retained
    }

    /// `Z_ENT` of each entity (Core Data numbers entities alphabetically from 1).
    static let personEntity: Int64 = 1
    static let teamEntity: Int64 = 2

    /// The schema, exactly as ObjectGraph's store creates it for ``Workload/model()``.
    static let schema = [
        """
        CREATE TABLE "ZPERSON" ( "Z_PK" INTEGER PRIMARY KEY, "Z_ENT" INTEGER, "Z_OPT" INTEGER, \
        "ZAGE" INTEGER, "ZID" INTEGER, "ZTEAM" INTEGER, "ZCREATED" TIMESTAMP, "ZSCORE" FLOAT, \
        "ZEMAIL" VARCHAR, "ZNAME" VARCHAR )
        """,
        """
        CREATE TABLE "ZTEAM" ( "Z_PK" INTEGER PRIMARY KEY, "Z_ENT" INTEGER, "Z_OPT" INTEGER, \
        "ZNAME" VARCHAR )
        """,
        """
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, \
        Z_MAX INTEGER)
        """,
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
        "CREATE INDEX \"ZPERSON_ZTEAM_INDEX\" ON \"ZPERSON\" (\"ZTEAM\")",
        "CREATE INDEX \"Z_Person_byIdIndex\" ON \"ZPERSON\" (\"ZID\" COLLATE BINARY ASC)",
        "CREATE INDEX \"Z_Person_byNameIndex\" ON \"ZPERSON\" (\"ZNAME\" COLLATE BINARY ASC)",
    ]

    /// Every column of a person row, in the order `RawPerson(statement)` reads them.
    static let personColumns =
        "Z_PK, Z_OPT, ZTEAM, ZID, ZNAME, ZAGE, ZEMAIL, ZSCORE, ZCREATED"

    /// Inserts a person row (bound by ``insertPerson(_:key:team:with:)``).
    static let insertPersonSQL =
        "INSERT INTO ZPERSON (Z_PK, Z_ENT, Z_OPT, ZTEAM, ZID, ZNAME, ZAGE, ZEMAIL, ZSCORE, "
        + "ZCREATED) VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?)"

    /// Inserts person `index` (``Workload/person(_:)``) as row `key` in team row `team`, with
    /// `statement` (prepared from ``insertPersonSQL``); returns the person's checksum.
    static func insertPerson(_ index: Int, key: Int64, team: Int64, with statement: RawStatement)
        throws -> Int64
    {
        let values = Workload.person(index)
        statement.bind(1, key)
        statement.bind(2, personEntity)
        statement.bind(3, team)
        statement.bind(4, values.id)
        statement.bind(5, values.name)
        statement.bind(6, Int64(values.age))
        statement.bind(7, values.email)
        statement.bind(8, values.score)
        statement.bind(9, values.created)
        try statement.run()
        return values.checksum
    }

    /// Runs `operation`; `queries` is the exact number of `query` fetches.
    func run(_ operation: String, queries: Int) throws -> SideResult {
        if operation == "concurrent_import" {
            return try RawConcurrentImport(n: n, path: path).run()
        }
        if operation == "migrate" { return try MigrateBenchmark.raw(n: n, path: path) }
        let isNew = !FileManager.default.fileExists(atPath: path)
        let db = try RawDatabase(path: path)
        if isNew { try createSchema(db) }
        if BatchBenchmark.operations.contains(operation) {
            return try BatchBenchmark.raw(operation, n: n, db: db)
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
        case "aggregate": result = try AggregateBenchmark.raw(db, runs: queries)
        case "delete_all": result = try deleteAll(db)
        default: throw BenchError.usage("unknown operation '\(operation)'")
        }
        result.seconds = Clock.now() - start
        result.cpuSeconds = Clock.cpu() - startCPU
        return result
    }

    /// Creates the schema, the primary-key table and the metadata in a new file, and switches
    /// it to WAL.
    func createSchema(_ db: RawDatabase) throws {
        try db.execute("PRAGMA auto_vacuum = 2")
        try db.execute("BEGIN IMMEDIATE")
        for sql in Self.schema { try db.execute(sql) }
        let keys = try db.prepare(
            "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, 0)")
        for (number, name) in [(Self.personEntity, "Person"), (Self.teamEntity, "Team")] {
            keys.bind(1, number)
            keys.bind(2, name)
            try keys.run()
        }
        let metadata = try db.prepare(
            "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, NULL)")
        metadata.bind(1, UUID().uuidString)
        try metadata.run()
        try db.execute("COMMIT")
        try db.execute("PRAGMA journal_mode = WAL")
    }

    private func insert(_ db: RawDatabase) throws -> SideResult {
        let teamCount = Workload.teamCount(people: n)
        return try db.transaction {
            let teams = try db.prepare(
                "INSERT INTO ZTEAM (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, 1, ?)")
            for index in 0..<teamCount {
                teams.bind(1, Int64(index + 1))
                teams.bind(2, Self.teamEntity)
                teams.bind(3, Workload.teamName(index))
                try teams.run()
            }
            let people = try db.prepare(Self.insertPersonSQL)
            var checksum: Int64 = 0
            for index in 0..<n {
                checksum &+= try Self.insertPerson(
                    index, key: Int64(index + 1),
                    team: Int64(Workload.team(ofPerson: index, teams: teamCount) + 1), with: people)
            }
            let keys = try db.prepare("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?")
            for (number, count) in [(Self.personEntity, n), (Self.teamEntity, teamCount)] {
                keys.bind(1, Int64(count))
                keys.bind(2, number)
                try keys.run()
            }
            return SideResult(seconds: 0, checksum: checksum, count: n)
        }
    }

    private func fetchAll(_ db: RawDatabase) throws -> SideResult {
        let select = try db.prepare("SELECT \(Self.personColumns) FROM ZPERSON")
        var people: [RawPerson] = []
        while try select.step() { people.append(RawPerson(select)) }
        var checksum: Int64 = 0
        for person in people { checksum &+= person.values.checksum }
        retained.values.append(people)
        return SideResult(seconds: 0, checksum: checksum, count: people.count)
    }

    private func query(_ db: RawDatabase, queries: Int) throws -> SideResult {
        // `name BEGINSWITH 'J'` (case- and diacritic-sensitive) as an index range on ZNAME.
        let select = try db.prepare(
            "SELECT \(Self.personColumns) FROM ZPERSON WHERE ZAGE > ? AND ZNAME >= ? AND ZNAME < ?"
                + " ORDER BY ZNAME LIMIT ?")
        var checksum: Int64 = 0
        for _ in 0..<queries {
            select.bind(1, Int64(30))
            select.bind(2, "J")
            select.bind(3, "K")
            select.bind(4, Int64(Workload.queryLimit))
            var page: [RawPerson] = []
            while try select.step() { page.append(RawPerson(select)) }
            select.reset()
            for person in page { checksum &+= person.values.checksum }
        }
        return SideResult(seconds: 0, checksum: checksum, count: queries)
    }

    private func updateAll(_ db: RawDatabase) throws -> SideResult {
        try db.transaction {
            let select = try db.prepare("SELECT Z_PK, Z_OPT, ZSCORE FROM ZPERSON")
            var rows: [(pk: Int64, version: Int64, score: Double)] = []
            while try select.step() {
                rows.append((select.int64(0), select.int64(1), select.double(2)))
            }
            let update = try db.prepare(
                "UPDATE ZPERSON SET ZSCORE = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?")
            var checksum: Int64 = 0
            for row in rows {
                let updated = Workload.updatedScore(row.score)
                update.bind(1, updated)
                update.bind(2, row.version + 1)
                update.bind(3, row.pk)
                update.bind(4, row.version)
                try update.run()
                guard sqlite3_changes(db.handle) == 1 else {
                    throw BenchError.failed("raw update of ZPERSON row \(row.pk) found no row")
                }
                checksum &+= Int64((updated * 10).rounded())
            }
            retained.values.append(rows)
            return SideResult(seconds: 0, checksum: checksum, count: rows.count)
        }
    }

    private func prefetch(_ db: RawDatabase) throws -> SideResult {
        let teamsSelect = try db.prepare("SELECT Z_PK, ZNAME FROM ZTEAM")
        var teams: [(pk: Int64, name: String)] = []
        while try teamsSelect.step() { teams.append((teamsSelect.int64(0), teamsSelect.string(1))) }
        // One query for every team's members, grouped by team: what prefetching does.
        let membersSelect = try db.prepare(
            "SELECT \(Self.personColumns) FROM ZPERSON WHERE ZTEAM IS NOT NULL")
        var members: [Int64: [RawPerson]] = [:]
        while try membersSelect.step() {
            let person = RawPerson(membersSelect)
            members[person.team, default: []].append(person)
        }
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

    private func deleteAll(_ db: RawDatabase) throws -> SideResult {
        try db.transaction {
            var deleted = 0
            var people = 0
            for table in ["ZPERSON", "ZTEAM"] {
                let select = try db.prepare("SELECT Z_PK, Z_OPT FROM \(table)")
                var rows: [(pk: Int64, version: Int64)] = []
                while try select.step() { rows.append((select.int64(0), select.int64(1))) }
                let delete = try db.prepare("DELETE FROM \(table) WHERE Z_PK = ? AND Z_OPT = ?")
                for row in rows {
                    delete.bind(1, row.pk)
                    delete.bind(2, row.version)
                    try delete.run()
                    guard sqlite3_changes(db.handle) == 1 else {
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

/// A person row read by the raw runner: the raw counterpart of a managed object.
struct RawPerson {
    var pk: Int64
    var version: Int64
    var team: Int64
    var values: PersonValues

    /// Reads the row under `statement` (columns as ``RawSQLiteRunner/personColumns``).
    init(_ statement: RawStatement) {
        pk = statement.int64(0)
        version = statement.int64(1)
        team = statement.int64(2)
        values = PersonValues(
            id: statement.int64(3), name: statement.string(4),
            age: Int32(truncatingIfNeeded: statement.int64(5)),
            email: statement.string(6), score: statement.double(7),
            created: statement.double(8))
    }
}
