import Foundation

/// Reads a binary property list's object table for ``PropertyListTable``: the trailer, the
/// offset table and each object are checked against the file; every reference must name an
/// object. Objects are read one by one, without following references (so cycles and depth
/// cost nothing here).
struct PropertyListTableReader {
    private let bytes: [UInt8]
    private let offsetSize: Int
    private let referenceSize: Int
    private let objectCount: Int
    let topIndex: Int
    private let tableOffset: Int
    /// Where each object read by ``entries()`` starts.
    private(set) var offsets: [Int] = []

    private static let header: [UInt8] = Array("bplist00".utf8)
    private static let trailerSize = 32

    init(bytes: [UInt8]) throws(KeyedArchiveError) {
        self.bytes = bytes
        let count = bytes.count
        guard count >= Self.header.count + 2 + Self.trailerSize else {
            throw .malformedPropertyList(
                offset: 0, reason: "\(count) bytes are too few for a binary property list")
        }
        guard Array(bytes[0..<Self.header.count]) == Self.header else {
            throw .malformedPropertyList(offset: 0, reason: "the file does not start with bplist00")
        }
        let trailer = count - Self.trailerSize
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw .malformedPropertyList(
                offset: trailer + 6,
                reason: "offset size \(offsetSize) or reference size \(referenceSize) is not 1 to 8"
            )
        }
        let objects = Self.bigEndian(bytes, at: trailer + 8, size: 8)
        let top = Self.bigEndian(bytes, at: trailer + 16, size: 8)
        let table = Self.bigEndian(bytes, at: trailer + 24, size: 8)
        guard objects >= 1, objects <= UInt64(count), top < objects else {
            throw .malformedPropertyList(
                offset: trailer + 8,
                reason: "object count \(objects) or top object \(top) does not fit the file")
        }
        let tableBytes = objects.multipliedReportingOverflow(by: UInt64(offsetSize))
        let tableEnd = table.addingReportingOverflow(tableBytes.partialValue)
        guard table >= UInt64(Self.header.count + 1), !tableBytes.overflow, !tableEnd.overflow,
            tableEnd.partialValue <= UInt64(trailer)
        else {
            throw .malformedPropertyList(
                offset: trailer + 24,
                reason: "the offset table (at \(table), \(objects) entries of \(offsetSize) bytes)"
                    + " does not lie between the header and the trailer")
        }
        objectCount = Int(objects)
        topIndex = Int(top)
        tableOffset = Int(table)
    }

    /// Every object of the table, in order.
    mutating func entries() throws(KeyedArchiveError) -> [PropertyListTable.Entry] {
        var result: [PropertyListTable.Entry] = []
        result.reserveCapacity(objectCount)
        for index in 0..<objectCount {
            let entry = tableOffset + index * offsetSize
            let offset = Self.bigEndian(bytes, at: entry, size: offsetSize)
            guard offset >= UInt64(Self.header.count), offset < UInt64(tableOffset) else {
                throw .malformedPropertyList(
                    offset: entry,
                    reason:
                        "object \(index) is said to start at byte \(offset), outside the objects"
                )
            }
            offsets.append(Int(offset))
            result.append(try object(at: Int(offset)))
        }
        return result
    }

    private func object(at offset: Int) throws(KeyedArchiveError) -> PropertyListTable.Entry {
        let marker = bytes[offset]
        let info = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            if marker == 0x00 { return .null }
            if marker == 0x08 { return .bool(false) }
            if marker == 0x09 { return .bool(true) }
        case 0x1:
            return try integer(at: offset)
        case 0x2:
            if info == 2 {
                let body = try span(offset + 1, 4, of: offset)
                let bits = UInt32(truncatingIfNeeded: Self.bigEndian(bytes, at: body, size: 4))
                return .float(Float(bitPattern: bits))
            }
            if info == 3 {
                let body = try span(offset + 1, 8, of: offset)
                return .double(Double(bitPattern: Self.bigEndian(bytes, at: body, size: 8)))
            }
        case 0x3:
            if marker == 0x33 {
                let body = try span(offset + 1, 8, of: offset)
                return .date(Double(bitPattern: Self.bigEndian(bytes, at: body, size: 8)))
            }
        case 0x4:
            let (count, start) = try length(info, at: offset)
            let body = try span(start, count, of: offset)
            return .data(Data(bytes[body..<body + count]))
        case 0x5:
            let (count, start) = try length(info, at: offset)
            let body = try span(start, count, of: offset)
            let scalars = bytes[body..<body + count].map { Character(Unicode.Scalar($0)) }
            return .string(String(scalars))
        case 0x6:
            let (count, start) = try length(info, at: offset)
            let (byteCount, overflow) = count.multipliedReportingOverflow(by: 2)
            guard !overflow else {
                throw .malformedPropertyList(offset: offset, reason: "the string is too long")
            }
            let body = try span(start, byteCount, of: offset)
            var units: [UInt16] = []
            units.reserveCapacity(count)
            for k in 0..<count {
                units.append(UInt16(bytes[body + 2 * k]) << 8 | UInt16(bytes[body + 2 * k + 1]))
            }
            return .string(String(decoding: units, as: UTF16.self))
        case 0x7:
            let (count, start) = try length(info, at: offset)
            let body = try span(start, count, of: offset)
            return .string(String(decoding: bytes[body..<body + count], as: UTF8.self))
        case 0x8:
            guard info < 8 else { break }
            let body = try span(offset + 1, info + 1, of: offset)
            return .uid(Self.bigEndian(bytes, at: body, size: info + 1))
        case 0xA, 0xB, 0xC:
            let (count, start) = try length(info, at: offset)
            let elements = try references(count, at: start, of: offset)
            return marker >> 4 == 0xA ? .array(elements) : .set(elements)
        case 0xD:
            let (count, start) = try length(info, at: offset)
            let (doubled, overflow) = count.multipliedReportingOverflow(by: 2)
            guard !overflow else {
                throw .malformedPropertyList(offset: offset, reason: "the dictionary is too long")
            }
            let refs = try references(doubled, at: start, of: offset)
            return .dictionary(keys: Array(refs[0..<count]), values: Array(refs[count...]))
        default:
            break
        }
        let hex = String(marker, radix: 16)
        throw .malformedPropertyList(offset: offset, reason: "unknown object marker 0x\(hex)")
    }

    private func integer(at offset: Int) throws(KeyedArchiveError) -> PropertyListTable.Entry {
        let info = Int(bytes[offset] & 0x0F)
        guard info <= 4 else {
            throw .malformedPropertyList(offset: offset, reason: "integer of 2^\(info) bytes")
        }
        let size = 1 << info
        let body = try span(offset + 1, size, of: offset)
        if size < 8 { return .integer(Int64(Self.bigEndian(bytes, at: body, size: size))) }
        if size == 8 {
            return .integer(Int64(bitPattern: Self.bigEndian(bytes, at: body, size: 8)))
        }
        let high = Self.bigEndian(bytes, at: body, size: 8)
        let low = Self.bigEndian(bytes, at: body + 8, size: 8)
        let signed = Int64(bitPattern: low)
        if high == 0, signed < 0 { return .unsignedInteger(low) }
        guard (high == 0 && signed >= 0) || (high == UInt64.max && signed < 0) else {
            throw .malformedPropertyList(offset: offset, reason: "integer does not fit 64 bits")
        }
        return .integer(signed)
    }

    private func length(_ info: Int, at offset: Int) throws(KeyedArchiveError) -> (Int, Int) {
        if info != 0x0F { return (info, offset + 1) }
        _ = try span(offset + 1, 1, of: offset)
        let marker = bytes[offset + 1]
        guard marker >> 4 == 0x1, marker & 0x0F <= 3,
            case .integer(let value) = try integer(at: offset + 1), value >= 0
        else {
            throw .malformedPropertyList(
                offset: offset + 1, reason: "the length is not a positive integer of 1 to 8 bytes")
        }
        return (Int(value), offset + 2 + (1 << Int(marker & 0x0F)))
    }

    private func span(_ start: Int, _ count: Int, of object: Int) throws(KeyedArchiveError) -> Int {
        let (end, overflow) = start.addingReportingOverflow(count)
        guard count >= 0, !overflow, end <= tableOffset else {
            throw .malformedPropertyList(
                offset: object,
                reason: "the object's \(count) bytes from byte \(start) run past the objects"
                    + " (which end at byte \(tableOffset))")
        }
        return start
    }

    private func references(_ count: Int, at start: Int, of object: Int) throws(KeyedArchiveError)
        -> [Int]
    {
        let (byteCount, overflow) = count.multipliedReportingOverflow(by: referenceSize)
        guard !overflow else {
            throw .malformedPropertyList(offset: object, reason: "too many references")
        }
        let body = try span(start, byteCount, of: object)
        var result: [Int] = []
        result.reserveCapacity(count)
        for k in 0..<count {
            let reference = Self.bigEndian(bytes, at: body + k * referenceSize, size: referenceSize)
            guard reference < UInt64(objectCount) else {
                throw .malformedPropertyList(
                    offset: body + k * referenceSize,
                    reason: "reference \(reference) names no object (there are \(objectCount))")
            }
            result.append(Int(reference))
        }
        return result
    }

    static func bigEndian(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for k in 0..<size { value = value << 8 | UInt64(bytes[offset + k]) }
        return value
    }
}
