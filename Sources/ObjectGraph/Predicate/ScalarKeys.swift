import Foundation

/// The keys a scalar answers in a key path, as key-value coding reads the zero-argument methods
/// of `NSString`, `NSNumber` and `NSDate`: `name.length`, `title.uppercaseString`,
/// `code.intValue`, `when.timeIntervalSince1970`, and `self` on every value.
///
/// ```swift
/// try Predicate(format: "name.length > 3").evaluate(with: ["name": "Ada"])  // false
/// ```
enum ScalarKeys {
    /// The keys of strings, in the order the documentation lists them.
    static let stringKeys = [
        "length", "uppercaseString", "lowercaseString", "capitalizedString", "intValue",
        "integerValue", "longLongValue", "doubleValue", "floatValue", "boolValue", "description",
        "self",
    ]

    /// The value of `key` for `scalar`; nil stays nil.
    /// - Throws: ``PredicateEvaluationError/unknownKey(_:in:)`` naming the key and the
    ///   scalar's Foundation class when the scalar has no such key.
    static func value(of scalar: Value, forKey key: String) throws -> EvaluationValue {
        if scalar.isNull || key == "self" { return .value(scalar) }
        let found: Value?
        switch scalar {
        case .string(let text): found = string(text, key)
        case .integer, .double, .decimal, .bool: found = number(scalar, key)
        case .date(let date): found = self.date(date, key)
        default: found = nil
        }
        guard let found else {
            throw PredicateEvaluationError.unknownKey(key, in: className(of: scalar))
        }
        return .value(found)
    }

    private static func string(_ text: String, _ key: String) -> Value? {
        switch key {
        case "length": return .integer(Int64(text.utf16.count))
        case "uppercaseString": return .string(text.uppercased())
        case "lowercaseString": return .string(text.lowercased())
        case "capitalizedString": return .string(text.capitalized)
        case "description": return .string(text)
        case "intValue":
            return .integer(integerPrefix(text, in: Int64(Int32.min)...Int64(Int32.max)))
        case "integerValue", "longLongValue":
            return .integer(integerPrefix(text, in: Int64.min...Int64.max))
        case "doubleValue": return .double(doublePrefix(text))
        case "floatValue": return .double(Double(Float(doublePrefix(text))))
        case "boolValue": return .bool(boolPrefix(text))
        default: return nil
        }
    }

    private static func number(_ scalar: Value, _ key: String) -> Value? {
        guard let double = Arithmetic.double(scalar) else { return nil }
        switch key {
        case "doubleValue": return .double(double)
        case "floatValue": return .double(Double(Float(double)))
        case "boolValue": return .bool(double != 0)
        case "intValue", "integerValue", "longLongValue":
            if let n = Arithmetic.integer(scalar) { return .integer(n) }
            let truncated = double.rounded(.towardZero)
            guard truncated.isFinite, abs(truncated) < 9.2e18 else { return nil }
            return .integer(Int64(truncated))
        default: return nil
        }
    }

    private static func date(_ date: Date, _ key: String) -> Value? {
        switch key {
        case "timeIntervalSinceReferenceDate": return .double(date.timeIntervalSinceReferenceDate)
        case "timeIntervalSince1970": return .double(date.timeIntervalSince1970)
        default: return nil
        }
    }

    /// The Foundation class a scalar stands for, for error messages.
    static func className(of scalar: Value) -> String {
        switch scalar {
        case .string: return "NSString"
        case .integer, .double, .bool: return "NSNumber"
        case .decimal: return "NSDecimalNumber"
        case .date: return "NSDate"
        case .data: return "NSData"
        case .uuid: return "NSUUID"
        case .uri: return "NSURL"
        case .objectID: return "NSManagedObjectID"
        case .null: return "NSNull"
        }
    }

    /// The text after leading whitespace.
    private static func trimmed(_ text: String) -> Substring.UnicodeScalarView {
        let scalars = Substring(text).unicodeScalars
        return scalars[(scalars.firstIndex { !$0.properties.isWhitespace } ?? scalars.endIndex)...]
    }

    /// `intValue`: an optional sign and decimal digits after leading whitespace, clamped to
    /// `range` on overflow, 0 when there are none (`"12abc"` is 12, `"abc"` is 0).
    static func integerPrefix(_ text: String, in range: ClosedRange<Int64>) -> Int64 {
        var scalars = trimmed(text)[...]
        var negative = false
        if let sign = scalars.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            scalars = scalars.dropFirst()
        }
        var magnitude: Int64 = 0
        var overflow = false
        for scalar in scalars {
            guard ("0"..."9").contains(scalar) else { break }
            let digit = Int64(scalar.value - 48)
            let (times, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(negative ? -digit : digit)
            if o1 || o2 {
                overflow = true
                break
            }
            magnitude = plus
        }
        if overflow { return negative ? range.lowerBound : range.upperBound }
        return min(max(magnitude, range.lowerBound), range.upperBound)
    }

    /// `doubleValue`: the longest decimal floating-point prefix after leading whitespace
    /// (`"1.5e3x"` is 1500), 0 when there is none.
    static func doublePrefix(_ text: String) -> Double {
        let scalars = Array(trimmed(text))
        var end = 0
        func digits() -> Int {
            let start = end
            while end < scalars.count, ("0"..."9").contains(scalars[end]) { end += 1 }
            return end - start
        }
        if end < scalars.count, scalars[end] == "+" || scalars[end] == "-" { end += 1 }
        var count = digits()
        if end < scalars.count, scalars[end] == "." {
            end += 1
            count += digits()
        }
        guard count > 0 else { return 0 }
        let mantissaEnd = end
        if end < scalars.count, scalars[end] == "e" || scalars[end] == "E" {
            end += 1
            if end < scalars.count, scalars[end] == "+" || scalars[end] == "-" { end += 1 }
            if digits() == 0 { end = mantissaEnd }
        }
        var prefix = String.UnicodeScalarView()
        prefix.append(contentsOf: scalars[..<end])
        return Double(String(prefix)) ?? 0
    }

    /// `boolValue`: true when, after whitespace, a sign and zeros, the text starts with `Y`,
    /// `y`, `T`, `t` or a digit 1–9.
    static func boolPrefix(_ text: String) -> Bool {
        var scalars = trimmed(text)[...]
        if let sign = scalars.first, sign == "+" || sign == "-" { scalars = scalars.dropFirst() }
        scalars = scalars.drop { $0 == "0" }
        guard let first = scalars.first else { return false }
        return "YyTt123456789".unicodeScalars.contains(first)
    }
}
