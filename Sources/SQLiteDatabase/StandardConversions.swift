import Foundation

// The `DatabaseValueConvertible` conformances of standard types. The storage of each is
// documented on `DatabaseValueConvertible`.

extension Int64: DatabaseValueConvertible {
    /// `INTEGER`.
    @inlinable
    public var databaseValue: DatabaseValue { .integer(self) }

    /// From `INTEGER`, or from `REAL` holding an exact integer.
    @inlinable
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Int64? {
        switch value {
        case .integer(let integer): return integer
        case .real(let real): return Int64(exactly: real)
        default: return nil
        }
    }
}

extension Int: DatabaseValueConvertible {
    /// `INTEGER`.
    @inlinable
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }

    /// From `INTEGER` (or exact `REAL`) in range.
    @inlinable
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Int? {
        Int64.fromDatabaseValue(value).flatMap { Int(exactly: $0) }
    }
}

extension Int32: DatabaseValueConvertible {
    /// `INTEGER`.
    @inlinable
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }

    /// From `INTEGER` (or exact `REAL`) in range; nil when out of range.
    @inlinable
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Int32? {
        Int64.fromDatabaseValue(value).flatMap { Int32(exactly: $0) }
    }
}

extension Int16: DatabaseValueConvertible {
    /// `INTEGER`.
    @inlinable
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }

    /// From `INTEGER` (or exact `REAL`) in range; nil when out of range.
    @inlinable
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Int16? {
        Int64.fromDatabaseValue(value).flatMap { Int16(exactly: $0) }
    }
}

extension Bool: DatabaseValueConvertible {
    /// `INTEGER` 1 or 0.
    @inlinable
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }

    /// From `INTEGER`: non-zero is `true`.
    @inlinable
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Bool? {
        guard case .integer(let integer) = value else { return nil }
        return integer != 0
    }
}

extension Double: DatabaseValueConvertible {
    /// `REAL`.
    @inlinable
    public var databaseValue: DatabaseValue { .real(self) }

    /// From `REAL` or `INTEGER`.
    @inlinable
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Double? {
        switch value {
        case .real(let real): return real
        case .integer(let integer): return Double(integer)
        default: return nil
        }
    }
}

extension Float: DatabaseValueConvertible {
    /// `REAL`.
    @inlinable
    public var databaseValue: DatabaseValue { .real(Double(self)) }

    /// From `REAL` or `INTEGER`, rounded to the nearest `Float`.
    @inlinable
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Float? {
        Double.fromDatabaseValue(value).map { Float($0) }
    }
}

extension String: DatabaseValueConvertible {
    /// `TEXT`.
    @inlinable
    public var databaseValue: DatabaseValue { .text(self) }

    /// From `TEXT` only.
    @inlinable
    public static func fromDatabaseValue(_ value: DatabaseValue) -> String? {
        guard case .text(let text) = value else { return nil }
        return text
    }
}

extension Data: DatabaseValueConvertible {
    /// `BLOB`.
    @inlinable
    public var databaseValue: DatabaseValue { .blob(self) }

    /// From `BLOB`, or the UTF-8 bytes of `TEXT`.
    @inlinable
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Data? {
        switch value {
        case .blob(let data): return data
        case .text(let text): return Data(text.utf8)
        default: return nil
        }
    }
}

extension Date: DatabaseValueConvertible {
    /// `REAL`: seconds since 1970-01-01 00:00:00 UTC (`timeIntervalSince1970`).
    @inlinable
    public var databaseValue: DatabaseValue { .real(timeIntervalSince1970) }

    /// From `REAL` or `INTEGER` seconds since 1970-01-01 00:00:00 UTC.
    @inlinable
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Date? {
        Double.fromDatabaseValue(value).map { Date(timeIntervalSince1970: $0) }
    }
}

extension UUID: DatabaseValueConvertible {
    /// `BLOB` of the 16 bytes, in order.
    @inlinable
    public var databaseValue: DatabaseValue {
        withUnsafeBytes(of: uuid) { .blob(Data($0)) }
    }

    /// From a 16-byte `BLOB`, or `TEXT` in the `E621E1F8-C36C-495A-93FC-0C247A3E6E5F` form.
    @inlinable
    public static func fromDatabaseValue(_ value: DatabaseValue) -> UUID? {
        switch value {
        case .blob(let data):
            guard data.count == 16 else { return nil }
            var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &bytes) { $0.copyBytes(from: data) }
            return UUID(uuid: bytes)
        case .text(let text):
            return UUID(uuidString: text)
        default:
            return nil
        }
    }
}

extension URL: DatabaseValueConvertible {
    /// `TEXT`: the absolute string.
    @inlinable
    public var databaseValue: DatabaseValue { .text(absoluteString) }

    /// From `TEXT` that parses as a URL.
    @inlinable
    public static func fromDatabaseValue(_ value: DatabaseValue) -> URL? {
        guard case .text(let text) = value else { return nil }
        return URL(string: text)
    }
}
