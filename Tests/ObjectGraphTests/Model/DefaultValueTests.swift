import Foundation
import Testing

@testable import ObjectGraph

@Suite("Default values read the way Core Data reads them")
struct DefaultValueTests {
    @Test(
        "loose defaults seen in real models",
        arguments: [
            (AttributeType.integer32, "0.0", ValueReading.lenient(.integer(0))),
            (.integer64, "NO", .lenient(.integer(0))),
            (.integer32, "YES", .lenient(.integer(0))),
            (.integer16, "42", .exact(.integer(42))),
            (.integer16, "70000", .lenient(.integer(32767))),
            (.boolean, "0", .lenient(.bool(false))),
            (.boolean, "0.0", .lenient(.bool(false))),
            (.boolean, "100", .lenient(.bool(true))),
            (.boolean, "YES", .exact(.bool(true))),
            (.boolean, "NO", .exact(.bool(false))),
            (.double, "1.5", .exact(.double(1.5))),
            (.float, "abc", .lenient(.double(0))),
            (.string, "", .exact(.string(""))),
            (.string, " ", .exact(.string(" "))),
            (.uuid, "empy", .unreadable),
            (.date, "January 1, 2010", .unreadable),
        ])
    func loose(type: AttributeType, text: String, expected: ValueReading) {
        #expect(ValueReading.read(text, as: type) == expected)
    }

    @Test("a Date default comes from defaultDateTimeInterval when present")
    func dateInterval() {
        var born = Attribute("born", type: .date, defaultValueString: "January 1, 2010")
        born.defaultDateTimeInterval = 283_996_800
        #expect(born.defaultValue == .date(Date(timeIntervalSinceReferenceDate: 283_996_800)))
        #expect(Attribute("x", type: .string).defaultValue == .null)
    }

    @Test("a UUID default parses")
    func uuid() {
        let text = "0A7F5C63-1B43-4D2B-9C55-7A1B2C3D4E5F"
        let id = Attribute("id", type: .uuid, defaultValueString: text)
        #expect(id.defaultValue == .uuid(UUID(uuidString: text) ?? UUID()))
    }
}
