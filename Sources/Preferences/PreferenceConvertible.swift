import Foundation

/// A type that can be stored as a preference: `Bool`, `Int`, `Double`, `Float`, `String`,
/// `URL`, `Data`, `Date`, arrays and string-keyed dictionaries of those, and
/// ``PreferenceValue`` itself. For any other `Codable` type use
/// ``Preferences/encode(_:forKey:)``.
///
/// Reading converts leniently where `UserDefaults` does: a stored `"42"` reads as the integer
/// 42, an integer reads as a `Double`, `"YES"` or `1` read as `true`.
public protocol PreferenceConvertible: Sendable {
    /// The value as stored.
    var preferenceValue: PreferenceValue { get }
    /// Reads the value back, or `nil` when `preferenceValue` cannot be converted.
    init?(preferenceValue: PreferenceValue)
}

extension PreferenceValue: PreferenceConvertible {
    /// The value itself.
    public var preferenceValue: PreferenceValue { self }
    /// The value itself.
    public init?(preferenceValue: PreferenceValue) { self = preferenceValue }
}

extension Bool: PreferenceConvertible {
    /// `.bool(self)`.
    public var preferenceValue: PreferenceValue { .bool(self) }
    /// A bool, a non-zero number, or the strings `true`/`yes`/`1` and `false`/`no`/`0`.
    public init?(preferenceValue: PreferenceValue) {
        switch preferenceValue {
        case .bool(let value): self = value
        case .integer(let value): self = value != 0
        case .real(let value): self = value != 0
        case .string(let text):
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true", "yes", "1": self = true
            case "false", "no", "0": self = false
            default: return nil
            }
        default: return nil
        }
    }
}

extension Int: PreferenceConvertible {
    /// `.integer(self)`.
    public var preferenceValue: PreferenceValue { .integer(self) }
    /// An integer, a real in range (truncated), a bool (0 or 1) or a string of digits.
    public init?(preferenceValue: PreferenceValue) {
        switch preferenceValue {
        case .integer(let value): self = value
        case .bool(let value): self = value ? 1 : 0
        case .real(let value):
            guard let truncated = Int(exactly: value.rounded(.towardZero)) else { return nil }
            self = truncated
        case .string(let text):
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else { return nil }
            self = value
        default: return nil
        }
    }
}

extension Double: PreferenceConvertible {
    /// `.real(self)`.
    public var preferenceValue: PreferenceValue { .real(self) }
    /// A real, an integer, a bool (0 or 1) or a numeric string.
    public init?(preferenceValue: PreferenceValue) {
        switch preferenceValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        case .bool(let value): self = value ? 1 : 0
        case .string(let text):
            guard let value = Double(text.trimmingCharacters(in: .whitespaces)) else {
                return nil
            }
            self = value
        default: return nil
        }
    }
}

extension Float: PreferenceConvertible {
    /// `.real` of the value widened to `Double`.
    public var preferenceValue: PreferenceValue { .real(Double(self)) }
    /// Whatever reads as a `Double`, narrowed to `Float`.
    public init?(preferenceValue: PreferenceValue) {
        guard let value = Double(preferenceValue: preferenceValue) else { return nil }
        self = Float(value)
    }
}

extension String: PreferenceConvertible {
    /// `.string(self)`.
    public var preferenceValue: PreferenceValue { .string(self) }
    /// A string, or a number written out.
    public init?(preferenceValue: PreferenceValue) {
        switch preferenceValue {
        case .string(let value): self = value
        case .integer(let value): self = String(value)
        case .real(let value): self = String(value)
        default: return nil
        }
    }
}

extension URL: PreferenceConvertible {
    /// `.string` of the URL's absolute string (`file:///…` for files).
    public var preferenceValue: PreferenceValue { .string(absoluteString) }
    /// A string holding a URL with a scheme, or a path (`/…` or `~/…`) read as a file URL.
    public init?(preferenceValue: PreferenceValue) {
        guard case .string(let text) = preferenceValue, !text.isEmpty else { return nil }
        if text.hasPrefix("/") || text.hasPrefix("~") {
            self = URL(fileURLWithPath: (text as NSString).expandingTildeInPath)
        } else if let url = URL(string: text), url.scheme != nil {
            self = url
        } else {
            return nil
        }
    }
}

extension Data: PreferenceConvertible {
    /// `.data(self)`.
    public var preferenceValue: PreferenceValue { .data(self) }
    /// Data only.
    public init?(preferenceValue: PreferenceValue) {
        guard case .data(let value) = preferenceValue else { return nil }
        self = value
    }
}

extension Date: PreferenceConvertible {
    /// `.date(self)`.
    public var preferenceValue: PreferenceValue { .date(self) }
    /// A date only.
    public init?(preferenceValue: PreferenceValue) {
        guard case .date(let value) = preferenceValue else { return nil }
        self = value
    }
}

extension Array: PreferenceConvertible where Element: PreferenceConvertible {
    /// `.array` of the elements' values.
    public var preferenceValue: PreferenceValue { .array(map(\.preferenceValue)) }
    /// An array whose every element converts.
    public init?(preferenceValue: PreferenceValue) {
        guard case .array(let values) = preferenceValue else { return nil }
        var elements: [Element] = []
        elements.reserveCapacity(values.count)
        for value in values {
            guard let element = Element(preferenceValue: value) else { return nil }
            elements.append(element)
        }
        self = elements
    }
}

extension Dictionary: PreferenceConvertible where Key == String, Value: PreferenceConvertible {
    /// `.dictionary` of the values.
    public var preferenceValue: PreferenceValue { .dictionary(mapValues(\.preferenceValue)) }
    /// A dictionary whose every value converts.
    public init?(preferenceValue: PreferenceValue) {
        guard case .dictionary(let values) = preferenceValue else { return nil }
        var result: [String: Value] = [:]
        for (key, value) in values {
            guard let converted = Value(preferenceValue: value) else { return nil }
            result[key] = converted
        }
        self = result
    }
}
