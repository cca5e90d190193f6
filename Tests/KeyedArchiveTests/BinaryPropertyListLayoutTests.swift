import Foundation
import KeyedArchive
import Testing

/// ``BinaryPropertyList/encode(_:)`` lays files out as CFBinaryPList does: references as wide
/// as the object count needs (not the highest index), and equal strings and numbers written
/// once.
@Suite struct BinaryPropertyListLayoutTests {
    /// The trailer's offset size, reference size and object count.
    static func trailer(_ data: Data) -> (offsetSize: Int, referenceSize: Int, count: Int) {
        let bytes = [UInt8](data.suffix(32))
        let count = bytes[8..<16].reduce(0) { $0 << 8 | Int($1) }
        return (Int(bytes[6]), Int(bytes[7]), count)
    }

    @Test("256 objects take 2-byte references, as CF sizes them by the count")
    func referenceSizeByCount() throws {
        let list = PropertyListObject.array((0..<255).map { .integer(Int64($0)) })
        let bytes = BinaryPropertyList.encode(list)
        let trailer = Self.trailer(bytes)
        #expect(trailer.count == 256)
        #expect(trailer.referenceSize == 2)
        #expect(try BinaryPropertyList.decode(bytes) == list)
        let smaller = BinaryPropertyList.encode(.array((0..<254).map { .integer(Int64($0)) }))
        #expect(Self.trailer(smaller).referenceSize == 1)
    }

    @Test("equal strings and numbers are one object; Booleans are written at each use")
    func equalScalarsShared() throws {
        let list = PropertyListObject.array([
            .string("a"), .string("a"), .integer(7), .integer(7), .bool(true), .bool(true),
        ])
        let bytes = BinaryPropertyList.encode(list)
        // The array, "a", 7, and true twice.
        #expect(Self.trailer(bytes).count == 5)
        #expect(try BinaryPropertyList.decode(bytes) == list)
    }
}
