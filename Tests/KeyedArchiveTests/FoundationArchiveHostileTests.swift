import Foundation
import KeyedArchive
import Testing

/// Hostile archives of Foundation values: cycles, wrong types, missing fields, truncation, byte
/// flips and deep nesting are ``KeyedArchiveError``s, never traps or endless work.
@Suite struct FoundationArchiveHostileTests {
    static func archive(_ objects: [PropertyListObject], root: UInt64 = 1) -> Data {
        var builder = KeyedArchiveBuilder()
        for object in objects { _ = builder.add(object) }
        return builder.archive(root: .uid(root))
    }

    static func record(_ name: String) -> PropertyListObject {
        .dictionary(["$classname": .string(name), "$classes": .array([.string(name)])])
    }

    static func expectError(
        _ data: Data, _ fragment: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let value = try FoundationArchive.decode(data)
            Issue.record("decoded \(value)", sourceLocation: sourceLocation)
        } catch {
            #expect(
                error.description.contains(fragment), "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("an array that contains itself is a cycle error naming the object")
    func cycle() {
        Self.expectError(
            Self.archive([
                .dictionary(["NS.objects": .array([.uid(1)]), "$class": .uid(2)]),
                Self.record("NSArray"),
            ]),
            "object 1: contains itself")
    }

    @Test("fields of the wrong type or missing are errors naming the object")
    func wrongTypes() {
        Self.expectError(
            Self.archive([
                .dictionary(["NS.time": .string("now"), "$class": .uid(2)]), Self.record("NSDate"),
            ]),
            "object 1: an NSDate without a finite NS.time")
        Self.expectError(
            Self.archive([
                .dictionary(["NS.uuidbytes": .data(Data([1, 2, 3])), "$class": .uid(2)]),
                Self.record("NSUUID"),
            ]),
            "object 1: an NSUUID without 16 NS.uuidbytes")
        Self.expectError(
            Self.archive([
                .dictionary([
                    "NS.keys": .array([.uid(3)]), "NS.objects": .array([]), "$class": .uid(2),
                ]),
                Self.record("NSDictionary"), .string("k"),
            ]),
            "a dictionary with 1 keys and 0 values")
        Self.expectError(
            Self.archive([
                .dictionary(["NS.objects": .integer(3), "$class": .uid(2)]), Self.record("NSArray"),
            ]),
            "NS.objects is not an array")
        Self.expectError(
            Self.archive([
                .dictionary(["NS.objects": .array([.uid(9)]), "$class": .uid(2)]),
                Self.record("NSSet"),
            ]),
            "NS.objects holds something not a reference")
        Self.expectError(
            Self.archive([.dictionary(["$class": .uid(2)]), .string("NSArray")]),
            "$class is not a reference to a class record")
        Self.expectError(
            Self.archive([
                .dictionary(["NS.relative": .integer(1), "$class": .uid(2)]), Self.record("NSURL"),
            ]),
            "an NSURL without an NS.relative string")
        Self.expectError(Self.archive([.array([])]), "object 1: is of kind array, not a value")
        Self.expectError(Self.archive([.string("x")], root: 7), "$top's root is not a reference")
        Self.expectError(
            BinaryPropertyList.encode(.dictionary(["a": .integer(1)])),
            "not the string NSKeyedArchiver")
    }

    @Test("nesting deeper than the limit is an error, not a stack overflow")
    func deepNesting() {
        var objects: [PropertyListObject] = []
        let depth = 2 * KeyedArchive.maximumNesting
        for level in 1...depth {
            let inner: [PropertyListObject] = level < depth ? [.uid(UInt64(level + 1))] : []
            objects.append(
                .dictionary(["NS.objects": .array(inner), "$class": .uid(UInt64(depth + 1))]))
        }
        objects.append(Self.record("NSArray"))
        Self.expectError(Self.archive(objects), "nest more than")
    }

    @Test("every truncation and thousands of byte flips throw or decode, and never trap")
    func truncationAndFlips() throws {
        let value = FoundationValue.dictionary([
            .init(key: .string("when"), value: .date(Date(timeIntervalSinceReferenceDate: 5))),
            .init(
                key: .string("list"), value: .array([.string("a"), .number(.integer(300)), .null])),
            .init(key: .string("id"), value: .uuid(UUID())),
            .init(
                key: .string("url"),
                value: .url(relative: "b", base: .url(relative: "http://x/", base: .null))),
        ])
        let bytes = try FoundationArchive.encode(value)
        for length in 0..<bytes.count {
            #expect(throws: KeyedArchiveError.self) {
                try FoundationArchive.decode(bytes.prefix(length))
            }
        }
        var decoded = 0
        for offset in 8..<bytes.count {
            for flip: UInt8 in [0x01, 0x10, 0x80, 0xFF] {
                var copy = bytes
                copy[offset] ^= flip
                if let read = try? FoundationArchive.decode(copy) {
                    decoded += 1
                    // Whatever decodes encodes again, or throws a typed error.
                    _ = try? FoundationArchive.encode(read, like: copy)
                }
            }
        }
        #expect(decoded > 0)
    }

    @Test("a count claiming more elements than the file holds is an error naming the byte")
    func hugeCount() {
        var bytes = [UInt8]("bplist00".utf8)
        bytes += [0xAF, 0x13, 0x0F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        let table = bytes.count
        bytes += [8]
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]
        bytes += [0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8)
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        #expect(throws: KeyedArchiveError.self) { try FoundationArchive.decode(Data(bytes)) }
    }
}
