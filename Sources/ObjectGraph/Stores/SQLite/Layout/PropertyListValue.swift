import Foundation

/// One value of a property list: what store metadata entries hold.
///
/// ```swift
/// var metadata = StoreMetadata(model: model)
/// metadata.additionalEntries["BuildNumber"] = .integer(42)
/// metadata.additionalEntries["Owner"] = "Ada"
/// ```
public indirect enum PropertyListValue: Sendable, Hashable {
    /// A string.
    case string(String)
    /// An integer.
    case integer(Int64)
    /// A floating-point number.
    case real(Double)
    /// A Boolean.
    case bool(Bool)
    /// A date.
    case date(Date)
    /// Bytes.
    case data(Data)
    /// An array.
    case array([PropertyListValue])
    /// A dictionary with string keys.
    case dictionary([String: PropertyListValue])

    /// Reads a value Foundation's `PropertyListSerialization` produced; `nil` for anything else
    /// (a non-string dictionary key, an unknown class).
    init?(foundationValue value: Any) {
        if let text = value as? String {
            self = .string(text)
        } else if let flag = value as? Bool, type(of: value) == Bool.self {
            self = .bool(flag)
        } else if let number = value as? NSNumber {
            let kind = String(cString: number.objCType)
            if kind == "c" || kind == "B" {
                self = .bool(number.boolValue)
            } else if kind == "f" || kind == "d" {
                self = .real(number.doubleValue)
            } else {
                self = .integer(number.int64Value)
            }
        } else if let date = value as? Date {
            self = .date(date)
        } else if let bytes = value as? Data {
            self = .data(bytes)
        } else if let list = value as? [Any] {
            var items: [PropertyListValue] = []
            for item in list {
                guard let converted = PropertyListValue(foundationValue: item) else { return nil }
                items.append(converted)
            }
            self = .array(items)
        } else if let dictionary = value as? [String: Any] {
            var entries: [String: PropertyListValue] = [:]
            for (key, item) in dictionary {
                guard let converted = PropertyListValue(foundationValue: item) else { return nil }
                entries[key] = converted
            }
            self = .dictionary(entries)
        } else {
            return nil
        }
    }

    /// The value as the Foundation object `PropertyListSerialization` writes.
    var foundationValue: Any {
        switch self {
        case .string(let text): return text
        case .integer(let number): return NSNumber(value: number)
        case .real(let number): return NSNumber(value: number)
        case .bool(let flag): return flag
        case .date(let date): return date
        case .data(let bytes): return bytes
        case .array(let items): return items.map(\.foundationValue)
        case .dictionary(let entries): return entries.mapValues(\.foundationValue)
        }
    }
}

extension PropertyListValue: ExpressibleByStringLiteral {
    /// Creates a ``string(_:)``.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension PropertyListValue: ExpressibleByIntegerLiteral {
    /// Creates an ``integer(_:)``.
    public init(integerLiteral value: Int64) { self = .integer(value) }
}
