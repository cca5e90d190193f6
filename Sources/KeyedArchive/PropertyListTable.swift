import Foundation

/// A binary property list as its object table: every object as the file holds it (references
/// as table indices, numbers with their width), so that writing the table again with
/// ``PropertyListTable/data()`` gives the bytes CFBinaryPList wrote.
///
/// ```swift
/// let table = try PropertyListTable(data: bytes)
/// print(table.objects.count, table.top)
/// ```
struct PropertyListTable: Sendable {
    /// One object of the table.
    enum Entry: Sendable, Hashable {
        case null
        case bool(Bool)
        /// A 1, 2, 4 or 8-byte integer.
        case integer(Int64)
        /// A 16-byte integer above `Int64.max` (CF's `kCFNumberSInt128Type`).
        case unsignedInteger(UInt64)
        /// A 4-byte real.
        case float(Float)
        /// An 8-byte real.
        case double(Double)
        /// A date, seconds since 2001.
        case date(Double)
        case data(Data)
        case string(String)
        case uid(UInt64)
        case array([Int])
        case set([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    /// The objects, in file order.
    var objects: [Entry]
    /// The index of the top object.
    var top: Int

    init(objects: [Entry], top: Int) {
        self.objects = objects
        self.top = top
    }

    /// Reads the table of `data`, checking every object, length and reference.
    /// - Throws: ``KeyedArchiveError/malformedPropertyList(offset:reason:)``.
    init(data: Data) throws(KeyedArchiveError) {
        var reader = try PropertyListTableReader(bytes: [UInt8](data))
        objects = try reader.entries()
        top = reader.topIndex
    }

    /// The string at `index`, if that object is one.
    func string(at index: Int) -> String? {
        guard objects.indices.contains(index), case .string(let text) = objects[index] else {
            return nil
        }
        return text
    }

    /// The dictionary at `index` as key strings and value indices, in file order (`nil` when
    /// the object is not a dictionary with string keys).
    func dictionary(at index: Int) -> [(key: String, keyIndex: Int, value: Int)]? {
        guard objects.indices.contains(index),
            case .dictionary(let keys, let values) = objects[index]
        else { return nil }
        var result: [(key: String, keyIndex: Int, value: Int)] = []
        for (key, value) in zip(keys, values) {
            guard let name = string(at: key) else { return nil }
            result.append((name, key, value))
        }
        return result
    }
}
