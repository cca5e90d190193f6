import Foundation

/// Why an ``AppContainer`` could not be made or a folder or file in it could not be used.
///
/// Every case says which identifier or path was involved and why it failed.
public enum AppContainerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The identifier is not a safe folder name (`reason` says which rule it breaks).
    case invalidIdentifier(String, reason: String)
    /// Neither `HOME` nor the user database gives a home folder, so the XDG defaults cannot
    /// be resolved.
    case noHomeDirectory
    /// A folder could not be created or is not usable (`reason` is the system's message).
    case cannotCreateDirectory(path: String, reason: String)
    /// A private folder exists but belongs to another user or is not a real folder
    /// (a symbolic link, for instance), so it is not used.
    case unsafeDirectory(path: String, reason: String)
    /// The file or folder does not exist.
    case fileNotFound(path: String)
    /// The file system does not support extended attributes in the `user.` namespace.
    case extendedAttributesUnsupported(path: String)
    /// Another file-system operation failed (`operation` names it, `reason` is the system's
    /// message).
    case fileSystemError(path: String, operation: String, reason: String)

    /// A one-line message saying what failed, where and why.
    public var description: String {
        switch self {
        case .invalidIdentifier(let identifier, let reason):
            return "invalid app identifier \(String(reflecting: identifier)): \(reason)"
        case .noHomeDirectory:
            return "cannot find the home folder: HOME is not set and the user database has none"
        case .cannotCreateDirectory(let path, let reason):
            return "cannot create folder \(path): \(reason)"
        case .unsafeDirectory(let path, let reason):
            return "refusing to use folder \(path): \(reason)"
        case .fileNotFound(let path):
            return "no such file or folder: \(path)"
        case .extendedAttributesUnsupported(let path):
            return "the file system holding \(path) does not support user extended attributes"
        case .fileSystemError(let path, let operation, let reason):
            return "\(operation) failed for \(path): \(reason)"
        }
    }
}

extension AppContainerError {
    /// The system's message for an `errno` value.
    static func message(for code: Int32) -> String {
        String(cString: strerror(code))
    }
}
