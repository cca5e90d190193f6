import Foundation
import SQLiteDatabase
import Testing

@Suite("Reading a cursor's columns in place")
struct CursorColumnTests {
    @Test("storageClass(at:) reports each of SQLite's five storage classes")
    func storageClasses() throws {
        try withDatabase { db, _ throws in
            let cursor = try db.makeCursor(sql: "SELECT NULL, 42, 1.5, 'text', x'00ff'")
            #expect(try cursor.step())
            let classes = try (0..<5).map { try cursor.storageClass(at: $0) }
            #expect(classes == [.null, .integer, .real, .text, .blob])
        }
    }

    @Test("int64, double and text read what value(at:) reads for their own storage class")
    func typedReads() throws {
        try withDatabase { db, _ throws in
            let cursor = try db.makeCursor(
                sql: "SELECT ?, ?, ?, ?", arguments: [Int64.min, 2.25, "Grüße 👋", ""])
            #expect(try cursor.step())
            #expect(try cursor.int64(at: 0) == Int64.min)
            #expect(try cursor.value(at: 0) == .integer(Int64.min))
            #expect(try cursor.double(at: 1) == 2.25)
            #expect(try cursor.text(at: 2) == "Grüße 👋")
            #expect(try cursor.value(at: 2) == .text("Grüße 👋"))
            #expect(try cursor.text(at: 3) == "")
            #expect(try cursor.storageClass(at: 3) == .text)
        }
    }

    @Test("integer(at:) reads INTEGER values only")
    func strictInteger() throws {
        try withDatabase { db, _ throws in
            let cursor = try db.makeCursor(sql: "SELECT 42, NULL, 4.0, '4', ?", arguments: [-7])
            #expect(try cursor.step())
            let values = try (0..<5).map { try cursor.integer(at: $0) }
            #expect(values == [42, nil, nil, nil, -7])
            #expect(throws: RowDecodingError.self) { try cursor.integer(at: 5) }
        }
    }

    @Test("other storage classes convert as SQLite converts them; NULL reads as 0 and \"\"")
    func conversions() throws {
        try withDatabase { db, _ throws in
            let cursor = try db.makeCursor(sql: "SELECT NULL, 7, 2.5, '12'")
            #expect(try cursor.step())
            #expect(try cursor.int64(at: 0) == 0)
            #expect(try cursor.text(at: 0) == "")
            #expect(try cursor.double(at: 1) == 7)
            #expect(try cursor.text(at: 1) == "7")
            #expect(try cursor.int64(at: 2) == 2)
            #expect(try cursor.int64(at: 3) == 12)
        }
    }

    @Test("reading out of range or with no current row throws instead of trapping")
    func misuse() throws {
        try withDatabase { db, _ throws in
            let cursor = try db.makeCursor(sql: "SELECT 1")
            #expect(throws: RowDecodingError.self) { try cursor.int64(at: 0) }
            #expect(try cursor.step())
            #expect(throws: RowDecodingError.self) { try cursor.storageClass(at: 1) }
            #expect(throws: RowDecodingError.self) { try cursor.text(at: -1) }
            #expect(throws: RowDecodingError.self) { try cursor.double(at: 5) }
            #expect(try cursor.step() == false)
            #expect(throws: RowDecodingError.self) { try cursor.int64(at: 0) }
        }
    }
}
