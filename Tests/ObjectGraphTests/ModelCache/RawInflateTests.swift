import Foundation
import Testing

@testable import ObjectGraph

/// The raw DEFLATE reader: stored, fixed and dynamic blocks inflate to what zlib compressed,
/// and malformed streams fail with the byte where the fault is, in bounded output.
struct RawInflateTests {
    static let text = "hello hello hello hello hello!"
    static let sentence =
        String(repeating: "Core Data keeps the compiled model inside each SQLite store. ", count: 3)
        + "The quick brown fox jumps over the lazy dog 0123456789."

    /// Bytes from base64 (test data made by Python's `zlib.compressobj(level, DEFLATED, -15)`).
    static func bytes(_ base64: String) -> Data { Data(base64Encoded: base64) ?? Data() }

    @Test func storedFixedAndDynamicBlocksInflate() throws {
        let stored = Self.bytes("AR4A4f9oZWxsbyBoZWxsbyBoZWxsbyBoZWxsbyBoZWxsbyE=")
        let fixed = Self.bytes("y0jNyclXyMBOKgIA")
        let dynamic = Self.bytes(
            "xczJEcIwEETRVDoCF6uBszlyoXACQmrwYMljJJktelQkwf2/32gk9iYb9OSYkDvCahjF0yGoo4cMSRxBYzucjgfJRMqFVWj+htsS3yexPc5RnwMu+sJtCmWjD8bfy5vPG06vmM0Xy9W63mx31Rc="
        )
        #expect(try RawInflate.inflate(stored) == Data(Self.text.utf8))
        #expect(try RawInflate.inflate(fixed) == Data(Self.text.utf8))
        #expect(try RawInflate.inflate(dynamic) == Data(Self.sentence.utf8))
    }

    @Test func truncatedStreamsNameTheirEnd() throws {
        let dynamic = Self.bytes(
            "xczJEcIwEETRVDoCF6uBszlyoXACQmrwYMljJJktelQkwf2/32gk9iYb9OSYkDvCahjF0yGoo4cMSRxBYzucjgfJRMqFVWj+htsS3yexPc5RnwMu+sJtCmWjD8bfy5vPG06vmM0Xy9W63mx31Rc="
        )
        for length in 0..<dynamic.count {
            #expect(throws: InflateError.self) { try RawInflate.inflate(dynamic.prefix(length)) }
        }
        #expect(throws: InflateError(offset: 0, reason: "the stream ends early")) {
            try RawInflate.inflate(Data())
        }
    }

    @Test func malformedBlocksAreRefused() throws {
        // Block type 3 (reserved).
        #expect(throws: InflateError(offset: 1, reason: "block type 3 is reserved")) {
            try RawInflate.inflate(Data([0x07]))
        }
        // A stored block whose length does not match its complement.
        #expect(throws: InflateError.self) {
            try RawInflate.inflate(Data([0x01, 0x05, 0x00, 0x00, 0x00]))
        }
        // A fixed block whose first code is a back reference (length 3, distance 1) to nothing.
        #expect(throws: InflateError.self) { try RawInflate.inflate(Data([0x03, 0x02, 0x00])) }
    }

    @Test func outputPastTheLimitIsRefused() throws {
        // 'a' then back references of 258 bytes at distance 1, repeated: a DEFLATE bomb.
        var bits = DeflateBitWriter()
        bits.write(1, count: 1)  // final
        bits.write(1, count: 2)  // fixed
        bits.writeLiteral(0x61)
        for _ in 0..<2_000 {
            bits.writeCode(0b1100_0101, length: 8)  // length symbol 285 (258 bytes)
            bits.writeCode(0, length: 5)  // distance symbol 0 (1 byte)
        }
        bits.writeCode(0, length: 7)  // end of block
        bits.flush()
        let bomb = Data(bits.output)
        #expect(try RawInflate.inflate(bomb).count == 1 + 2_000 * 258)
        #expect(throws: InflateError.self) { try RawInflate.inflate(bomb, limit: 100_000) }
    }
}
