import Foundation

/// A value of the Foundation classes apps archive with `NSKeyedArchiver` (what Core Data's
/// default `NSSecureUnarchiveFromData` transformer stores in Transformable attributes), read by
/// ``FoundationArchive/decode(_:)`` and written back by ``FoundationArchive/encode(_:like:)``.
///
/// Mutable and immutable classes read alike (`NSMutableArray` is an ``array(_:)``); writing a
/// value again in the place of the archive it was read from keeps the class names, the shared
/// objects and the key order that archive had, so an unchanged value gives the same bytes.
///
/// ```swift
/// let value = try FoundationArchive.decode(bytes)
/// if case .dictionary(let entries) = value {
///     for entry in entries { print(entry.key, entry.value) }
/// }
/// ```
public indirect enum FoundationValue: Sendable, Hashable {
    /// `NSNull` (or `nil` where an archive may hold one, such as a URL's base).
    case null
    /// `NSString` or `NSMutableString`.
    case string(String)
    /// `NSNumber`, with the width the archive gives it.
    case number(ArchivedNumber)
    /// `NSDate`.
    case date(Date)
    /// `NSData` or `NSMutableData`.
    case data(Data)
    /// `NSURL`: its relative string and its base (``null`` or another ``url(relative:base:)``).
    case url(relative: String, base: FoundationValue)
    /// `NSUUID`.
    case uuid(UUID)
    /// `NSArray` or `NSMutableArray`.
    case array([FoundationValue])
    /// `NSDictionary` or `NSMutableDictionary`, entries in archive order.
    case dictionary([DictionaryEntry])
    /// `NSSet` or `NSMutableSet`, members in archive order.
    case set([FoundationValue])
    /// `NSOrderedSet` or `NSMutableOrderedSet`.
    case orderedSet([FoundationValue])
    /// `NSAttributedString` or `NSMutableAttributedString`: its text, and the object as archived
    /// (attributes included), written back unchanged while the text is unchanged.
    case attributedString(ArchivedObjectBytes)
    /// An object of a class this decoder does not know (a color, a font, an app's class…): its
    /// class name and its archive, written back unchanged.
    case unknown(ArchivedObjectBytes)

    /// One key and value of a ``FoundationValue/dictionary(_:)``.
    public struct DictionaryEntry: Sendable, Hashable {
        /// The key.
        public var key: FoundationValue
        /// The value.
        public var value: FoundationValue

        /// Creates an entry.
        public init(key: FoundationValue, value: FoundationValue) {
            self.key = key
            self.value = value
        }
    }

    /// The URL of a ``url(relative:base:)`` (`nil` for other values or an unparseable string).
    public var url: URL? {
        guard case .url(let relative, let base) = self else { return nil }
        return URL(string: relative, relativeTo: base.url)
    }
}

/// An `NSNumber` as an archive holds it: the property list keeps integers (whatever their C
/// type), 4-byte and 8-byte reals and Booleans apart, and so does this.
public enum ArchivedNumber: Sendable, Hashable {
    /// A Boolean (`@YES`, `@NO`).
    case bool(Bool)
    /// An integer that fits `Int64`.
    case integer(Int64)
    /// An unsigned integer above `Int64.max` (a 16-byte integer in the archive).
    case unsignedInteger(UInt64)
    /// A `float` (a 4-byte real).
    case float(Float)
    /// A `double` (an 8-byte real).
    case double(Double)
}

/// An archived object kept as it was archived: a standalone `NSKeyedArchiver` archive whose root
/// is the object, with its class and, for attributed strings, its text.
///
/// ```swift
/// if case .unknown(let object) = value { print(object.className, object.archive.count) }
/// ```
public struct ArchivedObjectBytes: Sendable, Hashable {
    /// The object's class (`$classname`).
    public let className: String
    /// The text, for an attributed string (`nil` otherwise).
    public let text: String?
    /// A keyed archive whose root is the object (the attribute's own bytes when the object
    /// was the attribute's root).
    public let archive: Data

    /// Creates the value of an object archived in `archive`.
    public init(className: String, text: String? = nil, archive: Data) {
        self.className = className
        self.text = text
        self.archive = archive
    }
}
