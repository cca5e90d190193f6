import Foundation

/// Converts a value a mapping produced to the destination attribute's type, with the table
/// inference accepts (`MIGRATION-SEAMS.md`, "B: type conversions") and nothing looser:
///
/// - Integer 16/32/64 from integers (narrowing checked), from Double/Float and Decimal
///   (truncated toward zero; NaN, infinity or out of range fails) and from Boolean (0/1).
/// - Double and Float from numbers and Booleans; a Float holds the nearest `Float`, kept as a
///   `Double` (a finite value beyond `Float`'s range fails).
/// - Decimal from numbers (NaN and infinity fail) and Booleans.
/// - Boolean from numbers (0 is false; NaN fails).
/// - String from integers (`-42`) and Booleans (`0`/`1`, NSNumber's `stringValue`).
/// - From a String, only text that is exactly a value of the destination type (`"42"` for an
///   integer, `"YES"` for a Boolean, a UUID's or URI's text): what a custom expression yields;
///   inference never asks for it.
/// - Every other type only from a value of the same kind (Date from a date, Binary and
///   Transformable from data, …); Undefined, Composite and unknown types take any value.
///
/// `nil` stays `nil` (whether the attribute may be nil is checked separately).
///
/// ```swift
/// try MigrationValueConversion.convert(.double(2.9), to: .integer16, entity: "Person", property: "age", object: "Person/p1")  // .integer(2)
/// ```
public enum MigrationValueConversion {
    /// `value` as a value of `type`.
    /// - Throws: ``MigrationError/cannotConvertValue(entity:property:reason:)`` naming the
    ///   destination entity and property; the reason names `object` and the value.
    public static func convert(
        _ value: Value, to type: AttributeType, entity: String, property: String, object: String
    ) throws(MigrationError) -> Value {
        if value.isNull { return .null }
        if let converted = converted(value, to: type) { return converted }
        throw .cannotConvertValue(
            entity: entity, property: property,
            reason: "\(object): \(value) does not fit \(type)")
    }

    /// The converted value, or nil when `value` has no value of `type`.
    static func converted(_ value: Value, to type: AttributeType) -> Value? {
        switch type {
        case .integer16, .integer32, .integer64:
            return integer(value, type.integerRange ?? Int64.min...Int64.max)
        case .double:
            return double(value).map { .double($0) }
        case .float:
            guard let d = double(value) else { return nil }
            let f = Float(d)
            if d.isFinite && !f.isFinite { return nil }
            return .double(Double(f))
        case .decimal:
            return decimal(value).map { .decimal($0) }
        case .boolean:
            return boolean(value).map { .bool($0) }
        case .string:
            switch value {
            case .string: return value
            case .integer(let n): return .string(String(n))
            case .bool(let b): return .string(b ? "1" : "0")
            default: return nil
            }
        case .date:
            if case .date = value { return value }
            return parsed(value, type)
        case .binary, .transformable:
            if case .data = value { return value }
            return nil
        case .uuid:
            if case .uuid = value { return value }
            return parsed(value, type)
        case .uri:
            if case .uri = value { return value }
            return parsed(value, type)
        case .objectID:
            if case .objectID = value { return value }
            return nil
        case .undefined, .composite, .unknown:
            return value
        }
    }

    /// A string's value when it is exactly a value of `type` (Core Data's own reading of text).
    private static func parsed(_ value: Value, _ type: AttributeType) -> Value? {
        guard case .string(let text) = value,
            case .exact(let read) = ValueReading.read(text, as: type)
        else { return nil }
        return read
    }

    private static func integer(_ value: Value, _ range: ClosedRange<Int64>) -> Value? {
        let n: Int64
        switch value {
        case .integer(let v): n = v
        case .bool(let b): n = b ? 1 : 0
        case .double(let d):
            guard d.isFinite, d > -9.223_372_036_854_775_808e18, d < 9.223_372_036_854_775_808e18
            else { return nil }
            n = Int64(d.rounded(.towardZero))
        case .decimal(let d):
            guard let v = truncated(d) else { return nil }
            n = v
        case .string:
            guard case .integer(let v)? = parsed(value, .integer64) else { return nil }
            n = v
        default: return nil
        }
        return range.contains(n) ? .integer(n) : nil
    }

    /// A decimal truncated toward zero, when it fits an `Int64`.
    private static func truncated(_ d: Decimal) -> Int64? {
        guard !d.isNaN, d > Decimal(Int64.min) - 1, d < Decimal(Int64.max) + 1 else { return nil }
        if d <= Decimal(Int64.min) { return Int64.min }
        var input = d < 0 ? -d : d
        var whole = Decimal()
        NSDecimalRound(&whole, &input, 0, .down)
        let magnitude = NSDecimalNumber(decimal: whole).int64Value
        return d < 0 ? -magnitude : magnitude
    }

    private static func double(_ value: Value) -> Double? {
        switch value {
        case .integer(let n): return Double(n)
        case .double(let d): return d
        case .decimal(let d): return NSDecimalNumber(decimal: d).doubleValue
        case .bool(let b): return b ? 1 : 0
        case .string:
            guard case .double(let d)? = parsed(value, .double) else { return nil }
            return d
        default: return nil
        }
    }

    private static func decimal(_ value: Value) -> Decimal? {
        switch value {
        case .integer(let n): return Decimal(n)
        case .double(let d): return d.isFinite ? Decimal(d) : nil
        case .decimal(let d): return d
        case .bool(let b): return b ? 1 : 0
        case .string:
            guard case .decimal(let d)? = parsed(value, .decimal) else { return nil }
            return d
        default: return nil
        }
    }

    private static func boolean(_ value: Value) -> Bool? {
        switch value {
        case .bool(let b): return b
        case .integer(let n): return n != 0
        case .double(let d): return d.isNaN ? nil : d != 0
        case .decimal(let d): return d.isNaN ? nil : d != 0
        case .string:
            guard case .bool(let b)? = parsed(value, .boolean) else { return nil }
            return b
        default: return nil
        }
    }
}
