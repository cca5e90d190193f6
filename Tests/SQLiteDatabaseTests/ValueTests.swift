import Foundation
import SQLiteDatabase
import Testing

@Suite("Values: binding, storage and decoding")
struct ValueTests {
    /// Stores `value` in a column without affinity and reads it back, with its storage class.
    private func roundTrip<T: DatabaseValueConvertible>(_ value: T, in db: Database) throws
        -> (T, String)
    {
        try db.execute(sql: "DELETE FROM t")
        try db.execute(sql: "INSERT INTO t (v) VALUES (?)", arguments: [value])
        let row = try #require(try db.fetchOne(sql: "SELECT v, typeof(v) FROM t"))
        return (try row.decode(T.self, at: 0), try row.decode(String.self, at: 1))
    }

    private func withValueTable(_ body: (Database) throws -> Void) throws {
        try withDatabase { db, _ throws in
            try db.execute(sql: "CREATE TABLE t (v)")
            try body(db)
        }
    }

    @Test("integers of every width round-trip as INTEGER")
    func integers() throws {
        try withValueTable { db throws in
            #expect(try roundTrip(Int.max, in: db) == (Int.max, "integer"))
            #expect(try roundTrip(Int64.min, in: db) == (Int64.min, "integer"))
            #expect(try roundTrip(Int32(-123_456), in: db) == (-123_456, "integer"))
            #expect(try roundTrip(Int16.max, in: db) == (Int16.max, "integer"))
        }
    }

    @Test("Bool round-trips as INTEGER 0 and 1")
    func booleans() throws {
        try withValueTable { db throws in
            #expect(try roundTrip(true, in: db) == (true, "integer"))
            #expect(try roundTrip(false, in: db) == (false, "integer"))
            #expect(try db.fetchValue(Int.self, sql: "SELECT ?", arguments: [true]) == 1)
        }
    }

    @Test("Double and Float round-trip as REAL")
    func reals() throws {
        try withValueTable { db throws in
            #expect(try roundTrip(3.141_592_653_589_793, in: db) == (3.141_592_653_589_793, "real"))
            #expect(try roundTrip(-0.5 as Float, in: db) == (-0.5, "real"))
            #expect(try roundTrip(Double.infinity, in: db) == (.infinity, "real"))
        }
    }

    @Test("strings round-trip as TEXT, including empty, emoji and embedded NUL")
    func strings() throws {
        try withValueTable { db throws in
            for text in ["", "plain", "it's \"quoted\"", "café 🚀 日本", "a\u{0}b"] {
                #expect(try roundTrip(text, in: db) == (text, "text"), "\(text.debugDescription)")
            }
        }
    }

    @Test("Data round-trips as BLOB, including empty")
    func data() throws {
        try withValueTable { db throws in
            let bytes = Data([0, 1, 2, 255, 0])
            #expect(try roundTrip(bytes, in: db) == (bytes, "blob"))
            #expect(try roundTrip(Data(), in: db) == (Data(), "blob"))
        }
    }

    @Test("Date is stored as REAL seconds since 1970")
    func dates() throws {
        try withValueTable { db throws in
            let date = Date(timeIntervalSince1970: 1_700_000_000.25)
            #expect(try roundTrip(date, in: db) == (date, "real"))
            #expect(try db.fetchValue(Double.self, sql: "SELECT v FROM t") == 1_700_000_000.25)
            let fromInteger = try db.fetchValue(Date.self, sql: "SELECT 86400")
            #expect(fromInteger == Date(timeIntervalSince1970: 86400))
        }
    }

    @Test("UUID is stored as a 16-byte BLOB, and also reads from its text form")
    func uuids() throws {
        try withValueTable { db throws in
            let uuid = UUID()
            #expect(try roundTrip(uuid, in: db) == (uuid, "blob"))
            #expect(try db.fetchValue(Int.self, sql: "SELECT length(v) FROM t") == 16)
            let text = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
            let parsed = try db.fetchValue(UUID.self, sql: "SELECT ?", arguments: [text])
            #expect(parsed == UUID(uuidString: text))
            let short = thrownError {
                _ = try db.fetchOne(sql: "SELECT x'0102'")?.decode(UUID.self, at: 0)
            }
            #expect(short is RowDecodingError)
        }
    }

    @Test("URL is stored as TEXT, its absolute string")
    func urls() throws {
        try withValueTable { db throws in
            let url = try #require(URL(string: "https://example.com/a%20b?q=1#f"))
            #expect(try roundTrip(url, in: db) == (url, "text"))
            #expect(try db.fetchValue(String.self, sql: "SELECT v FROM t") == url.absoluteString)
        }
    }

    @Test("nil binds NULL, and decodes as nil for optional types only")
    func nulls() throws {
        try withValueTable { db throws in
            let none: Int? = nil
            let (value, storage) = try roundTrip(none, in: db)
            #expect(value == nil)
            #expect(storage == "null")
            let row = try #require(try db.fetchOne(sql: "SELECT v FROM t"))
            #expect(row[0] == .null)
            #expect(try row.decode(String?.self, at: 0) == nil)
            let error = try #require(thrownError { _ = try row.decode(Int.self, at: 0) })
            let decoding = try #require(error as? RowDecodingError)
            #expect(decoding.reason == .incompatibleValue(storageClass: "NULL", type: "Int"))
            #expect(decoding.columnName == "v")
            #expect(decoding.sql == "SELECT v FROM t")

            let some: Int? = 5
            #expect(try roundTrip(some, in: db) == (5, "integer"))
        }
    }

    @Test("out-of-range and mismatched values throw instead of trapping")
    func conversionFailures() throws {
        try withValueTable { db throws in
            let row = try #require(try db.fetchOne(sql: "SELECT 70000, 'text', 2.5, x'00'"))
            #expect(thrownError { _ = try row.decode(Int16.self, at: 0) } is RowDecodingError)
            #expect(try row.decode(Int32.self, at: 0) == 70000)
            #expect(thrownError { _ = try row.decode(Int.self, at: 1) } is RowDecodingError)
            #expect(thrownError { _ = try row.decode(Int.self, at: 2) } is RowDecodingError)
            #expect(thrownError { _ = try row.decode(String.self, at: 3) } is RowDecodingError)
            #expect(try row.decode(Data.self, at: 1) == Data("text".utf8))
            #expect(try row.decode(Double.self, at: 0) == 70000)
        }
    }

    @Test("DatabaseValue itself binds and decodes, and renders like SQL")
    func databaseValues() throws {
        try withValueTable { db throws in
            let values: [DatabaseValue] = [
                .null, .integer(-1), .real(0.5), .text("it's"), .blob(Data([0, 0xAB])),
            ]
            let row = try #require(
                try db.fetchOne(
                    sql: "SELECT ?, ?, ?, ?, ?", arguments: StatementArguments(positional: values)))
            #expect(row.values == values)
            #expect(values.map(\.description) == ["NULL", "-1", "0.5", "'it''s'", "X'00AB'"])
            #expect(values.map(\.storageClass) == ["NULL", "INTEGER", "REAL", "TEXT", "BLOB"])
        }
    }

    @Test("a custom type conforms by converting to and from DatabaseValue")
    func customType() throws {
        struct Celsius: DatabaseValueConvertible, Equatable {
            var degrees: Double
            var databaseValue: DatabaseValue { .real(degrees) }
            static func fromDatabaseValue(_ value: DatabaseValue) -> Celsius? {
                Double.fromDatabaseValue(value).map { Celsius(degrees: $0) }
            }
        }
        try withValueTable { db throws in
            let (value, storage) = try roundTrip(Celsius(degrees: 21.5), in: db)
            #expect(value == Celsius(degrees: 21.5))
            #expect(storage == "real")
        }
    }
}
