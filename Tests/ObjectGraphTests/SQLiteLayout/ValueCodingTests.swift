import Foundation
import SQLiteDatabase
import Testing

@testable import ObjectGraph

@Suite("Attribute values in SQLite storage")
struct ValueCodingTests {
    static func store(_ value: Value, _ type: AttributeType) throws(ValueCodingError)
        -> DatabaseValue
    {
        try ValueCoding.storageValue(for: value, type: type)
    }

    static func read(_ stored: DatabaseValue, _ type: AttributeType) throws(ValueCodingError)
        -> Value
    {
        try ValueCoding.value(from: stored, type: type)
    }

    @Test("values are written as Core Data writes them")
    func writing() throws {
        #expect(try Self.store(.integer(-7), .integer16) == .integer(-7))
        #expect(try Self.store(.bool(true), .boolean) == .integer(1))
        #expect(try Self.store(.bool(false), .boolean) == .integer(0))
        #expect(try Self.store(.double(2.5), .double) == .real(2.5))
        #expect(try Self.store(.double(0.1), .float) == .real(Double(Float(0.1))))
        #expect(try Self.store(.decimal(Decimal(string: "12.25") ?? 0), .decimal) == .real(12.25))
        #expect(try Self.store(.string("hé"), .string) == .text("hé"))
        let date = Date(timeIntervalSinceReferenceDate: 757_382_400.5)
        #expect(try Self.store(.date(date), .date) == .real(757_382_400.5))
        // 2001-01-01 is 978307200 seconds after 1970.
        #expect(try Self.store(.date(Date(timeIntervalSince1970: 978_307_200)), .date) == .real(0))
        let uuid = try #require(UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFF"))
        #expect(
            try Self.store(.uuid(uuid), .uuid)
                == .blob(
                    Data([
                        0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB,
                        0xCC,
                        0xDD, 0xEE, 0xFF,
                    ])))
        let url = try #require(URL(string: "https://example.com/a?b=c"))
        #expect(try Self.store(.uri(url), .uri) == .text("https://example.com/a?b=c"))
        #expect(try Self.store(.data(Data([1, 2])), .binary) == .blob(Data([1, 2])))
        #expect(try Self.store(.data(Data([3])), .transformable) == .blob(Data([3])))
        #expect(try Self.store(.null, .date) == .null)
    }

    @Test("values read back, accepting the storage classes SQLite's affinities produce")
    func reading() throws {
        #expect(try Self.read(.integer(5), .integer64) == .integer(5))
        #expect(try Self.read(.real(5), .integer32) == .integer(5))
        #expect(try Self.read(.integer(2), .boolean) == .bool(true))
        #expect(try Self.read(.integer(0), .boolean) == .bool(false))
        // Whole seconds come back as INTEGER from a TIMESTAMP column.
        #expect(
            try Self.read(.integer(100), .date) == .date(Date(timeIntervalSinceReferenceDate: 100)))
        #expect(
            try Self.read(.real(0.25), .date) == .date(Date(timeIntervalSinceReferenceDate: 0.25)))
        #expect(try Self.read(.integer(3), .decimal) == .decimal(3))
        #expect(try Self.read(.real(0.1), .decimal) == .decimal(Decimal(string: "0.1") ?? 0))
        #expect(try Self.read(.text("19.99"), .decimal) == .decimal(Decimal(string: "19.99") ?? 0))
        #expect(try Self.read(.integer(4), .double) == .double(4))
        #expect(try Self.read(.text("x"), .string) == .string("x"))
        let uuid = UUID()
        let stored = try Self.store(.uuid(uuid), .uuid)
        #expect(try Self.read(stored, .uuid) == .uuid(uuid))
        #expect(try Self.read(.text(uuid.uuidString), .uuid) == .uuid(uuid))
        #expect(try Self.read(.text("file:///tmp/a"), .uri) == .uri(URL(fileURLWithPath: "/tmp/a")))
        #expect(try Self.read(.blob(Data([9])), .transformable) == .data(Data([9])))
        #expect(try Self.read(.null, .uuid) == .null)
    }

    @Test("every attribute type round-trips")
    func roundTrip() throws {
        let mail = try #require(URL(string: "mailto:ada@example.com"))
        let samples: [(Value, AttributeType)] = [
            (.integer(Int64(Int16.min)), .integer16), (.integer(Int64(Int32.max)), .integer32),
            (.integer(.min), .integer64), (.bool(true), .boolean), (.double(-1.5e300), .double),
            (.double(0.5), .float), (.decimal(Decimal(string: "1234.5") ?? 0), .decimal),
            (.string("Ünïcødé \"quoted\""), .string),
            (.date(Date(timeIntervalSinceReferenceDate: -1_000_000.75)), .date),
            (.data(Data(repeating: 0xAB, count: 100)), .binary), (.data(Data()), .transformable),
            (.uuid(UUID()), .uuid), (.uri(mail), .uri),
        ]
        for (value, type) in samples {
            let stored = try Self.store(value, type)
            #expect(try Self.read(stored, type) == value, "\(type)")
        }
    }

    @Test("values that do not fit are typed errors, never traps")
    func mismatches() throws {
        #expect(throws: ValueCodingError.self) { try Self.store(.integer(70_000), .integer16) }
        #expect(throws: ValueCodingError.self) { try Self.store(.string("1"), .integer32) }
        #expect(throws: ValueCodingError.self) { try Self.store(.date(Date()), .string) }
        #expect(throws: ValueCodingError.self) { try Self.store(.integer(1), .objectID) }
        #expect(throws: ValueCodingError.self) { try Self.read(.blob(Data([1, 2, 3])), .uuid) }
        #expect(throws: ValueCodingError.self) { try Self.read(.text("soon"), .date) }
        #expect(throws: ValueCodingError.self) { try Self.read(.real(1.5), .integer64) }
        #expect(throws: ValueCodingError.self) { try Self.read(.integer(40_000), .integer16) }
        #expect(throws: ValueCodingError.self) { try Self.read(.real(.infinity), .decimal) }
        #expect(throws: ValueCodingError.self) {
            try Self.read(.blob(Data([0xFF, 0xFE])), .string)
        }
        #expect(throws: ValueCodingError.self) { try Self.read(.integer(1), .uri) }
        #expect(throws: ValueCodingError.self) { try Self.read(.real(1e30), .integer64) }
        do {
            _ = try Self.read(.text("soon"), .date)
            Issue.record("a TEXT date was read")
        } catch {
            #expect(error.description.contains("TEXT"))
            #expect(error.description.contains("Date"))
        }
    }
}
