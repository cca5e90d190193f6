import Foundation
import ObjectGraph

/// Store types on the command line: by name (`sqlite`, `xml`, `binary`), by file extension, or
/// by the first bytes of a file.
enum StoreFileKind {
    /// The type named `name` (`sqlite`, `xml`, `binary`, `memory`), or `nil`.
    static func type(named name: String) -> StoreType? {
        switch name.lowercased() {
        case "sqlite": return .sqlite
        case "xml": return .xml
        case "binary", "bin", "objectgraph": return .binary
        case "memory", "inmemory", "in-memory": return .inMemory
        default: return nil
        }
    }

    /// The type a file extension stands for: `.sqlite`/`.db`/`.storedata`, `.xml`,
    /// `.objectgraph`/`.bin`.
    static func type(forExtensionOf path: String) -> StoreType? {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "sqlite", "sqlite3", "db", "storedata": return .sqlite
        case "xml": return .xml
        case "objectgraph", "bin": return .binary
        default: return nil
        }
    }

    /// The type of the file at `path` from its first bytes: the SQLite header, `<?xml`, or the
    /// binary store's magic number; `nil` when unreadable or unknown.
    static func sniff(_ path: String) -> StoreType? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 64) else { return nil }
        let bytes = [UInt8](head)
        if bytes.starts(with: Array("SQLite format 3\u{0}".utf8)) { return .sqlite }
        if bytes.starts(with: [0x89, 0x4F, 0x47, 0x42, 0x0D, 0x0A, 0x1A, 0x0A]) { return .binary }
        var text = bytes[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        while let first = text.first, [0x20, 0x09, 0x0A, 0x0D].contains(first) {
            text = text.dropFirst()
        }
        if text.starts(with: Array("<?xml".utf8)) { return .xml }
        return nil
    }
}
