import Foundation
import SQLiteDatabase
import Testing

@Suite("SQL log: each statement, its time, rows and bound values")
struct SQLLogTests {
    /// A log at `level` whose entries are kept in `entries`.
    static func collecting(_ level: SQLLog.Level) -> (SQLLog, Locked<[SQLLogEntry]>) {
        let entries = Locked<[SQLLogEntry]>([])
        let handler = SQLLogHandler { entry in entries.withValue { $0.append(entry) } }
        return (SQLLog(level: level, handler: handler), entries)
    }

    /// Creates `player`, inserts two rows and reads them back with a bound value, logged at
    /// `level` from the open on; returns the entries of the insert and of the select.
    static func run(_ level: SQLLog.Level) throws -> (insert: SQLLogEntry?, select: SQLLogEntry?) {
        let (log, entries) = collecting(level)
        try withDatabase(options: Database.Options(sqlLog: log)) { db, _ in
            try db.execute(sql: "CREATE TABLE player (name TEXT, score INTEGER)")
            try db.execute(
                sql: "INSERT INTO player VALUES (?, ?), ('Bo', 3)", arguments: ["Ann", 10])
            _ = try db.fetchAll(sql: "SELECT name FROM player WHERE score > ?", arguments: [1])
        }
        let all = entries.withValue { $0 }
        return (
            all.first { $0.sql.hasPrefix("INSERT") }, all.first { $0.sql.hasPrefix("SELECT") }
        )
    }

    @Test("level 1: the SQL and its time, nothing more")
    func statements() throws {
        let (insert, select) = try Self.run(.statements)
        let entry = try #require(select)
        #expect(entry.sql == "SELECT name FROM player WHERE score > ?")
        #expect(entry.duration >= 0)
        #expect(entry.rowsReturned == nil && entry.rowsChanged == nil && entry.arguments == nil)
        #expect(entry.lines.count == 2)
        #expect(entry.lines[0] == "sql: SELECT name FROM player WHERE score > ?")
        #expect(entry.lines[1].hasPrefix("time: 0.") && entry.lines[1].hasSuffix("s"))
        #expect(insert?.rowsChanged == nil)
    }

    @Test("level 2: also the rows returned and the rows changed")
    func rowCounts() throws {
        let (insert, select) = try Self.run(.rowCounts)
        #expect(select?.rowsReturned == 2)
        #expect(select?.rowsChanged == nil)
        #expect(select?.lines.contains("annotation: fetch returned 2 rows") == true)
        #expect(insert?.rowsChanged == 2)
        #expect(insert?.rowsReturned == nil)
        #expect(insert?.lines.contains("annotation: changed 2 rows") == true)
        #expect(select?.arguments == nil)
    }

    @Test("level 3: also the bound values, in parameter order")
    func boundValues() throws {
        let (insert, select) = try Self.run(.boundValues)
        #expect(insert?.arguments == [.text("Ann"), .integer(10)])
        #expect(select?.arguments == [.integer(1)])
        let lines = try #require(insert?.lines)
        #expect(lines[1] == "bind[1] = 'Ann'")
        #expect(lines[2] == "bind[2] = 10")
    }

    @Test("a cursor left before its last row is reported when it is reset, with the rows read")
    func interruptedCursor() throws {
        let (log, entries) = Self.collecting(.rowCounts)
        try withDatabase { db, _ in
            try db.execute(sql: "CREATE TABLE t (v); INSERT INTO t VALUES (1), (2), (3)")
            try db.setSQLLog(log)
            #expect(db.sqlLog == log)
            _ = try db.fetchOne(sql: "SELECT v FROM t")
        }
        let select = entries.withValue { $0 }.first { $0.sql == "SELECT v FROM t" }
        #expect(select?.rowsReturned == 1)
    }

    @Test("no entry once the log is removed, nor without one")
    func off() throws {
        let (log, entries) = Self.collecting(.boundValues)
        try withDatabase { db, _ in
            try db.execute(sql: "CREATE TABLE t (v)")
            #expect(db.sqlLog == nil)
            try db.setSQLLog(log)
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            try db.setSQLLog(nil)
            #expect(db.sqlLog == nil)
            try db.execute(sql: "INSERT INTO t VALUES (2)")
            _ = try db.fetchAll(sql: "SELECT v FROM t")
        }
        #expect(entries.withValue { $0 }.map(\.sql) == ["INSERT INTO t VALUES (1)"])
    }

    @Test("a trace observer and a log work side by side")
    func withTrace() throws {
        let (log, entries) = Self.collecting(.statements)
        let traced = Locked<[String]>([])
        try withDatabase { db, _ in
            try db.trace { sql in traced.withValue { $0.append(sql) } }
            try db.setSQLLog(log)
            try db.execute(sql: "CREATE TABLE t (v)")
            try db.trace(nil)
            try db.execute(sql: "INSERT INTO t VALUES (1)")
        }
        #expect(traced.withValue { $0 } == ["CREATE TABLE t (v)"])
        #expect(
            entries.withValue { $0 }.map(\.sql) == [
                "CREATE TABLE t (v)", "INSERT INTO t VALUES (1)",
            ])
    }

    @Test(
        "OBJECTGRAPH_SQL_DEBUG values",
        arguments: [
            ("1", SQLLog.Level.statements), ("2", .rowCounts), ("3", .boundValues),
            (" 2 ", .rowCounts), ("9", .boundValues), ("0", nil), ("-1", nil), ("", nil),
            ("yes", nil), (nil, nil),
        ] as [(String?, SQLLog.Level?)])
    func environmentValues(value: String?, level: SQLLog.Level?) {
        #expect(SQLLog.Level(environmentValue: value) == level)
        let environment = value.map { [SQLLog.environmentVariable: $0] } ?? [:]
        #expect(SQLLog.fromEnvironment(environment)?.level == level)
    }

    @Test("entry lines: times with four decimals, long values cut with their length")
    func entryLines() {
        let entry = SQLLogEntry(
            sql: "INSERT INTO t VALUES (?, ?)", duration: 0.00123, level: .boundValues,
            rowsChanged: 1,
            arguments: [.text(String(repeating: "x", count: 500)), .blob(Data([1, 255]))])
        #expect(entry.lines.count == 5)
        #expect(entry.lines[1].hasSuffix("… (500 characters)"))
        #expect(entry.lines[2] == "bind[2] = X'01FF'")
        #expect(entry.lines[3] == "annotation: changed 1 row")
        #expect(entry.lines[4] == "time: 0.0012s")
        #expect(entry.description == entry.lines.joined(separator: "\n"))
    }

    @Test("queryPlan shows an index search for an indexed column and a scan otherwise")
    func queryPlan() throws {
        try withDatabase { db, _ in
            try db.execute(
                sql: "CREATE TABLE player (name TEXT, score INTEGER);"
                    + " CREATE INDEX player_name ON player (name)")
            let search = try db.queryPlan(
                sql: "SELECT * FROM player WHERE name = ?", arguments: ["Ann"])
            #expect(search.usesIndex("player_name"))
            #expect(!search.scansTable)
            #expect(search.description.contains("rows found through index player_name"))
            let scan = try db.queryPlan(sql: "SELECT * FROM player WHERE score > 3 ORDER BY score")
            #expect(scan.scansTable)
            #expect(scan.indexNames.isEmpty)
            #expect(scan.lines.first == "QUERY PLAN")
            #expect(scan.description.contains("every row is read"))
            #expect(scan.description.contains("USE TEMP B-TREE FOR ORDER BY"))
        }
    }
}
