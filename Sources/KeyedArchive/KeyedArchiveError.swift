/// Why bytes could not be read as a binary property list or an `NSKeyedArchiver` archive.
/// Every case says where: the byte offset in the property list, or the index in the archive's
/// `$objects`.
///
/// ```swift
/// do { _ = try KeyedArchive(data: bytes) }
/// catch { print(error) }  // "byte 42: the object's length runs past the end of the object table"
/// ```
public enum KeyedArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bytes are not a well-formed binary property list; `offset` is the byte where the
    /// fault was found.
    case malformedPropertyList(offset: Int, reason: String)
    /// The property list is well formed but is not an `NSKeyedArchiver` archive (`$archiver`,
    /// `$objects` or `$top` missing or of the wrong kind).
    case notAKeyedArchive(reason: String)
    /// The object at `index` in `$objects` is malformed (a bad reference, a missing class, a
    /// collection of the wrong shape, a cycle, too deep a nesting).
    case malformedObject(index: Int, reason: String)

    /// The error in one line.
    public var description: String {
        switch self {
        case .malformedPropertyList(let offset, let reason):
            return "binary property list, byte \(offset): \(reason)"
        case .notAKeyedArchive(let reason):
            return "not a keyed archive: \(reason)"
        case .malformedObject(let index, let reason):
            return "keyed archive, object \(index): \(reason)"
        }
    }
}
