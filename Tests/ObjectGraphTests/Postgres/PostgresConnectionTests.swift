import Foundation
import PostgresClient
import Testing

@Suite("PostgreSQL connection")
struct PostgresConnectionTests {
    static func connect() throws -> PostgresConnection {
        let server = try TestPostgresServer.require()
        return try PostgresConnection(url: try PostgresURL(server.url()))
    }

    @Test("the test server runs on a Unix socket in its own folder, and only there")
    func serverHarness() throws {
        let server = try TestPostgresServer.require()
        #expect(FileManager.default.fileExists(atPath: server.folder.path + "/.s.PGSQL.5432"))
        let connection = try Self.connect()
        let listen = try connection.execute("SHOW listen_addresses").rows.first?.string(0)
        #expect(listen == "")
        let socket = try connection.execute("SHOW unix_socket_directories").rows.first?.string(0)
        #expect(socket == server.folder.path)
    }

    @Test("values of every kind go in bound and come back typed")
    func boundValues() throws {
        let connection = try Self.connect()
        let table = PostgresIdentifier.quoted(TestPostgresServer.freshSchema("values"))
        try connection.run(
            "CREATE TEMPORARY TABLE \(table) (i bigint, d double precision, n numeric,"
                + " t text, b bytea, f boolean, u uuid)")
        let uuid = UUID()
        let text = "it's \"quoted\"; DROP TABLE x; -- é"
        try connection.execute(
            "INSERT INTO \(table) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            [
                .integer(Int64.min), .double(0.1), .numeric("12.345678901234567890"),
                .text(text), .bytes(Data([0, 1, 0xFF, 0x5C])), .bool(true), .uuid(uuid),
            ])
        try connection.execute(
            "INSERT INTO \(table) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            [.null, .double(-.infinity), .null, .null, .bytes(Data()), .bool(false), .null])
        let rows = try connection.execute("SELECT * FROM \(table) ORDER BY f DESC").rows
        #expect(rows.count == 2)
        #expect(try rows[0].int64(0) == Int64.min)
        #expect(try rows[0].double(1) == 0.1)
        #expect(try rows[0].decimal(2) == Decimal(string: "12.345678901234567890"))
        #expect(rows[0].string(3) == text)
        #expect(try rows[0].bytes(4) == Data([0, 1, 0xFF, 0x5C]))
        #expect(try rows[0].bool(5) == true)
        #expect(try rows[0].uuid(6) == uuid)
        #expect(rows[1].isNull(0))
        #expect(try rows[1].double(1) == -.infinity)
        #expect(try rows[1].bytes(4) == Data())
        #expect(throws: PostgresError.self) { try rows[1].int64(0) }
        #expect(throws: PostgresError.self) { try rows[0].int64(3) }
        #expect(throws: PostgresError.self) {
            try connection.execute("SELECT $1::text", [.text("a\u{0}b")])
        }
    }

    @Test("a prepared statement whose table changed type is prepared again, not refused")
    func stalePreparedStatement() throws {
        let connection = try Self.connect()
        let table = PostgresIdentifier.quoted(TestPostgresServer.freshSchema("stale"))
        try connection.run("CREATE TEMPORARY TABLE \(table) (a integer)")
        try connection.execute("INSERT INTO \(table) VALUES ($1::integer)", [.integer(7)])
        let select = "SELECT a FROM \(table)"
        #expect(try connection.execute(select).rows.first?.int64(0) == 7)
        // "cached plan must not change result type" without preparing again.
        try connection.run("ALTER TABLE \(table) ALTER a TYPE text")
        #expect(try connection.execute(select).rows.first?.string(0) == "7")
        // Inside a transaction the refusal aborts it; the next use prepares anew.
        try connection.run("ALTER TABLE \(table) ALTER a TYPE bigint USING a::bigint")
        #expect(throws: PostgresError.self) {
            try connection.transaction { try connection.execute(select) }
        }
        #expect(try connection.execute(select).rows.first?.int64(0) == 7)
    }

    @Test("errors carry SQLSTATE, message, constraint and SQL")
    func typedErrors() throws {
        let connection = try Self.connect()
        let sql = "SELECT * FROM no_such_table WHERE id = $1"
        do {
            try connection.execute(sql, [.integer(1)])
            Issue.record("the statement ran")
        } catch {
            #expect(error.kind == .statement)
            #expect(error.sqlState == "42P01")
            #expect(error.message.contains("no_such_table"))
            #expect(error.sql == sql)
        }
        try connection.run("CREATE TEMPORARY TABLE uniq (v integer CONSTRAINT uniq_v UNIQUE)")
        try connection.execute("INSERT INTO uniq VALUES ($1)", [.integer(1)])
        do {
            try connection.execute("INSERT INTO uniq VALUES ($1)", [.integer(1)])
            Issue.record("the duplicate was inserted")
        } catch {
            #expect(error.isUniqueViolation)
            #expect(error.constraint == "uniq_v")
        }
    }

    @Test("a transaction commits when its body returns and rolls back when it throws")
    func transactions() throws {
        let connection = try Self.connect()
        try connection.run("CREATE TEMPORARY TABLE tx (v integer)")
        try connection.transaction {
            try connection.execute("INSERT INTO tx VALUES ($1)", [.integer(1)])
            #expect(connection.isInsideTransaction)
            // Nested: a savepoint, rolled back alone.
            _ = try? connection.transaction { () throws -> Void in
                try connection.execute("INSERT INTO tx VALUES ($1)", [.integer(2)])
                throw PostgresError(.statement, "stop")
            }
        }
        #expect(!connection.isInsideTransaction)
        #expect(throws: PostgresError.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO tx VALUES ($1)", [.integer(3)])
                try connection.execute("INSERT INTO tx VALUES ($1)", [.text("not a number")])
            }
        }
        let values = try connection.execute("SELECT v FROM tx ORDER BY v").rows.map {
            try $0.int64(0)
        }
        #expect(values == [1])
    }

    @Test("a transaction begun at an isolation level runs at it, in one snapshot")
    func isolatedTransactions() throws {
        let (connection, other) = (try Self.connect(), try Self.connect())
        let table = PostgresIdentifier.quoted(TestPostgresServer.freshSchema("isolation"))
        try connection.run("CREATE TABLE \(table) (v integer)")
        defer { _ = try? connection.run("DROP TABLE \(table)") }
        func count() throws -> Int64? {
            try connection.execute("SELECT count(*) FROM \(table)").rows.first?.int64(0)
        }
        let seen = try connection.transaction(isolation: .repeatableRead) {
            () throws -> [Int64?] in
            let level = try connection.execute("SELECT current_setting('transaction_isolation')")
            #expect(level.rows.first?.text(0) == "repeatable read")
            let before = try count()
            try other.execute("INSERT INTO \(table) VALUES ($1)", [.integer(1)])
            return [before, try count()]
        }
        #expect(seen == [0, 0])
        #expect(try count() == 1)
        // Inside a transaction already, the level cannot change: the server's error is thrown.
        #expect(throws: PostgresError.self) {
            try connection.transaction {
                _ = try count()
                try connection.transaction(isolation: .serializable) { _ = try count() }
            }
        }
        #expect(!connection.isInsideTransaction)
    }

    @Test("a refused connection names the redacted URL, not the password")
    func connectionFailure() throws {
        let server = try TestPostgresServer.require()
        let url = try PostgresURL(
            string: "postgresql://nobody:topsecret@localhost/nodb?host=\(server.folder.path)")
        do {
            _ = try PostgresConnection(url: url)
            Issue.record("connected")
        } catch {
            #expect(error.kind == .connection)
            #expect(!error.description.contains("topsecret"))
            #expect(error.description.contains("***"))
        }
    }
}
