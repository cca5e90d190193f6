import Foundation

/// A Swift type that converts to and from ``Value``, so managed objects can be read and written
/// with ordinary Swift types.
///
/// ```swift
/// let age: Int? = student["age"]
/// try student.set(17, for: "age")
/// ```
public protocol ValueConvertible {
    /// Creates the Swift value from `value`, or `nil` when it holds another kind of value.
    init?(value: Value)
    /// The value as a ``Value``.
    var asValue: Value { get }
}

extension Value: ValueConvertible {
    /// Returns `value` itself.
    @inlinable
    public init?(value: Value) { self = value }
    /// Returns `self`.
    public var asValue: Value { self }
}

extension Int64: ValueConvertible {
    /// Reads integers, integral doubles and Booleans (0 or 1).
    @inlinable
    public init?(value: Value) {
        switch value {
        case .integer(let v): self = v
        case .bool(let v): self = v ? 1 : 0
        case .double(let v):
            guard let exact = Int64(exactly: v) else { return nil }
            self = exact
        case .decimal(let v):
            guard let exact = Int64(exactly: NSDecimalNumber(decimal: v).doubleValue) else {
                return nil
            }
            self = exact
        default: return nil
        }
    }
    /// ``Value/integer(_:)``.
    public var asValue: Value { .integer(self) }
}

extension Int: ValueConvertible {
    /// Reads what `Int64` reads, when it fits.
    @inlinable
    public init?(value: Value) {
        guard let wide = Int64(value: value), let narrow = Int(exactly: wide) else { return nil }
        self = narrow
    }
    /// ``Value/integer(_:)``.
    public var asValue: Value { .integer(Int64(self)) }
}

extension Int32: ValueConvertible {
    /// Reads what `Int64` reads, when it fits.
    @inlinable
    public init?(value: Value) {
        guard let wide = Int64(value: value), let narrow = Int32(exactly: wide) else { return nil }
        self = narrow
    }
    /// ``Value/integer(_:)``.
    public var asValue: Value { .integer(Int64(self)) }
}

extension Int16: ValueConvertible {
    /// Reads what `Int64` reads, when it fits.
    @inlinable
    public init?(value: Value) {
        guard let wide = Int64(value: value), let narrow = Int16(exactly: wide) else { return nil }
        self = narrow
    }
    /// ``Value/integer(_:)``.
    public var asValue: Value { .integer(Int64(self)) }
}

extension Double: ValueConvertible {
    /// Reads doubles, integers and decimals.
    @inlinable
    public init?(value: Value) {
        switch value {
        case .double(let v): self = v
        case .integer(let v): self = Double(v)
        case .decimal(let v): self = NSDecimalNumber(decimal: v).doubleValue
        default: return nil
        }
    }
    /// ``Value/double(_:)``.
    public var asValue: Value { .double(self) }
}

extension Float: ValueConvertible {
    /// Reads what `Double` reads.
    @inlinable
    public init?(value: Value) {
        guard let wide = Double(value: value) else { return nil }
        self = Float(wide)
    }
    /// ``Value/double(_:)``.
    public var asValue: Value { .double(Double(self)) }
}

extension Decimal: ValueConvertible {
    /// Reads decimals, integers and doubles.
    @inlinable
    public init?(value: Value) {
        switch value {
        case .decimal(let v): self = v
        case .integer(let v): self = Decimal(v)
        case .double(let v): self = Decimal(v)
        default: return nil
        }
    }
    /// ``Value/decimal(_:)``.
    public var asValue: Value { .decimal(self) }
}

extension Bool: ValueConvertible {
    /// Reads Booleans and integers (non-zero is true).
    @inlinable
    public init?(value: Value) {
        switch value {
        case .bool(let v): self = v
        case .integer(let v): self = v != 0
        default: return nil
        }
    }
    /// ``Value/bool(_:)``.
    public var asValue: Value { .bool(self) }
}

extension String: ValueConvertible {
    /// Reads strings.
    @inlinable
    public init?(value: Value) {
        guard case .string(let v) = value else { return nil }
        self = v
    }
    /// ``Value/string(_:)``.
    public var asValue: Value { .string(self) }
}

extension Date: ValueConvertible {
    /// Reads dates.
    @inlinable
    public init?(value: Value) {
        guard case .date(let v) = value else { return nil }
        self = v
    }
    /// ``Value/date(_:)``.
    public var asValue: Value { .date(self) }
}

extension Data: ValueConvertible {
    /// Reads data.
    @inlinable
    public init?(value: Value) {
        guard case .data(let v) = value else { return nil }
        self = v
    }
    /// ``Value/data(_:)``.
    public var asValue: Value { .data(self) }
}

extension UUID: ValueConvertible {
    /// Reads UUIDs.
    @inlinable
    public init?(value: Value) {
        guard case .uuid(let v) = value else { return nil }
        self = v
    }
    /// ``Value/uuid(_:)``.
    public var asValue: Value { .uuid(self) }
}

extension URL: ValueConvertible {
    /// Reads URIs.
    @inlinable
    public init?(value: Value) {
        guard case .uri(let v) = value else { return nil }
        self = v
    }
    /// ``Value/uri(_:)``.
    public var asValue: Value { .uri(self) }
}

extension ObjectID: ValueConvertible {
    /// Reads object IDs.
    @inlinable
    public init?(value: Value) {
        guard case .objectID(let v) = value else { return nil }
        self = v
    }
    /// ``Value/objectID(_:)``.
    public var asValue: Value { .objectID(self) }
}

extension Value {
    /// A short name of the kind of value, for error messages (`the string "ten"`).
    var kindDescription: String {
        switch self {
        case .null: return "nil"
        case .integer(let v): return "the integer \(v)"
        case .double(let v): return "the number \(v)"
        case .decimal(let v): return "the decimal \(v)"
        case .string(let v): return "the string \"\(v.prefix(40))\""
        case .bool(let v): return "the Boolean \(v)"
        case .date: return "a date"
        case .data(let v): return "\(v.count) bytes of data"
        case .uuid: return "a UUID"
        case .uri: return "a URI"
        case .objectID: return "an object ID"
        }
    }
}
