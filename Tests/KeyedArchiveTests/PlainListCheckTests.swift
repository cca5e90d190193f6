import Foundation
import Testing

@testable import KeyedArchive

/// Binary property lists that are valid by the format but would trap or never finish in
/// Foundation's reader, or expand past any bound for whoever walks the decoded tree.
@Suite("Plain-list checks and shared containers")
struct PlainListCheckTests {
    /// {"k": a} where a = [b, b], b = [c, c] … 40 levels: 210 bytes that stand for 2^40 values
    /// when each use of a shared container is read again.
    static let sharedContainers: Data = {
        var objects: [[UInt8]] = [[0xD1, 1, 2], [0x51, 0x6B]]
        for level in 0..<40 { objects.append([0xA2, UInt8(3 + level), UInt8(3 + level)]) }
        objects.append([0x10, 0x01])
        return BinaryPropertyListTests.handMade(objects)
    }()

    /// {"k": {set of {}}}: Foundation's reader crashes bridging it.
    static let setOfDictionary = Data([
        0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30, 0xD1, 0x01, 0x02, 0x51, 0x6B, 0xC1, 0x03,
        0xD0, 0x08, 0x0B, 0x0D, 0x0F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x01, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
    ])

    @Test("shared containers that expand past the bound are refused, naming the byte")
    func expansionIsBounded() {
        #expect(Self.sharedContainers.count == 210)
        #expect {
            _ = try BinaryPropertyList.decode(Self.sharedContainers)
        } throws: { error in
            "\(error)".contains("stand for more than")
        }
    }

    @Test("a little sharing is still read")
    func someSharingReads() throws {
        // [a, a] with a = [1, 2]: read as [[1, 2], [1, 2]].
        let list = BinaryPropertyListTests.handMade([
            [0xA2, 1, 1], [0xA2, 2, 3], [0x10, 1], [0x10, 2],
        ])
        let value = try BinaryPropertyList.decode(list)
        let pair = PropertyListObject.array([.integer(1), .integer(2)])
        #expect(value == .array([pair, pair]))
        #expect(throws: KeyedArchiveError.self) { try BinaryPropertyList.checkPlainList(list) }
    }

    @Test("plain-list check: sets, references and shared containers are refused; plain lists pass")
    func plainListCheck() throws {
        #expect(throws: KeyedArchiveError.self) {
            try BinaryPropertyList.checkPlainList(Self.setOfDictionary)
        }
        #expect(throws: KeyedArchiveError.self) {
            try BinaryPropertyList.checkPlainList(Self.sharedContainers)
        }
        let uid = BinaryPropertyListTests.handMade([[0xA1, 1], [0x80, 0x05]])
        #expect(throws: KeyedArchiveError.self) { try BinaryPropertyList.checkPlainList(uid) }
        let plain = try PropertyListSerialization.data(
            fromPropertyList: ["name": "Ada", "list": [1, 2, ["x": 1.5]]], format: .binary,
            options: 0)
        try BinaryPropertyList.checkPlainList(plain)
    }
}
