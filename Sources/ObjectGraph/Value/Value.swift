import Foundation

/// One attribute value, as stored in a managed object, a store row or a predicate constant.
///
/// Every attribute type of a model maps to one case; `null` is the absence of a value.
///
/// ```swift
/// let age: Value = 42            // .integer(42)
/// let name: Value = "Ada"        // .string("Ada")
/// if case .integer(let n) = age { print(n) }
/// ```
public enum Value: Sendable, Hashable {
    // `decimal` and `objectID` are boxed (`indirect`): they are rare in attribute slots, and
    // unboxed they would make every value (and every slot of every object) 56 bytes, not 24.
    /// No value (`nil` in Swift, `NULL` in SQL).
    case null
    /// A signed integer (Integer 16, 32 and 64 attributes).
    case integer(Int64)
    /// A floating-point number (Double and Float attributes).
    case double(Double)
    /// A decimal number (Decimal attributes).
    indirect case decimal(Decimal)
    /// Text (String attributes).
    case string(String)
    /// A Boolean (Boolean attributes).
    case bool(Bool)
    /// A point in time (Date attributes).
    case date(Date)
    /// Bytes (Binary and Transformable attributes).
    case data(Data)
    /// A UUID (UUID attributes).
    case uuid(UUID)
    /// A URL (URI attributes).
    case uri(URL)
    /// A reference to a managed object.
    indirect case objectID(ObjectID)

    /// Whether this is ``null``.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension Value: ExpressibleByNilLiteral {
    /// Creates ``null``.
    public init(nilLiteral: ()) { self = .null }
}

extension Value: ExpressibleByIntegerLiteral {
    /// Creates an ``integer(_:)``.
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension Value: ExpressibleByFloatLiteral {
    /// Creates a ``double(_:)``.
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension Value: ExpressibleByStringLiteral {
    /// Creates a ``string(_:)``.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension Value: ExpressibleByBooleanLiteral {
    /// Creates a ``bool(_:)``.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension Value: CustomStringConvertible {
    /// A short, readable rendering: strings quoted, dates in ISO 8601.
    public var description: String {
        switch self {
        case .null: return "nil"
        case .integer(let v): return String(v)
        case .double(let v): return String(v)
        case .decimal(let v): return v.description
        case .string(let v): return "\"\(v)\""
        case .bool(let v): return v ? "true" : "false"
        case .date(let v): return v.formatted(.iso8601)
        case .data(let v): return "<\(v.count) bytes>"
        case .uuid(let v): return v.uuidString
        case .uri(let v): return v.absoluteString
        case .objectID(let v): return v.description
        }
    }
}
