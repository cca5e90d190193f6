import Foundation

/// The writing side of ``BinaryPropertyList``: the value handed to CFBinaryPList's flattening
/// (``PropertyListFlattener``) with equal strings, numbers, dates and data as one object (as
/// when they are one Foundation object), then written as CF writes a table
/// (``PropertyListTableWriter``). Dictionary keys are written in sorted order, so equal values
/// give equal bytes.
struct BinaryPropertyListWriter {
    private let root: PropertyListObject

    init(_ root: PropertyListObject) { self.root = root }

    consuming func data() -> Data {
        PropertyListTableWriter(PropertyListFlattener.table(Self.node(root))).data()
    }

    /// The node of `value`: scalars identified by their value.
    static func node(_ value: PropertyListObject) -> PropertyListNode {
        switch value {
        case .null: return .repeated(.null)
        case .bool(let flag): return .repeated(.bool(flag))
        case .uid(let number): return .repeated(.uid(number))
        case .array(let elements): return .array(elements.map(node))
        case .set(let elements): return .set(elements.map(node))
        case .dictionary(let entries):
            return .dictionary(
                entries.keys.sorted().map { key in
                    (scalar(.string(key)), node(entries[key] ?? .null))
                })
        default:
            return scalar(entry(value) ?? .null)
        }
    }

    /// The table entry of a scalar value.
    static func entry(_ value: PropertyListObject) -> PropertyListTable.Entry? {
        switch value {
        case .integer(let number): return .integer(number)
        case .real(let number): return .double(number)
        case .date(let date): return .date(date.timeIntervalSinceReferenceDate)
        case .data(let bytes): return .data(bytes)
        case .string(let text): return .string(text)
        default: return nil
        }
    }

    private static func scalar(_ entry: PropertyListTable.Entry) -> PropertyListNode {
        .scalar(entry, identity: .value(entry))
    }
}
