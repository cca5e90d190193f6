import Foundation
import PostgresClient
import Testing

/// A streamed read (`execute(_:_:binary:streaming:reading:)`) gives the rows a whole read
/// gives, once each and in order; a server error after some rows is thrown after the closure
/// saw them; and whatever the closure does, the connection is ready for the next statement.
@Suite("PostgreSQL streamed reads")
struct PostgresStreamingTests {
    /// `SELECT` of rows `1...count`: the number, its text, NULL every third row.
    static func series(_ count: Int) -> String {
        "SELECT x, 'row ' || x, CASE WHEN x % 3 = 0 THEN NULL ELSE x * 2 END"
            + " FROM generate_series(1, \(count)) AS x ORDER BY x DESC"
    }

    /// Each row of `cursor` as text, and the row counts the cursor gave along the way.
    static func texts(_ cursor: inout PostgresCursor) -> (rows: [[String?]], counts: [Int]) {
        var rows: [[String?]] = []
        var counts: [Int] = []
        while cursor.next() {
            rows.append((0..<cursor.columnCount).map { cursor.text($0) })
            counts.append(cursor.rowCount)
            #expect(cursor.row == rows.count - 1)
        }
        return (rows, counts)
    }

    @Test("every row comes once, in order, as a whole read gives it", arguments: [false, true])
    func sameRows(binary: Bool) throws {
        let connection = try PostgresConnectionTests.connect()
        let sql = Self.series(5000)
        let whole = try connection.execute(sql, binary: binary) { Self.texts(&$0).rows }
        let (streamed, counts) = try connection.execute(sql, binary: binary, streaming: true) {
            cursor in
            let read = Self.texts(&cursor)
            let more = cursor.next()
            #expect(!more)
            #expect(cursor.row == 5000)
            return read
        }
        #expect(whole.count == 5000)
        #expect(streamed == whole)
        #expect(counts == Array(1...5000))
        var numbers: [Int64] = []
        try connection.execute(
            "SELECT x FROM generate_series(1, 2500) AS x ORDER BY x", [], binary: binary,
            streaming: true
        ) { cursor in
            while cursor.next() { numbers.append(try cursor.int64(0)) }
        }
        #expect(numbers == Array(1...2500))
    }

    @Test("a statement without rows, or with none, streams as it runs whole")
    func noRows() throws {
        let connection = try PostgresConnectionTests.connect()
        let table = PostgresIdentifier.quoted(TestPostgresServer.freshSchema("streamed"))
        try connection.run("CREATE TEMPORARY TABLE \(table) (a integer)")
        let seen = PostgresCursorTests.Seen()
        connection.statementObserver = { seen.records.append($0) }
        let inserted = try connection.execute(
            "INSERT INTO \(table) SELECT generate_series(1, 3)", streaming: true
        ) { cursor in
            (cursor.columnCount, cursor.next())
        }
        #expect(inserted.0 == 0 && !inserted.1)
        #expect(seen.records.last?.rowsChanged == 3)
        let empty = try connection.execute(
            "SELECT a FROM \(table) WHERE a > $1", [.integer(5)], streaming: true
        ) { cursor in
            (cursor.columnCount, cursor.next(), cursor.rowCount)
        }
        #expect(empty.0 == 1 && !empty.1 && empty.2 == 0)
        #expect(seen.records.last?.rowsReturned == 0)
        #expect(try connection.execute("SELECT count(*) FROM \(table)").rows.first?.int64(0) == 3)
    }

    @Test("a closure that stops early or throws leaves the connection ready")
    func earlyEnd() throws {
        let connection = try PostgresConnectionTests.connect()
        let seen = PostgresCursorTests.Seen()
        connection.statementObserver = { seen.records.append($0) }
        let first = try connection.execute(Self.series(3000), streaming: true) { cursor in
            cursor.next() ? cursor.text(0) : nil
        }
        #expect(first == "3000")
        #expect(seen.records.last?.rowsReturned == 3000)
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try connection.execute(Self.series(3000), binary: true, streaming: true) { cursor in
                while cursor.next() {
                    if try cursor.int64(0) == 1000 { throw Stop() }
                }
            }
        }
        #expect(try connection.execute("SELECT 41 + 1").rows.first?.int64(0) == 42)
        let count = try connection.execute(Self.series(10), streaming: true) { cursor in
            Self.texts(&cursor).rows.count
        }
        #expect(count == 10)
    }

    @Test(
        "an error after some rows is thrown after the closure saw them", arguments: [false, true])
    func failureMidway(binary: Bool) throws {
        let connection = try PostgresConnectionTests.connect()
        let seen = PostgresCursorTests.Seen()
        connection.statementObserver = { seen.records.append($0) }
        let sql = "SELECT x, 1 / (x - $1::integer) FROM generate_series(1, 5000) AS x"
        var read = 0
        do {
            try connection.execute(sql, [.integer(3000)], binary: binary, streaming: true) {
                cursor in
                while cursor.next() { read += 1 }
            }
            Issue.record("the statement ran")
        } catch let error as PostgresError {
            #expect(error.sqlState == "22012")
            #expect(error.sql == sql)
        }
        #expect(read == 2999)
        #expect(seen.records.last?.error?.sqlState == "22012")
        // Thrown also when the closure throws its own error meanwhile.
        struct Stop: Error {}
        do {
            try connection.execute(sql, [.integer(10)], binary: binary, streaming: true) {
                cursor in
                while cursor.next() {}
                throw Stop()
            }
            Issue.record("the statement ran")
        } catch let error as PostgresError {
            #expect(error.sqlState == "22012")
        }
        // Refused before any row: thrown, no closure called.
        #expect(throws: PostgresError.self) {
            try connection.execute("SELECT * FROM no_such_table", streaming: true) { _ in
                Issue.record("the closure ran")
            }
        }
        let after = try connection.execute(Self.series(2000), streaming: true) { cursor in
            Self.texts(&cursor).rows.count
        }
        #expect(after == 2000)
    }

    @Test("a streamed read in a transaction sees its writes; a failure rolls it back")
    func insideTransaction() throws {
        let connection = try PostgresConnectionTests.connect()
        let table = PostgresIdentifier.quoted(TestPostgresServer.freshSchema("streamed"))
        try connection.run("CREATE TEMPORARY TABLE \(table) (a integer)")
        let total = try connection.transaction {
            try connection.execute("INSERT INTO \(table) SELECT generate_series(1, 2000)")
            return try connection.execute(
                "SELECT a FROM \(table) ORDER BY a", streaming: true
            ) { cursor in
                var total: Int64 = 0
                while cursor.next() { total += try cursor.int64(0) }
                return total
            }
        }
        #expect(total == 2000 * 2001 / 2)
        #expect(throws: PostgresError.self) {
            try connection.transaction {
                try connection.execute("DELETE FROM \(table) WHERE a > 1500")
                try connection.execute(
                    "SELECT 1 / (a - 1000) FROM \(table) ORDER BY a", streaming: true
                ) { cursor in while cursor.next() {} }
            }
        }
        #expect(!connection.isInsideTransaction)
        #expect(
            try connection.execute("SELECT count(*) FROM \(table)").rows.first?.int64(0) == 2000)
    }

    @Test("a streamed statement whose table changed type is prepared again, not refused")
    func stalePlan() throws {
        let connection = try PostgresConnectionTests.connect()
        let table = PostgresIdentifier.quoted(TestPostgresServer.freshSchema("stale"))
        try connection.run("CREATE TEMPORARY TABLE \(table) (a integer)")
        try connection.execute("INSERT INTO \(table) VALUES (7)")
        let select = "SELECT a FROM \(table)"
        let read = { () throws -> [String?] in
            try connection.execute(select, streaming: true) { Self.texts(&$0).rows.map(\.[0]) }
        }
        #expect(try read() == ["7"])
        try connection.run("ALTER TABLE \(table) ALTER a TYPE text USING a || 'x'")
        #expect(try read() == ["7x"])
        try connection.run("ALTER TABLE \(table) ALTER a TYPE varchar(5)")
        #expect(throws: PostgresError.self) { try connection.transaction { try read() } }
        #expect(try read() == ["7x"])
    }
}
