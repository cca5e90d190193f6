import AppContainer
import Foundation

/// What went wrong reading or writing preferences; each case says where and why.
public enum PreferencesError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The preferences file was not a readable property-list dictionary. It was moved to
    /// `movedTo` (kept for inspection); defaults and new values stay available.
    case corruptFile(path: String, movedTo: String, reason: String)
    /// A file operation failed (`operation` names it, `reason` is the system's message).
    case fileSystem(path: String, operation: String, reason: String)
    /// The app container could not be resolved or its folder created.
    case container(AppContainerError)
    /// A `Codable` value could not be encoded as a property list.
    case encodingFailed(key: String, reason: String)
    /// The stored value could not be decoded as the requested type.
    case decodingFailed(key: String, reason: String)

    /// A one-line message saying what failed, where and why.
    public var description: String {
        switch self {
        case .corruptFile(let path, let movedTo, let reason):
            return "preferences file \(path) is corrupt (\(reason)); it was moved to \(movedTo)"
        case .fileSystem(let path, let operation, let reason):
            return "\(operation) failed for \(path): \(reason)"
        case .container(let error):
            return error.description
        case .encodingFailed(let key, let reason):
            return "cannot store the value for key '\(key)': \(reason)"
        case .decodingFailed(let key, let reason):
            return "cannot read the value for key '\(key)': \(reason)"
        }
    }

    /// A file-system error for the current `errno`.
    static func system(_ operation: String, path: String, code: Int32 = errno) -> Self {
        .fileSystem(path: path, operation: operation, reason: String(cString: strerror(code)))
    }
}
