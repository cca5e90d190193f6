/// A Swift type that converts to and from a ``DatabaseValue``.
///
/// Conforming types can be bound as statement arguments and decoded from rows. The module
/// provides conformances for `Int`, `Int64`, `Int32`, `Int16`, `Bool`, `Double`, `Float`,
/// `String`, `Data`, `Date`, `UUID`, `URL`, ``DatabaseValue`` and `Optional` of any of them.
/// How each is stored:
///
/// | Swift type | Stored as | Also decoded from |
/// |---|---|---|
/// | `Int`, `Int64`, `Int32`, `Int16` | `INTEGER` | `REAL` with an exact integer value |
/// | `Bool` | `INTEGER` 0 or 1 | any `INTEGER` (non-zero is `true`) |
/// | `Double`, `Float` | `REAL` | `INTEGER` |
/// | `String` | `TEXT` | — |
/// | `Data` | `BLOB` | `TEXT` (its UTF-8 bytes) |
/// | `Date` | `REAL`, seconds since 1970-01-01 00:00:00 UTC | `INTEGER` seconds since 1970 |
/// | `UUID` | `BLOB` of 16 bytes | `TEXT` in the `E621E1F8-...` form |
/// | `URL` | `TEXT`, its absolute string | — |
/// | `Optional` | `NULL` for `nil` | — |
///
/// Core Data's own layout stores dates as seconds since 2001: a store with that layout
/// converts explicitly rather than relying on the `Date` conformance.
///
/// ```swift
/// struct Celsius: DatabaseValueConvertible {
///     var degrees: Double
///     var databaseValue: DatabaseValue { .real(degrees) }
///     static func fromDatabaseValue(_ value: DatabaseValue) -> Celsius? {
///         Double.fromDatabaseValue(value).map { Celsius(degrees: $0) }
///     }
/// }
/// ```
public protocol DatabaseValueConvertible {
    /// The value to store.
    var databaseValue: DatabaseValue { get }

    /// The Swift value for a stored value, or nil when the stored value cannot represent one
    /// (wrong storage class, integer out of range, `NULL` for a non-optional type...).
    static func fromDatabaseValue(_ value: DatabaseValue) -> Self?
}

extension DatabaseValue: DatabaseValueConvertible {
    /// The value itself.
    public var databaseValue: DatabaseValue { self }

    /// The value itself; never nil.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> DatabaseValue? { value }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    /// `NULL` for `nil`, the wrapped value's database value otherwise.
    public var databaseValue: DatabaseValue {
        switch self {
        case .none: return .null
        case .some(let value): return value.databaseValue
        }
    }

    /// `.some(nil)` for `NULL`; the wrapped value when it converts; nil when it does not.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Wrapped?? {
        if value.isNull {
            return .some(nil)
        }
        guard let wrapped = Wrapped.fromDatabaseValue(value) else { return nil }
        return .some(wrapped)
    }
}
