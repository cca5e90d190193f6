import Foundation

/// A value decoded from a keyed archive: Foundation's plain classes (`NSString`, `NSNumber`,
/// `NSData`, `NSDate`, `NSNull`, `NSArray`, `NSSet`, `NSDictionary` and their mutable forms)
/// become plain values; any other object is an ``ArchivedObject`` whose fields are decoded on
/// demand.
///
/// ```swift
/// let archive = try KeyedArchive(data: bytes)
/// if case .object(let expression) = try archive.rootValue() {
///     print(expression.className)   // "NSKeyPathExpression"
/// }
/// ```
public indirect enum ArchivedValue: Sendable, Hashable {
    /// `nil` (`$null`) or `NSNull`.
    case null
    /// A Boolean `NSNumber` (or a Boolean field).
    case bool(Bool)
    /// An integer `NSNumber` (or field).
    case integer(Int64)
    /// A floating-point `NSNumber` (or field).
    case real(Double)
    /// An `NSString`.
    case string(String)
    /// An `NSData`.
    case data(Data)
    /// An `NSDate`.
    case date(Date)
    /// An `NSArray` or `NSOrderedSet`, in order.
    case array([ArchivedValue])
    /// An `NSSet`, in archive order.
    case set([ArchivedValue])
    /// An `NSDictionary`.
    case dictionary([ArchivedValue: ArchivedValue])
    /// Any other object.
    case object(ArchivedObject)

    /// The string, when this is one.
    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The integer, when this is one (a Boolean counts as 0 or 1).
    public var integer: Int64? {
        switch self {
        case .integer(let number): return number
        case .bool(let flag): return flag ? 1 : 0
        default: return nil
        }
    }

    /// The elements of an array or a set.
    public var elements: [ArchivedValue]? {
        switch self {
        case .array(let values), .set(let values): return values
        default: return nil
        }
    }

    /// The object, when this is one.
    public var object: ArchivedObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// Whether this is ``null``.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}
