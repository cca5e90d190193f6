import Foundation

/// Writes a ``PropertyListTable`` as CFBinaryPList does (`__CFBinaryPlistWriteOrPresize`):
/// the objects in table order, ASCII strings when every character is ASCII and UTF-16
/// otherwise, integers in the fewest of 1, 2, 4 or 8 bytes (negative ones in 8), references of
/// the fewest bytes that hold the object count, offsets of the fewest bytes that hold the
/// offset table's position, and the 32-byte trailer.
struct PropertyListTableWriter {
    private let table: PropertyListTable
    private let referenceSize: Int

    init(_ table: PropertyListTable) {
        self.table = table
        referenceSize = Self.byteCount(UInt64(table.objects.count))
    }

    /// The file's bytes.
    func data() -> Data {
        var output: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.reserveCapacity(table.objects.count)
        for entry in table.objects {
            offsets.append(output.count)
            append(entry, to: &output)
        }
        let tableOffset = output.count
        let offsetSize = Self.byteCount(UInt64(tableOffset))
        for offset in offsets {
            Self.appendBigEndian(UInt64(offset), size: offsetSize, to: &output)
        }
        output += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        Self.appendBigEndian(UInt64(table.objects.count), size: 8, to: &output)
        Self.appendBigEndian(UInt64(table.top), size: 8, to: &output)
        Self.appendBigEndian(UInt64(tableOffset), size: 8, to: &output)
        return Data(output)
    }

    private func append(_ entry: PropertyListTable.Entry, to output: inout [UInt8]) {
        switch entry {
        case .null: output.append(0x00)
        case .bool(let flag): output.append(flag ? 0x09 : 0x08)
        case .integer(let number): Self.appendInteger(UInt64(bitPattern: number), to: &output)
        case .unsignedInteger(let number):
            output.append(0x14)
            Self.appendBigEndian(0, size: 8, to: &output)
            Self.appendBigEndian(number, size: 8, to: &output)
        case .float(let number):
            output.append(0x22)
            Self.appendBigEndian(UInt64(number.bitPattern), size: 4, to: &output)
        case .double(let number):
            output.append(0x23)
            Self.appendBigEndian(number.bitPattern, size: 8, to: &output)
        case .date(let seconds):
            output.append(0x33)
            Self.appendBigEndian(seconds.bitPattern, size: 8, to: &output)
        case .data(let bytes):
            Self.appendMarker(0x4, count: bytes.count, to: &output)
            output += bytes
        case .string(let text):
            if text.unicodeScalars.allSatisfy({ $0.isASCII }) {
                Self.appendMarker(0x5, count: text.utf8.count, to: &output)
                output += text.utf8
            } else {
                let units = Array(text.utf16)
                Self.appendMarker(0x6, count: units.count, to: &output)
                for unit in units { Self.appendBigEndian(UInt64(unit), size: 2, to: &output) }
            }
        case .uid(let number):
            let size = Self.byteCount(number)
            output.append(0x80 | UInt8(size - 1))
            Self.appendBigEndian(number, size: size, to: &output)
        case .array(let elements), .set(let elements):
            let kind: UInt8
            if case .array = entry { kind = 0xA } else { kind = 0xC }
            Self.appendMarker(kind, count: elements.count, to: &output)
            for element in elements { appendReference(element, to: &output) }
        case .dictionary(let keys, let values):
            Self.appendMarker(0xD, count: keys.count, to: &output)
            for reference in keys + values { appendReference(reference, to: &output) }
        }
    }

    private func appendReference(_ reference: Int, to output: inout [UInt8]) {
        Self.appendBigEndian(UInt64(reference), size: referenceSize, to: &output)
    }

    /// CF's `_appendInt`: the fewest of 1, 2, 4 or 8 bytes holding the unsigned value.
    static func appendInteger(_ value: UInt64, to output: inout [UInt8]) {
        let size = byteCount(value)
        output.append(0x10 | UInt8(size.trailingZeroBitCount))
        appendBigEndian(value, size: size, to: &output)
    }

    /// A marker with its count: in the low nibble below 15, else an integer object after it.
    static func appendMarker(_ kind: UInt8, count: Int, to output: inout [UInt8]) {
        if count < 15 {
            output.append(kind << 4 | UInt8(count))
        } else {
            output.append(kind << 4 | 0x0F)
            appendInteger(UInt64(count), to: &output)
        }
    }

    /// CF's `_byteCount`: the fewest of 1, 2, 4 or 8 bytes holding `value`.
    static func byteCount(_ value: UInt64) -> Int {
        if value <= 0xFF { return 1 }
        if value <= 0xFFFF { return 2 }
        if value <= 0xFFFF_FFFF { return 4 }
        return 8
    }

    static func appendBigEndian(_ value: UInt64, size: Int, to bytes: inout [UInt8]) {
        for k in stride(from: size - 1, through: 0, by: -1) {
            bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(k))))
        }
    }
}
