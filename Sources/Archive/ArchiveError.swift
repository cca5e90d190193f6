import Foundation

/// Why a value could not be archived or read back; each case says where and why.
public enum ArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
    /// There is no file at `path`.
    case fileNotFound(path: String)
    /// The file exists but could not be read or written (`reason` is the system's message).
    case fileSystem(path: String, operation: String, reason: String)
    /// The bytes are not a property list (damaged, truncated, or another format). `path` is
    /// `nil` for data that did not come from a file.
    case corrupt(path: String?, reason: String)
    /// The property list is fine but does not hold a `type` (`reason` says where it differs).
    case wrongType(path: String?, type: String, reason: String)
    /// The value could not be encoded (`reason` comes from its `encode(to:)`).
    case encodingFailed(type: String, reason: String)

    /// A one-line message saying what failed, where and why.
    public var description: String {
        switch self {
        case .fileNotFound(let path):
            return "no archive at \(path)"
        case .fileSystem(let path, let operation, let reason):
            return "\(operation) failed for \(path): \(reason)"
        case .corrupt(let path, let reason):
            return "\(path.map { "archive \($0)" } ?? "archive data") is corrupt: \(reason)"
        case .wrongType(let path, let type, let reason):
            return "\(path.map { "archive \($0)" } ?? "archive data") does not hold a \(type): "
                + reason
        case .encodingFailed(let type, let reason):
            return "cannot archive a \(type): \(reason)"
        }
    }
}
