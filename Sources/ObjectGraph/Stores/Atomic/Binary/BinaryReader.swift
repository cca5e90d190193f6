import Foundation

/// Reads the binary store's primitive encodings from a region of a file, checking every read
/// against the region's end. Errors name the file, the section and the absolute byte offset.
/// Never traps: every index is checked before use.
struct BinaryReader {
    let buffer: UnsafeRawBufferPointer
    let path: String
    /// The section being read, for errors (`header`, `META`, …).
    var section: String
    /// The absolute offset of the next byte.
    private(set) var offset: Int
    /// The absolute offset just past the region.
    private(set) var end: Int

    init(buffer: UnsafeRawBufferPointer, path: String, section: String, offset: Int, end: Int) {
        self.buffer = buffer
        self.path = path
        self.section = section
        self.offset = offset
        self.end = min(end, buffer.count)
    }

    /// Bytes left in the region.
    var remaining: Int { end - offset }

    /// An error at the current offset (or at `at`).
    func corrupt(_ reason: String, at position: Int? = nil) -> StoreError {
        StoreError.corruptFile(
            path: path, section: section, offset: position ?? offset, reason: reason)
    }

    private func need(_ count: Int, _ what: String) throws {
        guard count >= 0, count <= remaining else {
            throw corrupt(
                "\(what) needs \(count) bytes but only \(max(remaining, 0)) remain (truncated?)")
        }
    }

    mutating func byte(_ what: String = "a byte") throws -> UInt8 {
        try need(1, what)
        let value = buffer[offset]
        offset += 1
        return value
    }

    mutating func raw(_ count: Int, _ what: String) throws -> UnsafeRawBufferPointer {
        try need(count, what)
        let slice = UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + count)])
        offset += count
        return slice
    }

    mutating func uint16(_ what: String) throws -> UInt16 {
        try need(2, what)
        let value = UInt16(buffer[offset]) | UInt16(buffer[offset + 1]) << 8
        offset += 2
        return value
    }

    mutating func uint32(_ what: String) throws -> UInt32 {
        try need(4, what)
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(buffer[offset + index]) << UInt32(8 * index) }
        offset += 4
        return value
    }

    mutating func uint64(_ what: String) throws -> UInt64 {
        try need(8, what)
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(buffer[offset + index]) << UInt64(8 * index) }
        offset += 8
        return value
    }

    /// An unsigned LEB128 varint of at most 10 bytes that fits 64 bits.
    mutating func varint(_ what: String) throws -> UInt64 {
        let start = offset
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < end else {
                throw corrupt("\(what): the number runs past the end of the section", at: start)
            }
            let next = buffer[offset]
            offset += 1
            if shift == 63, next > 1 {
                throw corrupt("\(what): the number does not fit 64 bits", at: start)
            }
            value |= UInt64(next & 0x7F) << shift
            if next & 0x80 == 0 { return value }
            shift += 7
            if shift > 63 {
                throw corrupt("\(what): the number does not fit 64 bits", at: start)
            }
        }
    }

    /// A varint that must be at most `limit`.
    mutating func int(_ what: String, max limit: Int) throws -> Int {
        let start = offset
        let value = try varint(what)
        guard value <= UInt64(max(limit, 0)) else {
            throw corrupt("\(what) is \(value), more than the possible \(limit)", at: start)
        }
        return Int(value)
    }

    /// A count of items each at least `minimumSize` bytes long: capped by the bytes left.
    mutating func count(_ what: String, minimumSize: Int = 1) throws -> Int {
        try int(what, max: remaining / max(minimumSize, 1))
    }

    mutating func int64(_ what: String) throws -> Int64 {
        Int64(bitPattern: try varint(what))
    }

    mutating func signed(_ what: String) throws -> Int64 {
        let raw = try varint(what)
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    mutating func double(_ what: String) throws -> Double {
        Double(bitPattern: try uint64(what))
    }

    mutating func string(_ what: String) throws -> String {
        let start = offset
        let length = try int("\(what) length", max: remaining)
        let bytes = try raw(length, what)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw corrupt("\(what) is not valid UTF-8", at: start)
        }
        return text
    }

    mutating func data(_ what: String) throws -> Data {
        let length = try int("\(what) length", max: remaining)
        return Data(try raw(length, what))
    }
}
