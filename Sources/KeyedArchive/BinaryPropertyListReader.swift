import Foundation

/// The reading side of ``BinaryPropertyList``: the file's layout, checked once, and the objects
/// decoded so far (each object is decoded once however many containers refer to it).
struct BinaryPropertyListReader {
    private let bytes: [UInt8]
    private let offsetSize: Int
    private let referenceSize: Int
    private let objectCount: Int
    private let topIndex: Int
    /// Where the offset table starts; objects lie between the header and it.
    private let tableOffset: Int
    private var decoded: [PropertyListObject?]
    private var inProgress: [Bool]

    private static let header: [UInt8] = Array("bplist00".utf8)
    private static let trailerSize = 32

    init(bytes: [UInt8]) throws(KeyedArchiveError) {
        self.bytes = bytes
        let count = bytes.count
        guard count >= Self.header.count + 1 + 1 + Self.trailerSize else {
            throw .malformedPropertyList(
                offset: 0, reason: "\(count) bytes are too few for a binary property list")
        }
        guard Array(bytes[0..<Self.header.count]) == Self.header else {
            throw .malformedPropertyList(offset: 0, reason: "the file does not start with bplist00")
        }
        let trailer = count - Self.trailerSize
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize) else {
            throw .malformedPropertyList(
                offset: trailer + 6, reason: "offset size \(offsetSize) is not 1 to 8 bytes")
        }
        guard (1...8).contains(referenceSize) else {
            throw .malformedPropertyList(
                offset: trailer + 7, reason: "reference size \(referenceSize) is not 1 to 8 bytes")
        }
        let objects = Self.bigEndian(bytes, at: trailer + 8, size: 8)
        let top = Self.bigEndian(bytes, at: trailer + 16, size: 8)
        let table = Self.bigEndian(bytes, at: trailer + 24, size: 8)
        guard objects >= 1, objects <= UInt64(count) else {
            throw .malformedPropertyList(
                offset: trailer + 8, reason: "object count \(objects) does not fit the file")
        }
        guard top < objects else {
            throw .malformedPropertyList(
                offset: trailer + 16,
                reason: "top object \(top) is not among the \(objects) objects")
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
        decoded = Array(repeating: nil, count: objectCount)
        inProgress = Array(repeating: false, count: objectCount)
    }

    /// The top object, decoded with everything it contains.
    mutating func topValue() throws(KeyedArchiveError) -> PropertyListObject {
        try value(at: topIndex, depth: 0)
    }

    // MARK: Objects

    private mutating func value(at index: Int, depth: Int) throws(KeyedArchiveError)
        -> PropertyListObject
    {
        if let known = decoded[index] { return known }
        let offset = try objectOffset(index)
        guard !inProgress[index] else {
            throw .malformedPropertyList(
                offset: offset, reason: "object \(index) contains itself (a reference cycle)")
        }
        guard depth < BinaryPropertyList.maximumDepth else {
            throw .malformedPropertyList(
                offset: offset,
                reason: "containers nest more than \(BinaryPropertyList.maximumDepth) levels deep")
        }
        inProgress[index] = true
        let result = try object(at: offset, depth: depth)
        inProgress[index] = false
        decoded[index] = result
        return result
    }

    private func objectOffset(_ index: Int) throws(KeyedArchiveError) -> Int {
        let entry = tableOffset + index * offsetSize
        let offset = Self.bigEndian(bytes, at: entry, size: offsetSize)
        guard offset >= UInt64(Self.header.count), offset < UInt64(tableOffset) else {
            throw .malformedPropertyList(
                offset: entry,
                reason: "object \(index) is said to start at byte \(offset), outside the objects")
        }
        return Int(offset)
    }

    private mutating func object(at offset: Int, depth: Int) throws(KeyedArchiveError)
        -> PropertyListObject
    {
        let marker = bytes[offset]
        let info = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return .null
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: break
            }
        case 0x1:
            return .integer(try integer(at: offset))
        case 0x2:
            let body = try span(offset + 1, 1 << info, of: offset)
            if info == 2 {
                let bits = UInt32(truncatingIfNeeded: Self.bigEndian(bytes, at: body, size: 4))
                return .real(Double(Float(bitPattern: bits)))
            }
            if info == 3 {
                return .real(Double(bitPattern: Self.bigEndian(bytes, at: body, size: 8)))
            }
        case 0x3:
            if marker == 0x33 {
                let body = try span(offset + 1, 8, of: offset)
                let seconds = Double(bitPattern: Self.bigEndian(bytes, at: body, size: 8))
                guard seconds.isFinite else {
                    throw .malformedPropertyList(offset: offset, reason: "the date is not finite")
                }
                return .date(Date(timeIntervalSinceReferenceDate: seconds))
            }
        case 0x4:
            let (count, start) = try length(info, at: offset)
            let body = try span(start, count, of: offset)
            return .data(Data(bytes[body..<body + count]))
        case 0x5:
            let (count, start) = try length(info, at: offset)
            let body = try span(start, count, of: offset)
            // ASCII in the format; any byte above 0x7F is read as Latin-1 rather than refused.
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
            let body = try span(offset + 1, info + 1, of: offset)
            guard info < 8 else { break }
            return .uid(Self.bigEndian(bytes, at: body, size: info + 1))
        case 0xA, 0xB, 0xC:
            let (count, start) = try length(info, at: offset)
            let elements = try references(count, at: start, of: offset)
            var values: [PropertyListObject] = []
            values.reserveCapacity(count)
            for element in elements { values.append(try value(at: element, depth: depth + 1)) }
            return marker >> 4 == 0xA ? .array(values) : .set(values)
        case 0xD:
            let (count, start) = try length(info, at: offset)
            let (doubled, overflow) = count.multipliedReportingOverflow(by: 2)
            guard !overflow else {
                throw .malformedPropertyList(offset: offset, reason: "the dictionary is too long")
            }
            let refs = try references(doubled, at: start, of: offset)
            var entries: [String: PropertyListObject] = [:]
            for k in 0..<count {
                guard case .string(let key) = try value(at: refs[k], depth: depth + 1) else {
                    throw .malformedPropertyList(
                        offset: offset, reason: "dictionary key \(k) is not a string")
                }
                guard entries[key] == nil else {
                    throw .malformedPropertyList(
                        offset: offset, reason: "dictionary key \"\(key)\" appears twice")
                }
                entries[key] = try value(at: refs[count + k], depth: depth + 1)
            }
            return .dictionary(entries)
        default:
            break
        }
        let hex = String(marker, radix: 16)
        throw .malformedPropertyList(offset: offset, reason: "unknown object marker 0x\(hex)")
    }

    /// An integer object (`0x1n`): 1, 2 and 4 bytes unsigned, 8 bytes signed, 16 bytes when the
    /// value fits 64 bits.
    private func integer(at offset: Int) throws(KeyedArchiveError) -> Int64 {
        let info = Int(bytes[offset] & 0x0F)
        guard info <= 4 else {
            throw .malformedPropertyList(offset: offset, reason: "integer of 2^\(info) bytes")
        }
        let size = 1 << info
        let body = try span(offset + 1, size, of: offset)
        if size < 8 { return Int64(Self.bigEndian(bytes, at: body, size: size)) }
        if size == 8 { return Int64(bitPattern: Self.bigEndian(bytes, at: body, size: 8)) }
        let high = Self.bigEndian(bytes, at: body, size: 8)
        let low = Int64(bitPattern: Self.bigEndian(bytes, at: body + 8, size: 8))
        guard (high == 0 && low >= 0) || (high == UInt64.max && low < 0) else {
            throw .malformedPropertyList(offset: offset, reason: "integer does not fit 64 bits")
        }
        return low
    }

    /// The element count of a data, string or container object: the marker's low nibble, or
    /// the integer object after it when the nibble is 0xF. Returns the count and where the body
    /// starts.
    private func length(_ info: Int, at offset: Int) throws(KeyedArchiveError) -> (Int, Int) {
        if info != 0x0F { return (info, offset + 1) }
        _ = try span(offset + 1, 1, of: offset)
        let marker = bytes[offset + 1]
        guard marker >> 4 == 0x1, marker & 0x0F <= 3 else {
            throw .malformedPropertyList(
                offset: offset + 1, reason: "the length is not an integer object of 1 to 8 bytes")
        }
        let value = try integer(at: offset + 1)
        guard value >= 0 else {
            throw .malformedPropertyList(offset: offset + 1, reason: "negative length \(value)")
        }
        return (Int(value), offset + 2 + (1 << Int(marker & 0x0F)))
    }

    /// Checks that `count` bytes from `start` lie within the objects; returns `start`.
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

    /// `count` object references from `start`, each checked to name an object.
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

    /// The unsigned big-endian integer of `size` bytes at `offset` (the caller checked bounds).
    private static func bigEndian(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for k in 0..<size { value = value << 8 | UInt64(bytes[offset + k]) }
        return value
    }
}
