import Foundation

/// A value that a property list can hold: what a preference is stored as.
///
/// Literals build values directly, so defaults read naturally:
///
/// ```swift
/// preferences.register(defaults: ["volume": 7, "theme": "dark", "recent": ["a", "b"]])
/// ```
public enum PreferenceValue: Sendable, Hashable {
    /// `<true/>` or `<false/>`.
    case bool(Bool)
    /// `<integer>`.
    case integer(Int)
    /// `<real>`.
    case real(Double)
    /// `<string>`.
    case string(String)
    /// `<data>`.
    case data(Data)
    /// `<date>`.
    case date(Date)
    /// `<array>`.
    case array([PreferenceValue])
    /// `<dict>`.
    case dictionary([String: PreferenceValue])
}

extension PreferenceValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// A ``bool(_:)`` from `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An ``integer(_:)`` from an integer literal.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// A ``real(_:)`` from a floating-point literal.
    public init(floatLiteral value: Double) { self = .real(value) }
    /// A ``string(_:)`` from a string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An ``array(_:)`` from an array literal.
    public init(arrayLiteral elements: PreferenceValue...) { self = .array(elements) }
    /// A ``dictionary(_:)`` from a dictionary literal (a repeated key keeps the last value).
    public init(dictionaryLiteral elements: (String, PreferenceValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension PreferenceValue {
    /// The Foundation object `PropertyListSerialization` writes for this value (`Bool`, `Int`,
    /// `Double`, `String`, `Data`, `Date`, `[Any]`, `[String: Any]`).
    public var propertyListObject: Any {
        switch self {
        case .bool(let value): return value
        case .integer(let value): return value
        case .real(let value): return value
        case .string(let value): return value
        case .data(let value): return value
        case .date(let value): return value
        case .array(let values): return values.map(\.propertyListObject)
        case .dictionary(let values): return values.mapValues(\.propertyListObject)
        }
    }

    /// The value for an object `PropertyListSerialization` read, or `nil` for one a property
    /// list cannot hold.
    ///
    /// ```swift
    /// let object = try PropertyListSerialization.propertyList(from: data, format: nil)
    /// let value = PreferenceValue(propertyListObject: object)
    /// ```
    public init?(propertyListObject object: Any) {
        if type(of: object) == Bool.self, let value = object as? Bool {
            self = .bool(value)
        } else if let value = object as? String {
            self = .string(value)
        } else if let value = object as? Data {
            self = .data(value)
        } else if let value = object as? Date {
            self = .date(value)
        } else if let number = object as? NSNumber {
            switch String(cString: number.objCType) {
            case "c", "B": self = .bool(number.boolValue)
            case "d", "f": self = .real(number.doubleValue)
            default: self = .integer(number.intValue)
            }
        } else if let values = object as? [Any] {
            var converted: [PreferenceValue] = []
            for value in values {
                guard let element = PreferenceValue(propertyListObject: value) else { return nil }
                converted.append(element)
            }
            self = .array(converted)
        } else if let values = object as? [String: Any] {
            var converted: [String: PreferenceValue] = [:]
            for (key, value) in values {
                guard let element = PreferenceValue(propertyListObject: value) else { return nil }
                converted[key] = element
            }
            self = .dictionary(converted)
        } else {
            return nil
        }
    }
}
