import Foundation

/// How a text value from a model file was read.
public enum ValueReading: Sendable, Hashable {
    /// The text is a proper value of the type.
    case exact(Value)
    /// The text is not a proper value, and Core Data reads it as `value` anyway (`"0.0"` for an
    /// integer reads as 0, `"NO"` for an integer as 0, `"100"` for a Boolean as true).
    case lenient(Value)
    /// The text cannot be read as the type at all; Core Data ignores it.
    case unreadable

    /// The value read, or ``Value/null`` when unreadable.
    public var value: Value {
        switch self {
        case .exact(let value), .lenient(let value): return value
        case .unreadable: return .null
        }
    }
}

extension Attribute {
    /// The default value, read the way Core Data reads Xcode's `defaultValueString` (and, for
    /// dates, `defaultDateTimeInterval`). ``Value/null`` when there is none.
    ///
    /// ```swift
    /// var count = Attribute("count", type: .integer32, defaultValueString: "0.0")
    /// count.defaultValue  // .integer(0)
    /// ```
    public var defaultValue: Value { defaultValueReading?.value ?? .null }

    /// How the default was read: exactly, leniently, or not at all; `nil` when there is none.
    public var defaultValueReading: ValueReading? {
        if type == .date, let interval = defaultDateTimeInterval {
            return .exact(.date(Date(timeIntervalSinceReferenceDate: interval)))
        }
        guard let text = defaultValueString else { return nil }
        return ValueReading.read(text, as: type)
    }
}

extension ValueReading {
    /// Reads `text` as a value of `type` with Core Data's (Foundation's `NSString`) leniency.
    public static func read(_ text: String, as type: AttributeType) -> ValueReading {
        switch type {
        case .integer16, .integer32, .integer64:
            if let exact = Int64(text), type.integerRange?.contains(exact) ?? true {
                return .exact(.integer(exact))
            }
            let lenient = LenientNumber.integer(text)
            guard let range = type.integerRange else { return .lenient(.integer(lenient)) }
            return .lenient(.integer(min(max(lenient, range.lowerBound), range.upperBound)))
        case .double, .float:
            if let exact = Double(text) { return .exact(.double(exact)) }
            return .lenient(.double(LenientNumber.double(text)))
        case .decimal:
            if Double(text) != nil, let exact = Decimal(string: text) {
                return .exact(.decimal(exact))
            }
            return .lenient(.decimal(Decimal(LenientNumber.double(text))))
        case .boolean:
            switch text {
            case "YES", "true": return .exact(.bool(true))
            case "NO", "false": return .exact(.bool(false))
            default: return .lenient(.bool(LenientNumber.bool(text)))
            }
        case .string:
            return .exact(.string(text))
        case .date:
            if let seconds = Double(text) {
                return .lenient(.date(Date(timeIntervalSinceReferenceDate: seconds)))
            }
            return .unreadable
        case .uuid:
            return UUID(uuidString: text).map { .exact(.uuid($0)) } ?? .unreadable
        case .uri:
            guard !text.isEmpty, let url = URL(string: text) else { return .unreadable }
            return .exact(.uri(url))
        case .binary, .transformable, .undefined, .objectID, .composite, .unknown:
            return text.isEmpty ? .lenient(.null) : .unreadable
        }
    }
}

/// Foundation's lenient `NSString` number readings (`longLongValue`, `doubleValue`,
/// `boolValue`): leading white space skipped, the longest numeric prefix read, 0 otherwise.
enum LenientNumber {
    static func integer(_ text: String) -> Int64 {
        var scalars = Substring(text).unicodeScalars.drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        var negative = false
        if let sign = scalars.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            scalars = scalars.dropFirst()
        }
        var value: Int64 = 0
        for scalar in scalars {
            guard let digit = Int64(String(scalar)), scalar.isASCII else { break }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return negative ? Int64.min : Int64.max }
            value = sum
        }
        return negative ? -value : value
    }

    static func double(_ text: String) -> Double {
        let trimmed = text.drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        var best = 0.0
        var prefix = ""
        for character in trimmed {
            prefix.append(character)
            if let value = Double(prefix) {
                best = value
            } else if !"+-.eE0123456789".contains(character) {
                break
            }
        }
        return best
    }

    static func bool(_ text: String) -> Bool {
        var scalars = Substring(text).unicodeScalars.drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        if let sign = scalars.first, sign == "-" || sign == "+" { scalars = scalars.dropFirst() }
        scalars = scalars.drop { $0 == "0" }
        guard let first = scalars.first else { return false }
        return "YyTt123456789".unicodeScalars.contains(first)
    }
}
