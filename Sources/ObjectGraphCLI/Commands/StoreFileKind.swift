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
}
