import Foundation
import ObjectGraph

/// Store types named on the command line (`--to`, `--from`, `--type`).
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

    /// Checks the store file `path` names before anything opens it, for every command that
    /// reads a store: it must exist and be a regular file (reading a FIFO would block for
    /// good). Returns its type from its first bytes or extension, or `nil` when neither tells.
    ///
    /// - Throws: ``StoreError/cannotOpen(path:reason:)`` naming the path and what it is.
    static func checkedSource(_ path: String) throws -> StoreType? {
        guard PathKind(atPath: path) != .missing else {
            throw StoreError.cannotOpen(path: path, reason: "no such file")
        }
        if let reason = PathKind.refusal(ofPath: path) {
            throw StoreError.cannotOpen(path: path, reason: reason)
        }
        return StoreType(detectingFileAt: URL(fileURLWithPath: path))
    }
}
