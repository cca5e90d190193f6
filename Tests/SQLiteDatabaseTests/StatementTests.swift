import Foundation
import SQLiteDatabase
import Testing

@Suite("Statements, arguments, rows and cursors")
struct StatementTests {
    private func withPlayers(_ body: (Database) throws -> Void) throws {
        try withDatabase { db, _ throws in
            try db.execute(
                sql: """
                    CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
                    INSERT INTO player (name, score) VALUES ('Ann', 10), ('Bob', 20), ('Cid', NULL);
                    """)
            try body(db)
        }
    }

    @Test("positional arguments bind in order")
    func positionalArguments() throws {
        try withPlayers { db throws in
            try db.execute(
                sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Dee", 40])
            let row = try #require(
                try db.fetchOne(
                    sql: "SELECT name, score FROM player WHERE score = ?", arguments: [40]))
            #expect(try row.decode(String.self, at: 0) == "Dee")
            let numbered = try db.fetchValue(
                String.self, sql: "SELECT ?2 || ?1", arguments: ["a", "b"])
            #expect(numbered == "ba")
        }
    }

    @Test("named arguments bind with :, @ and $ prefixes, keys with or without prefix")
    func namedArguments() throws {
        try withPlayers { db throws in
            let row = try #require(
                try db.fetchOne(
                    sql: "SELECT :a, @b, $c, :a",
                    arguments: ["a": 1, ":b": "two", "$c": nil]))
            #expect(row.values == [.integer(1), .text("two"), .null, .integer(1)])

            let missing = thrownError {
                _ = try db.fetchOne(sql: "SELECT :a, :b", arguments: ["a": 1])
            }
            let error = try #require(missing as? DatabaseError)
            #expect(error.resultCode == .misuse)
            #expect(error.message.contains(":b"))
        }
    }

    @Test("a wrong number of positional arguments is an error, not a silent NULL")
    func wrongArgumentCount() throws {
        try withPlayers { db throws in
            let tooFew = thrownError { _ = try db.fetchAll(sql: "SELECT ?, ?", arguments: [1]) }
            #expect((tooFew as? DatabaseError)?.resultCode == .misuse)
            let tooMany = thrownError { _ = try db.fetchAll(sql: "SELECT ?", arguments: [1, 2]) }
            #expect((tooMany as? DatabaseError)?.resultCode == .misuse)
            let execute = thrownError { try db.execute(sql: "SELECT ?", arguments: [1, 2]) }
            #expect((execute as? DatabaseError)?.resultCode == .misuse)
        }
    }

    @Test("binding by index and by name on a statement, and clearing bindings")
    func bindIndividually() throws {
        try withPlayers { db throws in
            let statement = try db.makeStatement(sql: "SELECT ?1, :name")
            #expect(statement.parameterCount == 2)
            #expect(statement.parameterNames == ["?1", ":name"])
            #expect(statement.columnCount == 2)
            try statement.bind(7, at: 1)
            try statement.bind("x", named: "name")
            #expect(try statement.fetchOne()?.values == [.integer(7), .text("x")])
            try statement.bind(nil, named: ":name")
            #expect(try statement.fetchOne()?.values == [.integer(7), .null])
            statement.clearBindings()
            #expect(try statement.fetchOne()?.values == [.null, .null])

            let badIndex = thrownError { try statement.bind(1, at: 3) }
            #expect((badIndex as? DatabaseError)?.resultCode == .range)
            let badName = thrownError { try statement.bind(1, named: "nope") }
            #expect((badName as? DatabaseError)?.resultCode == .range)
        }
    }

    @Test("a prepared statement runs many times with new arguments")
    func reuseStatement() throws {
        try withPlayers { db throws in
            let insert = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
            #expect(!insert.isReadOnly)
            for index in 0..<100 {
                try insert.execute(arguments: ["p\(index)", index])
            }
            #expect(try db.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM player") == 103)
            #expect(try db.fetchValue(Int.self, sql: "SELECT SUM(score) FROM player") == 4980)
        }
    }

    @Test("a cursor reads rows one at a time, by index and by name")
    func cursor() throws {
        try withPlayers { db throws in
            let cursor = try db.makeCursor(sql: "SELECT id, name, score FROM player ORDER BY id")
            #expect(cursor.columnNames == ["id", "name", "score"])
            var seen: [String] = []
            var scores: [Int?] = []
            while try cursor.step() {
                seen.append(try cursor.decode(String.self, at: 1))
                scores.append(try cursor.decode(Int?.self, named: "SCORE"))
            }
            #expect(seen == ["Ann", "Bob", "Cid"])
            #expect(scores == [10, 20, nil])
            #expect(try cursor.step() == false)
            #expect(throws: RowDecodingError.self) { try cursor.value(at: 0) }

            let rows = try db.makeCursor(sql: "SELECT name FROM player ORDER BY id")
            #expect(try rows.next()?["name"] == .text("Ann"))
            #expect(try rows.next()?[0] == .text("Bob"))
            #expect(try rows.next()?.decode(String.self, named: "name") == "Cid")
            #expect(try rows.next() == nil)
        }
    }

    @Test("a cursor iterates many rows without fetching them all")
    func largeCursor() throws {
        try withDatabase { db, _ throws in
            try db.execute(sql: "CREATE TABLE n (v INTEGER)")
            try db.inTransaction { db in
                let insert = try db.makeStatement(sql: "INSERT INTO n VALUES (?)")
                for value in 1...20_000 {
                    try insert.execute(arguments: [value])
                }
            }
            var count = 0
            var sum: Int64 = 0
            let cursor = try db.makeCursor(sql: "SELECT v FROM n")
            while try cursor.step() {
                count += 1
                sum += try cursor.decode(Int64.self, at: 0)
            }
            #expect(count == 20_000)
            #expect(sum == 200_010_000)
        }
    }

    @Test("a cursor whose statement runs again stops with an error")
    func cursorInvalidatedByRerun() throws {
        try withPlayers { db throws in
            let statement = try db.makeStatement(sql: "SELECT name FROM player ORDER BY id")
            let cursor = try statement.makeCursor()
            #expect(try cursor.next() != nil)
            _ = try statement.fetchAll()
            #expect(throws: DatabaseError.self) { try cursor.next() }
        }
    }

    @Test("fetchAll, fetchOne, fetchValue and forEachRow")
    func fetching() throws {
        try withPlayers { db throws in
            let rows = try db.fetchAll(sql: "SELECT name, score FROM player ORDER BY id")
            #expect(rows.count == 3)
            #expect(
                rows[1]
                    == Row(columnNames: ["name", "score"], values: [.text("Bob"), .integer(20)]))
            #expect(rows[2]["score"] == .null)
            #expect(rows[2]["missing"] == nil)
            #expect(rows[2][9] == nil)
            #expect(rows[0].description == "[name: 'Ann', score: 10]")
            #expect(
                try db.fetchOne(sql: "SELECT * FROM player WHERE id = ?", arguments: [99]) == nil)
            #expect(
                try db.fetchValue(Int.self, sql: "SELECT score FROM player WHERE id = 3") == nil)
            #expect(try db.fetchValue(Int.self, sql: "SELECT MAX(score) FROM player") == 20)

            var names: [String] = []
            try db.forEachRow(sql: "SELECT name FROM player WHERE score >= ?", arguments: [10]) {
                names.append(try $0.decode(String.self, named: "name"))
            }
            #expect(names.sorted() == ["Ann", "Bob"])
            let missing = try #require(
                thrownError { _ = try rows[0].decode(Int.self, named: "age") })
            #expect((missing as? RowDecodingError)?.reason == .columnNotFound)
            let range = try #require(thrownError { _ = try rows[0].decode(Int.self, at: 5) })
            #expect((range as? RowDecodingError)?.reason == .indexOutOfRange(columnCount: 2))
        }
    }

    @Test("the statement cache returns the same statement, reset and with cleared bindings")
    func statementCache() throws {
        try withPlayers { db throws in
            let sql = "SELECT name FROM player WHERE score > ? ORDER BY id"
            let first = try db.cachedStatement(sql: sql)
            try first.bind(15, at: 1)
            #expect(try first.fetchAll().count == 1)
            let second = try db.cachedStatement(sql: sql)
            #expect(first === second)
            // Bindings were cleared: `score > NULL` matches nothing.
            #expect(try second.fetchAll().isEmpty)

            // While a cursor is in the middle of the cached statement, a fresh one is used.
            let cursor = try db.makeCursor(sql: sql, arguments: [0])
            #expect(try cursor.next() != nil)
            let other = try db.cachedStatement(sql: sql)
            #expect(other !== second)
            #expect(try cursor.next() != nil)

            db.clearStatementCache()
            #expect(try db.cachedStatement(sql: sql) !== first)
        }
    }

    @Test("makeStatement accepts exactly one statement")
    func oneStatementOnly() throws {
        try withPlayers { db throws in
            _ = try db.makeStatement(sql: "SELECT 1; -- comment\n ;")
            let several = thrownError { _ = try db.makeStatement(sql: "SELECT 1; SELECT 2") }
            #expect((several as? DatabaseError)?.resultCode == .misuse)
            let empty = thrownError { _ = try db.makeStatement(sql: "  -- nothing") }
            #expect((empty as? DatabaseError)?.resultCode == .misuse)
        }
    }

    @Test("execute runs several statements, sharing out the arguments")
    func multiStatementExecute() throws {
        try withDatabase { db, _ throws in
            try db.execute(
                sql: """
                    CREATE TABLE t (a, b); -- a comment
                    INSERT INTO t VALUES (?, ?);
                    INSERT INTO t VALUES (:x, ?);
                    /* trailing comment */
                    """,
                arguments: StatementArguments(
                    positional: [.integer(1), .integer(2), .integer(3)], named: ["x": .text("x")]))
            let rows = try db.fetchAll(sql: "SELECT a, b FROM t ORDER BY rowid")
            #expect(
                rows.map(\.values) == [[.integer(1), .integer(2)], [.text("x"), .integer(3)]])

            // Empty statements and comments between statements are skipped.
            try db.execute(
                sql:
                    ";; INSERT INTO t VALUES (4, 4);;; /* c */ ; -- d\n INSERT INTO t VALUES (5, 5);"
            )
            #expect(try db.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM t") == 4)

            // The first statement runs even when the second fails.
            let error = thrownError {
                try db.execute(sql: "INSERT INTO t VALUES (9, 9); INSERT INTO nowhere VALUES (1)")
            }
            #expect((error as? DatabaseError)?.resultCode == .error)
            #expect(try db.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM t") == 5)
        }
    }

    @Test("StatementArguments literals and description")
    func argumentsDescription() {
        let positional: StatementArguments = [1, "a", nil, 2.5]
        #expect(positional.positional == [.integer(1), .text("a"), .null, .real(2.5)])
        #expect(positional.description == "[1, 'a', NULL, 2.5]")
        let named: StatementArguments = [":b": 2, "a": "x"]
        #expect(named.named == ["a": .text("x"), "b": .integer(2)])
        #expect(named.description == "[a: 'x', b: 2]")
        #expect(StatementArguments().isEmpty)
    }
}
