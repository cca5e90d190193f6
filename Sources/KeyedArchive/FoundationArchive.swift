import Foundation

/// Reads and writes the `NSKeyedArchiver` archives of Foundation values that Core Data's default
/// transformer (`NSSecureUnarchiveFromData`) stores in Transformable attributes.
///
/// Decoding never trusts the bytes (a malformed property list, a reference to no object, a
/// cycle, a wrong type, too deep a nesting are each a ``KeyedArchiveError``). Encoding writes
/// what `NSKeyedArchiver` and CFBinaryPList write; given the archive a value was read from, it
/// writes an unchanged value byte for byte as that archive, and a changed one in its image.
///
/// ```swift
/// let value = try FoundationArchive.decode(stored)          // .array([.string("a"), …])
/// let again = try FoundationArchive.encode(value, like: stored)   // == stored
/// ```
public enum FoundationArchive {
    /// The value archived in `data`.
    /// - Throws: ``KeyedArchiveError``.
    public static func decode(_ data: Data) throws(KeyedArchiveError) -> FoundationValue {
        let template = try ArchiveTemplate(data: data, id: 0)
        var decoder = FoundationArchiveDecoder(template: template, source: data)
        return try decoder.rootValue()
    }

    /// The archive of `value`: in the image of `template` (the archive the value was read
    /// from) when given and readable. An unknown object or an unchanged attributed string at the
    /// root is its kept archive, unchanged.
    /// - Throws: ``KeyedArchiveError`` when an archive kept in the value cannot be read.
    public static func encode(_ value: FoundationValue, like template: Data? = nil)
        throws(KeyedArchiveError) -> Data
    {
        switch value {
        case .unknown(let archived):
            return archived.archive
        case .attributedString(let archived):
            if case .attributedString(let kept)? = try? decode(archived.archive),
                kept.text == archived.text
            {
                return archived.archive
            }
        default:
            break
        }
        let parsed = template.flatMap { try? ArchiveTemplate(data: $0, id: 0) }
        var encoder = FoundationArchiveEncoder(template: parsed)
        return try encoder.archive(value)
    }
}
