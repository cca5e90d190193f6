import Foundation

/// How Core Data reads a value Xcode wrote as text (a default, a minimum or a maximum) for an
/// attribute type: exactly, leniently (with the value it ends up with), or not at all.
///
/// The lenient readings follow what real model files rely on (model-format.md §6.6): integers
/// written `0.0` are truncated, Booleans written `0`, `100` or `true` mean NO or YES, and
/// numbers written `YES`/`NO` mean 1/0.
struct AttributeValueReading: Equatable {
    /// How well the text matched its type.
    enum Outcome: Equatable {
        /// The text is the type's own spelling.
        case exact
        /// The text is not the type's spelling, but Core Data reads it as ``AttributeValueReading/shown``.
        case lenient
        /// Core Data cannot read the text and ignores it.
        case unreadable
        /// The text is a number outside what the type can hold.
        case outOfRange
    }

    /// How well the text matched.
    var outcome: Outcome
    /// The value read, as a number, for numeric and Boolean types (for range checks).
    var number: Double?
    /// The value read, as Core Data would show it (`0`, `YES`).
    var shown: String?

    static let unreadable = AttributeValueReading(outcome: .unreadable)
    static let outOfRange = AttributeValueReading(outcome: .outOfRange)

    /// Reads `text` as a value of `type`; `nil` for types with no textual values to judge
    /// (Date, which has its own interval fields, and types without values).
    static func read(_ text: String, as type: AttributeType) -> AttributeValueReading? {
        switch type {
        case .integer16, .integer32, .integer64:
            return readInteger(text, range: type.integerRange ?? Int64.min...Int64.max)
        case .double, .decimal:
            return readDecimal(text, limit: Double.greatestFiniteMagnitude)
        case .float:
            return readDecimal(text, limit: Double(Float.greatestFiniteMagnitude))
        case .boolean:
            return readBoolean(text)
        case .string:
            return AttributeValueReading(outcome: .exact)
        case .uuid:
            return UUID(uuidString: text) == nil
                ? .unreadable : AttributeValueReading(outcome: .exact)
        case .uri:
            return text.isEmpty || URL(string: text) == nil
                ? .unreadable : AttributeValueReading(outcome: .exact)
        case .binary, .transformable:
            return text.isEmpty ? AttributeValueReading(outcome: .exact) : .unreadable
        case .date, .undefined, .objectID, .composite, .unknown:
            return nil
        }
    }

    /// Integers: a decimal integer is exact; `YES`/`NO` and decimal numbers (truncated toward
    /// zero) are lenient.
    static func readInteger(_ text: String, range: ClosedRange<Int64>) -> AttributeValueReading {
        if let value = Int64(text) {
            guard range.contains(value) else { return .outOfRange }
            return AttributeValueReading(outcome: .exact, number: Double(value), shown: text)
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if isInteger(trimmed) {
            // Digits with surrounding spaces, or digits that overflow Int64.
            guard let value = Int64(trimmed), range.contains(value) else { return .outOfRange }
            return AttributeValueReading(outcome: .lenient, number: Double(value), shown: trimmed)
        }
        if let truth = booleanWord(trimmed) {
            return AttributeValueReading(
                outcome: .lenient, number: truth ? 1 : 0, shown: truth ? "1" : "0")
        }
        guard isDecimal(trimmed), let double = Double(trimmed) else { return .unreadable }
        let truncated = double.rounded(.towardZero)
        guard truncated >= Double(range.lowerBound), truncated <= Double(range.upperBound),
            let value = Int64(exactly: truncated), range.contains(value)
        else { return .outOfRange }
        return AttributeValueReading(outcome: .lenient, number: truncated, shown: String(value))
    }

    /// Floating point and Decimal: a decimal number is exact; surrounding spaces and
    /// `YES`/`NO` are lenient.
    static func readDecimal(_ text: String, limit: Double) -> AttributeValueReading {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if isDecimal(trimmed), let value = Double(trimmed) {
            guard value.isFinite, abs(value) <= limit else { return .outOfRange }
            let outcome: Outcome = trimmed == text ? .exact : .lenient
            return AttributeValueReading(outcome: outcome, number: value, shown: trimmed)
        }
        if let truth = booleanWord(trimmed) {
            return AttributeValueReading(
                outcome: .lenient, number: truth ? 1 : 0, shown: truth ? "1" : "0")
        }
        return .unreadable
    }

    /// Booleans: `YES` and `NO` are exact; other truth words and numbers (non-zero is YES) are
    /// lenient.
    static func readBoolean(_ text: String) -> AttributeValueReading {
        if text == "YES" || text == "NO" {
            return AttributeValueReading(
                outcome: .exact, number: text == "YES" ? 1 : 0, shown: text)
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let truth: Bool
        if let word = booleanWord(trimmed) {
            truth = word
        } else if isDecimal(trimmed), let value = Double(trimmed) {
            truth = value != 0
        } else {
            return .unreadable
        }
        return AttributeValueReading(
            outcome: .lenient, number: truth ? 1 : 0, shown: truth ? "YES" : "NO")
    }

    /// `YES`/`NO`/`true`/`false` in any case, or `nil`.
    private static func booleanWord(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "yes", "true": return true
        case "no", "false": return false
        default: return nil
        }
    }

    /// Whether `text` is an optional sign followed by digits only.
    static func isInteger(_ text: String) -> Bool {
        var digits = Substring(text)
        if digits.first == "+" || digits.first == "-" { digits = digits.dropFirst() }
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Whether `text` is a plain decimal number: sign, digits, optional fraction and exponent
    /// (no `inf`, `nan` or hexadecimal).
    static func isDecimal(_ text: String) -> Bool {
        var rest = Substring(text)
        if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
        let mantissa = rest.prefix { $0 != "e" && $0 != "E" }
        let exponent = rest.dropFirst(mantissa.count)
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.contains(where: { !$0.isEmpty }),
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else { return false }
        if exponent.isEmpty { return true }
        return isInteger(String(exponent.dropFirst()))
    }
}
