import Foundation
import KeyedArchive
import Testing

/// Each Foundation class by the format's rules: the archive ``FoundationArchive`` writes for a
/// value is the one laid out object by object as `NSKeyedArchiver` lays it out (the object, then
/// what it refers to in encoding order, then its class record; `$class` last), written with
/// ``KeyedArchiveBuilder``; and it reads back as the value.
@Suite struct FoundationArchiveTests {
    /// A class record `{$classname, $classes}`.
    static func record(_ name: String, _ chain: [String]) -> PropertyListObject {
        .dictionary([
            "$classname": .string(name),
            "$classes": .array((chain + ["NSObject"]).map { .string($0) }),
        ])
    }

    /// The archive of `objects` (after `$null`), root object 1.
    static func laidOut(_ objects: [PropertyListObject]) -> Data {
        var builder = KeyedArchiveBuilder()
        for object in objects { _ = builder.add(object) }
        return builder.archive(root: .uid(1))
    }

    static func expectRule(_ value: FoundationValue, _ objects: [PropertyListObject]) throws {
        let expected = laidOut(objects)
        #expect(try FoundationArchive.encode(value) == expected, "\(value)")
        #expect(try FoundationArchive.decode(expected) == value)
        #expect(try FoundationArchive.encode(value, like: expected) == expected)
    }

    @Test("strings, numbers and data are written as themselves in $objects")
    func scalars() throws {
        try Self.expectRule(.string("Ada"), [.string("Ada")])
        try Self.expectRule(.string("Größe ⭐️"), [.string("Größe ⭐️")])
        try Self.expectRule(.number(.integer(-5)), [.integer(-5)])
        try Self.expectRule(.number(.integer(17_193_901_029)), [.integer(17_193_901_029)])
        try Self.expectRule(.number(.double(2.5)), [.real(2.5)])
        try Self.expectRule(.number(.bool(true)), [.bool(true)])
        try Self.expectRule(.data(Data([1, 2, 3])), [.data(Data([1, 2, 3]))])
    }

    @Test("a float is a 4-byte real and an unsigned integer above Int64.max a 16-byte integer")
    func numberWidths() throws {
        let float = try FoundationArchive.encode(.number(.float(1.5)))
        #expect(float.range(of: Data([0x22, 0x3F, 0xC0, 0x00, 0x00])) != nil)
        #expect(try FoundationArchive.decode(float) == .number(.float(1.5)))
        let big = try FoundationArchive.encode(.number(.unsignedInteger(UInt64.max)))
        #expect(
            big.range(
                of: Data(
                    [0x14] + [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0xFF, count: 8)))
                != nil)
        #expect(try FoundationArchive.decode(big) == .number(.unsignedInteger(UInt64.max)))
    }

    @Test("NSDate, NSUUID and NSNull are objects with their fields and a class record")
    func dateUUIDNull() throws {
        let date = Date(timeIntervalSinceReferenceDate: 606_520_077.8892)
        try Self.expectRule(
            .date(date),
            [
                .dictionary(["NS.time": .real(606_520_077.8892), "$class": .uid(2)]),
                Self.record("NSDate", ["NSDate"]),
            ])
        let uuid = try #require(UUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34"))
        let bytes = withUnsafeBytes(of: uuid.uuid) { Data($0) }
        try Self.expectRule(
            .uuid(uuid),
            [
                .dictionary(["NS.uuidbytes": .data(bytes), "$class": .uid(2)]),
                Self.record("NSUUID", ["NSUUID"]),
            ])
        try Self.expectRule(
            .null, [.dictionary(["$class": .uid(2)]), Self.record("NSNull", ["NSNull"])])
    }

    @Test("an NSURL writes its base first, then its relative string")
    func url() throws {
        let value = FoundationValue.url(
            relative: "foo.xml", base: .url(relative: "https://www.example.com", base: .null))
        try Self.expectRule(
            value,
            [
                .dictionary(["NS.base": .uid(2), "NS.relative": .uid(5), "$class": .uid(4)]),
                .dictionary(["NS.base": .uid(0), "NS.relative": .uid(3), "$class": .uid(4)]),
                .string("https://www.example.com"), Self.record("NSURL", ["NSURL"]),
                .string("foo.xml"),
            ])
        #expect(value.url?.absoluteString == "https://www.example.com/foo.xml")
    }

    @Test("collections list their members' references; a dictionary its keys, then its values")
    func collections() throws {
        try Self.expectRule(
            .array([.number(.integer(1)), .string("a")]),
            [
                .dictionary(["NS.objects": .array([.uid(2), .uid(3)]), "$class": .uid(4)]),
                .integer(1), .string("a"), Self.record("NSArray", ["NSArray"]),
            ])
        try Self.expectRule(
            .set([.string("x")]),
            [
                .dictionary(["NS.objects": .array([.uid(2)]), "$class": .uid(3)]), .string("x"),
                Self.record("NSSet", ["NSSet"]),
            ])
        try Self.expectRule(
            .orderedSet([.string("valgeir"), .string("nico")]),
            [
                .dictionary(["NS.object.0": .uid(2), "NS.object.1": .uid(3), "$class": .uid(4)]),
                .string("valgeir"), .string("nico"), Self.record("NSOrderedSet", ["NSOrderedSet"]),
            ])
        try Self.expectRule(
            .dictionary([
                .init(key: .string("k"), value: .number(.double(1.5))),
                .init(key: .string("j"), value: .array([])),
            ]),
            [
                .dictionary([
                    "NS.keys": .array([.uid(2), .uid(3)]),
                    "NS.objects": .array([.uid(4), .uid(5)]),
                    "$class": .uid(7),
                ]),
                .string("k"), .string("j"), .real(1.5),
                .dictionary(["NS.objects": .array([]), "$class": .uid(6)]),
                Self.record("NSArray", ["NSArray"]), Self.record("NSDictionary", ["NSDictionary"]),
            ])
    }

    @Test("equal numbers are one object, equal strings are not (as Foundation's tagged numbers)")
    func sharing() throws {
        try Self.expectRule(
            .array([.number(.integer(1)), .number(.integer(1)), .string("a"), .string("a")]),
            [
                .dictionary([
                    "NS.objects": .array([.uid(2), .uid(2), .uid(3), .uid(4)]), "$class": .uid(5),
                ]),
                .integer(1), .string("a"), .string("a"), Self.record("NSArray", ["NSArray"]),
            ])
    }

    @Test("nesting of every kind reads back as written")
    func nesting() throws {
        let uuid = UUID()
        let value = FoundationValue.dictionary([
            .init(
                key: .string("list"),
                value: .array([
                    .set([.number(.bool(false)), .date(Date(timeIntervalSinceReferenceDate: 1))]),
                    .orderedSet([.uuid(uuid), .null]),
                ])),
            .init(key: .number(.integer(3)), value: .data(Data(repeating: 7, count: 40))),
            .init(key: .string("url"), value: .url(relative: "file:///tmp/a", base: .null)),
        ])
        let bytes = try FoundationArchive.encode(value)
        #expect(try FoundationArchive.decode(bytes) == value)
        #expect(try FoundationArchive.encode(value, like: bytes) == bytes)
    }

    @Test("a value written like its archive keeps mutable class names; a change keeps the rest")
    func mutableClassesKept() throws {
        let source = Self.laidOut([
            .dictionary(["NS.objects": .array([.uid(2), .uid(4)]), "$class": .uid(5)]),
            .dictionary(["NS.string": .string("ab"), "$class": .uid(3)]),
            Self.record("NSMutableString", ["NSMutableString", "NSString"]), .string("b"),
            Self.record("NSMutableArray", ["NSMutableArray", "NSArray"]),
        ])
        let value = try FoundationArchive.decode(source)
        #expect(value == .array([.string("ab"), .string("b")]))
        #expect(try FoundationArchive.encode(value, like: source) == source)
        let changed = try FoundationArchive.encode(
            .array([.string("ab"), .string("c")]), like: source)
        #expect(changed.range(of: Data("NSMutableArray".utf8)) != nil)
        #expect(changed.range(of: Data("NSMutableString".utf8)) != nil)
        #expect(try FoundationArchive.decode(changed) == .array([.string("ab"), .string("c")]))
        let fresh = try FoundationArchive.encode(value)
        #expect(fresh.range(of: Data("NSMutableArray".utf8)) == nil)
    }
}
