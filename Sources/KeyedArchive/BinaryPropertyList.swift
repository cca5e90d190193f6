import Foundation

/// Reads and writes binary property lists (`bplist00`), the format of keyed archives.
///
/// Reading never trusts the bytes: the trailer, the offset table and every object's length
/// are checked against the file before anything is read; references must name an object of
/// the table; a container that contains itself, or nesting deeper than ``maximumDepth``,
/// is an error; and an object shared by many containers is decoded once. Every fault is a
/// ``KeyedArchiveError/malformedPropertyList(offset:reason:)`` naming the byte.
///
/// ```swift
/// let bytes = BinaryPropertyList.encode(.dictionary(["name": .string("Ada")]))
/// let value = try BinaryPropertyList.decode(bytes)   // .dictionary(["name": .string("Ada")])
/// ```
public enum BinaryPropertyList {
    /// The deepest nesting of containers read (keyed archives nest two or three levels).
    public static let maximumDepth = 200

    /// Decodes the property list in `data`.
    /// - Throws: ``KeyedArchiveError/malformedPropertyList(offset:reason:)``.
    public static func decode(_ data: Data) throws(KeyedArchiveError) -> PropertyListObject {
        var reader = try BinaryPropertyListReader(bytes: [UInt8](data))
        return try reader.topValue()
    }

    /// Encodes `value` as a binary property list (each value its own object; dictionary keys in
    /// sorted order, so equal values give equal bytes).
    public static func encode(_ value: PropertyListObject) -> Data {
        BinaryPropertyListWriter(value).data()
    }
}
