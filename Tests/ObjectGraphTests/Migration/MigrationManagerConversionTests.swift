import Foundation
import ObjectGraph
import Testing

/// Values are converted to the destination attribute's type with inference's table.
@Suite struct MigrationManagerConversionTests {
    private func convert(_ value: Value, _ type: AttributeType) -> Value? {
        try? MigrationValueConversion.convert(
            value, to: type, entity: "E", property: "p", object: "E/p1")
    }

    @Test("numbers: widths checked, truncation toward zero, Float precision, Booleans")
    func numbers() {
        #expect(convert(.integer(32767), .integer16) == .integer(32767))
        #expect(convert(.integer(32768), .integer16) == nil)
        #expect(convert(.double(-2.9), .integer32) == .integer(-2))
        #expect(convert(.double(.nan), .integer64) == nil)
        #expect(convert(.double(1e19), .integer64) == nil)
        #expect(convert(.decimal(Decimal(string: "-7.8")!), .integer64) == .integer(-7))
        #expect(convert(.decimal(Decimal(Int64.min)), .integer64) == .integer(Int64.min))
        #expect(convert(.integer(3), .double) == .double(3))
        #expect(convert(.double(0.1), .float) == .double(Double(Float(0.1))))
        #expect(convert(.double(1e300), .float) == nil)
        #expect(convert(.integer(5), .decimal) == .decimal(5))
        #expect(convert(.double(.infinity), .decimal) == nil)
        #expect(convert(.integer(0), .boolean) == .bool(false))
        #expect(convert(.double(0.5), .boolean) == .bool(true))
        #expect(convert(.bool(true), .integer16) == .integer(1))
        #expect(convert(.bool(true), .double) == .double(1))
    }

    @Test("strings: from integers and Booleans; exact text to other types only")
    func strings() {
        #expect(convert(.integer(-42), .string) == .string("-42"))
        #expect(convert(.bool(false), .string) == .string("0"))
        #expect(convert(.double(1.5), .string) == nil)
        #expect(convert(.string("42"), .integer16) == .integer(42))
        #expect(convert(.string("4x"), .integer16) == nil)
        #expect(convert(.string("YES"), .boolean) == .bool(true))
        let id = UUID()
        #expect(convert(.string(id.uuidString), .uuid) == .uuid(id))
        #expect(convert(.string("not a uuid"), .uuid) == nil)
    }

    @Test("other types only from their own kind; nil stays nil; the error names the object")
    func others() {
        let now = Date()
        #expect(convert(.date(now), .date) == .date(now))
        #expect(convert(.integer(1), .date) == nil)
        #expect(convert(.data(Data([1])), .transformable) == .data(Data([1])))
        #expect(convert(.string("x"), .binary) == nil)
        #expect(convert(.null, .integer16) == .null)
        #expect(convert(.integer(1), .undefined) == .integer(1))
        #expect(
            throws: MigrationError.cannotConvertValue(
                entity: "E", property: "p", reason: "E/p1: 70000 does not fit Integer 16")
        ) {
            try MigrationValueConversion.convert(
                .integer(70000), to: .integer16, entity: "E", property: "p", object: "E/p1")
        }
    }
}
