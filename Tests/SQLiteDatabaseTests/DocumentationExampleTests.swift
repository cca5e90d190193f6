import Foundation
import SQLiteDatabase
import Testing

/// The examples of the doc comments, compiled and run, so that they cannot rot.
@Suite("Documentation examples")
struct DocumentationExampleTests {
    @Test("Database overview")
    func databaseOverview() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try Database(path: directory.path("app.sqlite"))
        try db.execute(
            sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER);
                CREATE INDEX player_name ON player (name);
                """)
        try db.inTransaction(.immediate) { db in
            try db.execute(
                sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Ann", 10])
        }
        let best = try db.fetchOne(sql: "SELECT name FROM player ORDER BY score DESC LIMIT 1")
        #expect(try best?.decode(String.self, at: 0) == "Ann")
        try db.close()
    }

    @Test("Statement, cursor and row reading")
    func statementsAndCursors() throws {
        try withDatabase { db, _ throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score)")
            let scores = [("Ann", 150), ("Bob", 50)]
            let insert = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
            for (name, score) in scores {
                try insert.execute(arguments: [name, score])
            }
            let select = try db.makeStatement(sql: "SELECT name FROM player WHERE score > :min")
            try select.bind(100, named: "min")
            let names = try select.fetchAll().map { try $0.decode(String.self, at: 0) }
            #expect(names == ["Ann"])

            let cursor = try db.makeCursor(sql: "SELECT id, name FROM player ORDER BY id")
            var read: [String] = []
            while try cursor.step() {
                let id: Int64 = try cursor.decode(at: 0)
                let name: String? = try cursor.decode(at: 1)
                read.append("\(id) \(name ?? "-")")
            }
            #expect(read == ["1 Ann", "2 Bob"])

            if let row = try db.fetchOne(
                sql: "SELECT id, name FROM player WHERE id = ?", arguments: [1])
            {
                let id: Int64 = try row.decode(at: 0)
                let name: String? = try row.decode(named: "name")
                #expect(id == 1 && name == "Ann")
                #expect(row["name"] ?? .null == .text("Ann"))
            }
            let count = try db.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM player") ?? 0
            #expect(count == 2)
        }
    }

    @Test("Transactions, savepoints and user_version")
    func transactions() throws {
        try withDatabase { db, _ throws in
            try db.execute(
                sql: """
                    CREATE TABLE account (id INTEGER PRIMARY KEY, balance INTEGER);
                    CREATE TABLE log (message TEXT);
                    INSERT INTO account VALUES (1, 100), (2, 0);
                    """)
            let (amount, from, to) = (30, 1, 2)
            try db.inTransaction(.immediate) { db in
                try db.execute(
                    sql: "UPDATE account SET balance = balance - ? WHERE id = ?",
                    arguments: [amount, from])
                try db.execute(
                    sql: "UPDATE account SET balance = balance + ? WHERE id = ?",
                    arguments: [amount, to])
            }
            #expect(
                try db.fetchValue(Int.self, sql: "SELECT balance FROM account WHERE id = 2") == 30)

            try db.inTransaction { db in
                try db.execute(sql: "INSERT INTO log (message) VALUES ('kept')")
                try? db.inSavepoint(named: "attempt") { db in
                    try db.execute(sql: "INSERT INTO log (message) VALUES ('undone')")
                    throw CancellationError()
                }
            }
            #expect(try db.fetchAll(sql: "SELECT message FROM log").count == 1)

            if try db.userVersion < 2 {
                try db.inTransaction { db in
                    try db.execute(sql: "ALTER TABLE account ADD COLUMN email TEXT")
                    try db.setUserVersion(2)
                }
            }
            #expect(try db.userVersion == 2)
        }
    }

    @Test("DatabaseQueue")
    func queue() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("queue.sqlite")
        let queue = try DatabaseQueue(path: path, options: .init(busyTimeout: 5, journalMode: .wal))
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE player (name TEXT)")
            try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Ann"])
        }
        let count = try queue.read { db in
            try db.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM player") ?? 0
        }
        let names = try await queue.asyncRead { db in
            try db.fetchAll(sql: "SELECT name FROM player").map {
                try $0.decode(String.self, at: 0)
            }
        }
        #expect(count == 1)
        #expect(names == ["Ann"])
        try queue.close()
    }

    @Test("Functions, collations and quoting")
    func functionsAndQuoting() throws {
        try withDatabase { db, _ throws in
            try db.createFunction(name: "reverse", argumentCount: 1, deterministic: true) { args in
                guard case .text(let text) = args[0] else { return .null }
                return .text(String(text.reversed()))
            }
            #expect(try db.fetchValue(String.self, sql: "SELECT reverse('abc')") == "cba")

            try db.createCollation(name: "localized") { $0.localizedStandardCompare($1) }
            try db.execute(
                sql: "CREATE TABLE player (name TEXT); INSERT INTO player VALUES ('b'), ('a')")
            let rows = try db.fetchAll(
                sql: "SELECT name FROM player ORDER BY name COLLATE localized")
            #expect(rows.map(\.values) == [[.text("a")], [.text("b")]])

            let tableName = "player"
            let sql = "SELECT * FROM " + quoteIdentifier(tableName) + " WHERE name = ?"
            #expect(try db.fetchAll(sql: sql, arguments: ["a"]).count == 1)
        }
    }

    @Test("Errors")
    func errors() throws {
        try withDatabase { db, _ throws in
            try db.execute(sql: "CREATE TABLE user (email TEXT UNIQUE)")
            let email = "a@example.com"
            try db.execute(sql: "INSERT INTO user (email) VALUES (?)", arguments: [email])
            var duplicate = false
            do {
                try db.execute(sql: "INSERT INTO user (email) VALUES (?)", arguments: [email])
            } catch let error as DatabaseError where error.extendedResultCode == .constraintUnique {
                duplicate = true
                #expect(
                    error.description
                        == "SQLITE_CONSTRAINT_UNIQUE (2067): UNIQUE constraint failed: user.email"
                        + " - while executing `INSERT INTO user (email) VALUES (?)`")
            }
            #expect(duplicate)
        }
    }
}
