import Foundation

/// One value of a property list, as a binary property list (`bplist00`) holds it: the plain
/// types, plus the `UID` references keyed archives use.
///
/// ```swift
/// let list = try BinaryPropertyList.decode(bytes)
/// if case .dictionary(let top) = list, case .string(let name)? = top["$archiver"] { print(name) }
/// ```
public indirect enum PropertyListObject: Sendable, Hashable {
    /// The null object (`0x00`; rare, Apple writes none).
    case null
    /// A Boolean.
    case bool(Bool)
    /// A signed integer (1, 2, 4 and 8-byte integers; a 16-byte one when it fits in 64 bits).
    case integer(Int64)
    /// A floating-point number (4 or 8 bytes).
    case real(Double)
    /// A date (seconds since 1 January 2001, as Foundation's reference date).
    case date(Date)
    /// Bytes.
    case data(Data)
    /// Text (ASCII, UTF-16 or UTF-8 in the file).
    case string(String)
    /// A keyed archive's reference to an object of its `$objects` (`CF$UID`).
    case uid(UInt64)
    /// An array.
    case array([PropertyListObject])
    /// A set (kept in file order).
    case set([PropertyListObject])
    /// A dictionary with string keys.
    case dictionary([String: PropertyListObject])

    /// The string, when this is one.
    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The integer, when this is one.
    public var integer: Int64? {
        if case .integer(let number) = self { return number }
        return nil
    }
}
