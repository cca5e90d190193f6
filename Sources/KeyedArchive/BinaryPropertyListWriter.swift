import Foundation

/// The writing side of ``BinaryPropertyList``: every value becomes one object, containers after
/// their own object number is taken, so references are known when a container is written.
struct BinaryPropertyListWriter {
    private let root: PropertyListObject
    private var objects: [[UInt8]] = []
    private var referenceSize = 1

    init(_ root: PropertyListObject) { self.root = root }

    consuming func data() -> Data {
        referenceSize = Self.byteCount(for: UInt64(Self.count(root) - 1))
        _ = add(root)
        var output: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(output.count)
            output += object
        }
        let tableOffset = output.count
        let offsetSize = Self.byteCount(for: UInt64(tableOffset))
        for offset in offsets {
            Self.appendBigEndian(UInt64(offset), size: offsetSize, to: &output)
        }
        output += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        Self.appendBigEndian(UInt64(objects.count), size: 8, to: &output)
        Self.appendBigEndian(0, size: 8, to: &output)
        Self.appendBigEndian(UInt64(tableOffset), size: 8, to: &output)
        return Data(output)
    }

    /// How many objects `value` is written as.
    private static func count(_ value: PropertyListObject) -> Int {
        switch value {
        case .array(let elements), .set(let elements):
            return elements.reduce(1) { $0 + count($1) }
        case .dictionary(let entries):
            return entries.values.reduce(1 + entries.count) { $0 + count($1) }
        default:
            return 1
        }
    }

    /// Writes `value` (and what it contains); returns its object number.
    private mutating func add(_ value: PropertyListObject) -> Int {
        let index = objects.count
        objects.append([])
        var body: [UInt8] = []
        switch value {
        case .null: body = [0x00]
        case .bool(let flag): body = [flag ? 0x09 : 0x08]
        case .integer(let number): body = Self.integer(number)
        case .real(let number):
            body = [0x23]
            Self.appendBigEndian(number.bitPattern, size: 8, to: &body)
        case .date(let date):
            body = [0x33]
            Self.appendBigEndian(
                date.timeIntervalSinceReferenceDate.bitPattern, size: 8, to: &body)
        case .data(let bytes):
            body = Self.marker(0x4, count: bytes.count) + bytes
        case .string(let text):
            if text.utf8.allSatisfy({ $0 < 0x80 }) {
                body = Self.marker(0x5, count: text.utf8.count) + Array(text.utf8)
            } else {
                let units = Array(text.utf16)
                body = Self.marker(0x6, count: units.count)
                for unit in units { Self.appendBigEndian(UInt64(unit), size: 2, to: &body) }
            }
        case .uid(let number):
            let size = Self.byteCount(for: number)
            body = [0x80 | UInt8(size - 1)]
            Self.appendBigEndian(number, size: size, to: &body)
        case .array(let elements), .set(let elements):
            let kind: UInt8
            if case .array = value { kind = 0xA } else { kind = 0xC }
            let references = elements.map { add($0) }
            body = Self.marker(kind, count: references.count)
            for reference in references { appendReference(reference, to: &body) }
        case .dictionary(let entries):
            let keys = entries.keys.sorted()
            let keyReferences = keys.map { add(.string($0)) }
            let valueReferences = keys.map { key in add(entries[key] ?? .null) }
            body = Self.marker(0xD, count: keys.count)
            for reference in keyReferences + valueReferences {
                appendReference(reference, to: &body)
            }
        }
        objects[index] = body
        return index
    }

    private func appendReference(_ reference: Int, to body: inout [UInt8]) {
        Self.appendBigEndian(UInt64(reference), size: referenceSize, to: &body)
    }

    private static func integer(_ number: Int64) -> [UInt8] {
        var body: [UInt8] = []
        if number >= 0 && number <= 0xFF {
            body = [0x10]
            appendBigEndian(UInt64(number), size: 1, to: &body)
        } else if number >= 0 && number <= 0xFFFF {
            body = [0x11]
            appendBigEndian(UInt64(number), size: 2, to: &body)
        } else if number >= 0 && number <= 0xFFFF_FFFF {
            body = [0x12]
            appendBigEndian(UInt64(number), size: 4, to: &body)
        } else {
            body = [0x13]
            appendBigEndian(UInt64(bitPattern: number), size: 8, to: &body)
        }
        return body
    }

    /// A marker with its count: in the low nibble below 15, else an integer object after it.
    private static func marker(_ kind: UInt8, count: Int) -> [UInt8] {
        if count < 15 { return [kind << 4 | UInt8(count)] }
        return [kind << 4 | 0x0F] + integer(Int64(count))
    }

    /// The fewest bytes of 1, 2, 4 or 8 holding `value`.
    private static func byteCount(for value: UInt64) -> Int {
        if value <= 0xFF { return 1 }
        if value <= 0xFFFF { return 2 }
        if value <= 0xFFFF_FFFF { return 4 }
        return 8
    }

    private static func appendBigEndian(_ value: UInt64, size: Int, to bytes: inout [UInt8]) {
        for k in stride(from: size - 1, through: 0, by: -1) {
            bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(k))))
        }
    }
}
