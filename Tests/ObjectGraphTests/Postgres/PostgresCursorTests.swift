import Foundation
import PostgresClient
import Testing

/// Reading a result in place (``PostgresCursor``) gives every value, and every error, that
/// the copied rows (``PostgresRow``) give: edge values of each type, NULLs and texts that are
/// not of the type asked for.
@Suite("PostgreSQL cursor")
struct PostgresCursorTests {
    /// A temporary table of edge values on `connection`: one row per value of each column
    /// (NULL where a column has fewer values), ordered by `k`.
    static func edgeTable(_ connection: PostgresConnection) throws -> String {
        let table = PostgresIdentifier.quoted(TestPostgresServer.freshSchema("edges"))
        try connection.run(
            "CREATE TEMPORARY TABLE \(table) (k integer, i bigint, s smallint, d double precision,"
                + " r real, n numeric, t text, b bytea, f boolean, u uuid)")
        let integers: [Int64] = [Int64.min, Int64.max, 0, -1, 1, 1_000_000_007, -9_999_999_999]
        let doubles: [Double] = [
            -0.0, 0, .nan, .infinity, -.infinity, 0.1, -.leastNonzeroMagnitude * 1e13,
            .greatestFiniteMagnitude,
            -.leastNormalMagnitude, 1e21, 123_456_789.012_345_68,
        ]
        let numerics = [
            "0", "-0.000001", "12345678901234567890.123456789", "-42", "1e3", "0.5", "10000",
            "99990000.0001", "-0.00000001", "123456789.000000000", "0.0000", "NaN", "Infinity",
            "-Infinity", "1e-20", "-9999.9999", "100000000",
        ]
        let texts = ["", "plain", "日本語 é 🎉", "'quoted' \"both\"; --", " spaced ", "\\x00"]
        let blobs = [Data(), Data([0]), Data((0...255).map { UInt8($0) }), Data("\\x".utf8)]
        let uuids = [UUID(), UUID(uuidString: "00000000-0000-0000-0000-000000000000") ?? UUID()]
        let count = [integers.count, doubles.count, numerics.count, texts.count, blobs.count].max()
        for k in 0..<(count ?? 0) {
            func pick<T>(_ values: [T], _ make: (T) -> PostgresValue) -> PostgresValue {
                k < values.count ? make(values[k]) : .null
            }
            try connection.execute(
                "INSERT INTO \(table) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
                [
                    .integer(Int64(k)), pick(integers) { .integer($0) },
                    k < 3 ? .integer([Int64(Int16.min), Int64(Int16.max), -3][k]) : .null,
                    pick(doubles) { .double($0) },
                    pick(doubles.prefix(6).map { $0 }) { .double($0) },
                    pick(numerics) { .numeric($0) }, pick(texts) { .text($0) },
                    pick(blobs) { .bytes($0) }, k < 2 ? .bool(k == 0) : .null,
                    pick(uuids) { .uuid($0) },
                ])
        }
        return table
    }

    /// What each accessor gives for column `column` (`nil`: NULL; a thrown error's text).
    static func readings(_ row: some PostgresColumns, _ column: Int) -> [String] {
        func show<T>(_ read: () throws(PostgresError) -> T?) -> String {
            do {
                guard let value = try read() else { return "nil" }
                if let number = value as? Double {
                    return number.isNaN ? "NaN" : "\(number.bitPattern)"
                }
                return "\(value)"
            } catch {
                return "error: \(error)"
            }
        }
        return [
            "\(row.isNull(column))", show { row.text(column) },
            show { () throws(PostgresError) in try row.int64OrNil(column) },
            show { () throws(PostgresError) in try row.int64(column) },
            show { () throws(PostgresError) in try row.double(column) },
            show { () throws(PostgresError) in try row.bool(column) },
            show { () throws(PostgresError) in try row.uuid(column) },
            show { () throws(PostgresError) in try row.decimal(column) },
            show { () throws(PostgresError) in try row.bytes(column) },
        ]
    }

    @Test("every accessor reads every column as a copied row does", arguments: [false, true])
    func sameAsRows(binary: Bool) throws {
        let connection = try PostgresConnectionTests.connect()
        let table = try Self.edgeTable(connection)
        let sql = "SELECT *, 1 AS one, NULL AS none, 'x' AS literal FROM \(table) ORDER BY k"
        let rows = try connection.execute(sql).rows
        let read = try connection.execute(sql, binary: binary) {
            (cursor: inout PostgresCursor) throws -> [[[String]]] in
            var read: [[[String]]] = []
            #expect(cursor.columnCount == 13)
            #expect(cursor.rowCount == rows.count)
            while cursor.next() {
                read.append((0...13).map { Self.readings(cursor, $0) })
            }
            let more = cursor.next()
            #expect(!more)
            return read
        }
        #expect(read.count == rows.count)
        for (index, row) in rows.enumerated() where index < read.count {
            for column in 0...13 {
                #expect(
                    read[index][column] == Self.readings(row, column), "row \(index) col \(column)")
            }
        }
    }

    @Test(
        "edge values come back exactly: integers, signed zero, NaN, infinities, texts, bytes",
        arguments: [false, true])
    func edgeValues(binary: Bool) throws {
        let connection = try PostgresConnectionTests.connect()
        let table = try Self.edgeTable(connection)
        try connection.execute(
            "SELECT i, d, t, b, s, f FROM \(table) ORDER BY k", binary: binary
        ) { cursor in
            var integers: [Int64?] = []
            var doubles: [Double?] = []
            var texts: [String?] = []
            var blobs: [Data?] = []
            var smalls: [Int64?] = []
            var flags: [Bool?] = []
            while cursor.next() {
                integers.append(try cursor.int64OrNil(0))
                doubles.append(try cursor.double(1))
                texts.append(cursor.text(2))
                blobs.append(try cursor.bytes(3))
                smalls.append(try cursor.int64OrNil(4))
                flags.append(try cursor.bool(5))
            }
            #expect(
                integers.prefix(7).map { $0 }
                    == [Int64.min, Int64.max, 0, -1, 1, 1_000_000_007, -9_999_999_999])
            #expect(doubles[0]?.sign == .minus && doubles[0] == 0)
            #expect(doubles[1]?.sign == .plus && doubles[1] == 0)
            #expect(doubles[2]?.isNaN == true)
            #expect(doubles[3] == .infinity && doubles[4] == -.infinity)
            #expect(doubles[5] == 0.1 && doubles[6] == -.leastNonzeroMagnitude * 1e13)
            #expect(doubles[7] == .greatestFiniteMagnitude)
            #expect(doubles[8] == -.leastNormalMagnitude && doubles[9] == 1e21)
            #expect(doubles[10] == 123_456_789.012_345_68)
            #expect(
                texts.prefix(6).map { $0 }
                    == ["", "plain", "日本語 é 🎉", "'quoted' \"both\"; --", " spaced ", "\\x00"])
            #expect(
                blobs.prefix(4).map { $0 }
                    == [Data(), Data([0]), Data((0...255).map { UInt8($0) }), Data("\\x".utf8)])
            #expect(smalls.prefix(3).map { $0 } == [Int64(Int16.min), Int64(Int16.max), -3])
            #expect(flags.prefix(3).map { $0 } == [true, false, nil])
        }
    }

    @Test("numerics read in binary form give the server's text and decimal")
    func numerics() throws {
        let connection = try PostgresConnectionTests.connect()
        let numbers = [
            "0", "0.00", "-0.000001", "1", "-1", "9999", "10000", "10001", "123456789",
            "12345678901234567890.123456789", "0.1", "0.0001", "0.00001", "1.10", "-42.5000",
            "99990000.0001", "1e-20", "1e20", "-9999.9999", "3.14159265358979323846264338327950288",
            "NaN", "Infinity", "-Infinity",
        ]
        for number in numbers {
            let sql = "SELECT $1::numeric"
            let expected = try connection.execute(sql, [.numeric(number)]).rows.first
            var text: String?
            var decimal: Decimal?
            try connection.execute(sql, [.numeric(number)], binary: true) { cursor in
                _ = cursor.next()
                text = cursor.text(0)
                decimal = try? cursor.decimal(0)
            }
            #expect(text == expected?.text(0), "\(number)")
            #expect(decimal == (try? expected?.decimal(0)), "\(number)")
        }
    }

    @Test("texts that are not integers throw, as Int64(String) refuses them")
    func integerTexts() throws {
        let connection = try PostgresConnectionTests.connect()
        let texts = [
            "+5", "-0", "007", "", "-", "+", " 5", "5 ", "1_000", "12a", "0x10", "١٢",
            "9223372036854775807", "9223372036854775808", "-9223372036854775808",
            "-9223372036854775809", "99999999999999999999",
        ]
        for text in texts {
            let expected = Int64(text)
            var read: Int64?
            var thrown: PostgresError?
            try connection.execute("SELECT $1::text", [.text(text)]) { cursor in
                _ = cursor.next()
                do throws(PostgresError) {
                    read = try cursor.int64OrNil(0)
                } catch {
                    thrown = error
                }
            }
            #expect(read == expected, "'\(text)'")
            #expect((thrown != nil) == (expected == nil), "'\(text)'")
            if let thrown { #expect(thrown.message.contains("not an integer"), "'\(text)'") }
        }
    }

    @Test("a statement failing as it runs throws the server's error and the observer sees it")
    func failures() throws {
        let connection = try PostgresConnectionTests.connect()
        let seen = Seen()
        connection.statementObserver = { seen.records.append($0) }
        let sql = "SELECT 1 / $1::integer"
        do {
            try connection.execute(sql, [.integer(0)]) { _ in () }
            Issue.record("the statement ran")
        } catch let error as PostgresError {
            #expect(error.sqlState == "22012")
            #expect(error.sql == sql)
        }
        let count = try connection.execute("SELECT generate_series(1, 3)") { $0.rowCount }
        #expect(count == 3)
        #expect(seen.records.count == 2)
        #expect(seen.records.first?.error?.sqlState == "22012")
        #expect(seen.records.last?.rowsReturned == 3)
    }

    /// The records an observer saw.
    final class Seen: @unchecked Sendable {
        var records: [PostgresStatementRecord] = []
    }
}
