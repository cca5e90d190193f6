import Foundation

/// The reading side of ``BinaryPropertyList``: the object table, read and checked by
/// ``PropertyListTableReader``, turned into values from the top object down (each object
/// decoded once however many containers refer to it; a container that contains itself, or
/// nesting deeper than ``BinaryPropertyList/maximumDepth``, an error naming its byte).
struct BinaryPropertyListReader {
    private let entries: [PropertyListTable.Entry]
    private let offsets: [Int]
    private let topIndex: Int
    private var decoded: [PropertyListObject?]
    private var inProgress: [Bool]

    init(bytes: [UInt8]) throws(KeyedArchiveError) {
        var reader = try PropertyListTableReader(bytes: bytes)
        entries = try reader.entries()
        offsets = reader.offsets
        topIndex = reader.topIndex
        decoded = Array(repeating: nil, count: entries.count)
        inProgress = Array(repeating: false, count: entries.count)
    }

    /// The top object, decoded with everything it contains.
    mutating func topValue() throws(KeyedArchiveError) -> PropertyListObject {
        try value(at: topIndex, depth: 0)
    }

    private mutating func value(at index: Int, depth: Int) throws(KeyedArchiveError)
        -> PropertyListObject
    {
        if let known = decoded[index] { return known }
        let offset = offsets[index]
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
        let result = try object(entries[index], at: offset, depth: depth)
        inProgress[index] = false
        decoded[index] = result
        return result
    }

    private mutating func object(_ entry: PropertyListTable.Entry, at offset: Int, depth: Int)
        throws(KeyedArchiveError) -> PropertyListObject
    {
        switch entry {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .integer(number)
        case .unsignedInteger:
            throw .malformedPropertyList(offset: offset, reason: "integer does not fit 64 bits")
        case .float(let number): return .real(Double(number))
        case .double(let number): return .real(number)
        case .date(let seconds):
            guard seconds.isFinite else {
                throw .malformedPropertyList(offset: offset, reason: "the date is not finite")
            }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .data(let bytes): return .data(bytes)
        case .string(let text): return .string(text)
        case .uid(let number): return .uid(number)
        case .array(let elements), .set(let elements):
            var values: [PropertyListObject] = []
            values.reserveCapacity(elements.count)
            for element in elements { values.append(try value(at: element, depth: depth + 1)) }
            if case .set = entry { return .set(values) }
            return .array(values)
        case .dictionary(let keys, let values):
            var result: [String: PropertyListObject] = [:]
            for (k, (key, value)) in zip(keys, values).enumerated() {
                guard case .string(let name) = try self.value(at: key, depth: depth + 1) else {
                    throw .malformedPropertyList(
                        offset: offset, reason: "dictionary key \(k) is not a string")
                }
                guard result[name] == nil else {
                    throw .malformedPropertyList(
                        offset: offset, reason: "dictionary key \"\(name)\" appears twice")
                }
                result[name] = try self.value(at: value, depth: depth + 1)
            }
            return .dictionary(result)
        }
    }
}
