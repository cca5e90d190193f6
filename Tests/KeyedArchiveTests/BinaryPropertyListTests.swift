import Foundation
import KeyedArchive
import Testing

/// The binary property list reader and writer: every object kind round-trips, Foundation reads
/// what we write and we read what Foundation writes, and malformed bytes throw errors naming
/// the byte.
@Suite struct BinaryPropertyListTests {
    static let sample: PropertyListObject = .dictionary([
        "null": .null, "yes": .bool(true), "no": .bool(false), "small": .integer(7),
        "byte": .integer(200), "short": .integer(40_000), "int": .integer(3_000_000_000),
        "negative": .integer(-5), "min": .integer(.min), "max": .integer(.max),
        "real": .real(2.5), "date": .date(Date(timeIntervalSinceReferenceDate: 86_400.5)),
        "data": .data(Data((0..<40).map { UInt8($0) })), "ascii": .string("numberOfFlagella"),
        "long": .string(String(repeating: "x", count: 300)), "unicode": .string("⭐️ Größe"),
        "uid": .uid(70_000), "array": .array([.integer(1), .string("two"), .array([])]),
        "set": .set([.integer(1)]), "nested": .dictionary(["a": .dictionary(["b": .null])]),
    ])

    @Test("every kind of object reads back as written")
    func roundTrip() throws {
        let bytes = BinaryPropertyList.encode(Self.sample)
        #expect(try BinaryPropertyList.decode(bytes) == Self.sample)
    }

    @Test("Foundation reads what we write, and we read what Foundation writes")
    func foundationAgrees() throws {
        let plain: PropertyListObject = .dictionary([
            "name": .string("Größe"), "count": .integer(42), "ratio": .real(0.25),
            "flags": .array([.bool(true), .bool(false)]), "bytes": .data(Data([1, 2, 3])),
        ])
        let ours = BinaryPropertyList.encode(plain)
        let read = try PropertyListSerialization.propertyList(from: ours, format: nil)
        let dictionary = try #require(read as? [String: Any])
        #expect(dictionary["name"] as? String == "Größe")
        #expect((dictionary["count"] as? NSNumber)?.intValue == 42)
        let theirs = try PropertyListSerialization.data(
            fromPropertyList: ["name": "Größe", "count": 42, "list": [1, 2, 3]] as [String: Any],
            format: .binary, options: 0)
        let decoded = try BinaryPropertyList.decode(theirs)
        guard case .dictionary(let entries) = decoded else {
            Issue.record("not a dictionary: \(decoded)")
            return
        }
        #expect(entries["name"] == .string("Größe"))
        #expect(entries["count"] == .integer(42))
        #expect(entries["list"] == .array([.integer(1), .integer(2), .integer(3)]))
    }

    @Test("a file that is not a binary property list throws, naming the byte")
    func notAPropertyList() {
        #expect(throws: KeyedArchiveError.self) { try BinaryPropertyList.decode(Data()) }
        let text = Data(String(repeating: "<plist>", count: 10).utf8)
        #expect(
            throws: KeyedArchiveError.malformedPropertyList(
                offset: 0, reason: "the file does not start with bplist00")
        ) {
            try BinaryPropertyList.decode(text)
        }
    }

    /// A hand-made list: the objects given (their bytes), offsets of one byte, references of one
    /// byte, the top object 0.
    static func handMade(_ objects: [[UInt8]], top: UInt8 = 0) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let table = bytes.count
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count)]
        bytes += [0, 0, 0, 0, 0, 0, 0, top]
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        return Data(bytes)
    }

    @Test("an array that contains itself is a cycle, not an endless recursion")
    func cycle() {
        let data = Self.handMade([[0xA1, 0x00]])
        #expect(
            throws: KeyedArchiveError.malformedPropertyList(
                offset: 8, reason: "object 0 contains itself (a reference cycle)")
        ) {
            try BinaryPropertyList.decode(data)
        }
    }

    @Test("a reference to an object that is not there throws")
    func danglingReference() {
        let data = Self.handMade([[0xA1, 0x05]])
        #expect(
            throws: KeyedArchiveError.malformedPropertyList(
                offset: 9, reason: "reference 5 names no object (there are 1)")
        ) {
            try BinaryPropertyList.decode(data)
        }
    }

    @Test("a length running past the objects throws, naming the object's byte")
    func lengthPastTheEnd() {
        let data = Self.handMade([[0x4F, 0x10, 0xFF, 1, 2]])
        #expect(throws: KeyedArchiveError.self) { try BinaryPropertyList.decode(data) }
        do {
            _ = try BinaryPropertyList.decode(data)
        } catch {
            guard case .malformedPropertyList(let offset, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(offset == 8)
        }
    }

    @Test("nesting deeper than the limit throws")
    func tooDeep() {
        var value = PropertyListObject.null
        for _ in 0...BinaryPropertyList.maximumDepth { value = .array([value]) }
        let bytes = BinaryPropertyList.encode(value)
        #expect(throws: KeyedArchiveError.self) { try BinaryPropertyList.decode(bytes) }
    }

    @Test("containers shared at every level are refused, not walked 2^60 times")
    func sharedObjectsAreBounded() throws {
        // Object k is an array holding object k+1 twice, 60 levels down: 2^60 paths, which any
        // walk of the decoded tree (a comparison, a conversion) would follow.
        var objects: [[UInt8]] = []
        for k in 0..<60 { objects.append([0xA2, UInt8(k + 1), UInt8(k + 1)]) }
        objects.append([0x10, 0x01])
        #expect {
            _ = try BinaryPropertyList.decode(Self.handMade(objects))
        } throws: { error in
            "\(error)".contains("stand for more than")
        }
    }
}
