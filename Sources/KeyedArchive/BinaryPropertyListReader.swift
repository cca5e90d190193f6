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
    /// How many values each decoded object stands for when containers that share an object
    /// are walked as a tree (saturating); see ``expansionLimit``.
    private var expandedSize: [Int]
    /// The most values the top object may stand for: a list whose containers are not shared
    /// stands for one value per reference, so this allows generous sharing but refuses a few
    /// hundred bytes that expand to billions of values for whoever walks the result.
    private let expansionLimit: Int

    init(bytes: [UInt8]) throws(KeyedArchiveError) {
        var reader = try PropertyListTableReader(bytes: bytes)
        entries = try reader.entries()
        offsets = reader.offsets
        topIndex = reader.topIndex
        decoded = Array(repeating: nil, count: entries.count)
        inProgress = Array(repeating: false, count: entries.count)
        expandedSize = Array(repeating: 1, count: entries.count)
        let references = entries.reduce(0) { $0 + $1.referenceCount }
        expansionLimit = 8 * (entries.count + references) + 1_000_000
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
        let size = try expansion(of: entries[index], at: offset)
        expandedSize[index] = size
        decoded[index] = result
        return result
    }

    /// The number of values `entry` stands for, its children decoded already.
    private func expansion(of entry: PropertyListTable.Entry, at offset: Int)
        throws(KeyedArchiveError) -> Int
    {
        var total = 1
        for child in entry.references {
            let (sum, overflow) = total.addingReportingOverflow(expandedSize[child])
            total = overflow ? Int.max : sum
        }
        guard total <= expansionLimit else {
            throw .malformedPropertyList(
                offset: offset,
                reason: "containers shared by other containers stand for more than "
                    + "\(expansionLimit) values")
        }
        return total
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
            // Any double, as Foundation reads it (store metadata may keep an infinite date);
            // the keyed-archive decoders check their own dates.
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

extension PropertyListTable.Entry {
    /// The objects this one refers to (a container's elements, keys and values).
    var references: [Int] {
        switch self {
        case .array(let elements), .set(let elements): return elements
        case .dictionary(let keys, let values): return keys + values
        default: return []
        }
    }

    /// How many references the object holds.
    var referenceCount: Int {
        switch self {
        case .array(let elements), .set(let elements): return elements.count
        case .dictionary(let keys, let values): return keys.count + values.count
        default: return 0
        }
    }
}
