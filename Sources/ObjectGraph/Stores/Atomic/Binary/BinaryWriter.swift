import Foundation

/// Appends the binary store's primitive encodings to a byte buffer: little-endian fixed-width
/// integers, LEB128 varints, length-prefixed UTF-8 and bytes.
struct BinaryWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    mutating func raw(_ values: [UInt8]) {
        bytes.append(contentsOf: values)
    }

    mutating func uint16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    mutating func uint32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
        }
    }

    mutating func uint64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    /// Unsigned LEB128: seven bits a byte, low bits first, high bit set on all but the last.
    mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func varint(_ value: Int) {
        varint(UInt64(bitPattern: Int64(value)))
    }

    mutating func varint(_ value: Int64) {
        varint(UInt64(bitPattern: value))
    }

    /// A signed integer, zigzag-mapped (0, -1, 1, -2, … → 0, 1, 2, 3, …) then as a varint.
    mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func double(_ value: Double) {
        uint64(value.bitPattern)
    }

    /// A varint byte count, then the UTF-8 bytes.
    mutating func string(_ value: String) {
        var text = value
        text.withUTF8 { utf8 in
            varint(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    /// A varint byte count, then the bytes.
    mutating func data(_ value: Data) {
        varint(value.count)
        bytes.append(contentsOf: value)
    }
}
