import AppContainer
import Foundation

/// What went wrong reading or writing preferences; each case says where and why.
public enum PreferencesError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The preferences file was not a readable property-list dictionary. It was moved to
    /// `movedTo` (kept for inspection); defaults and new values stay available.
    case corruptFile(path: String, movedTo: String, reason: String)
    /// The preferences file is not a readable property-list dictionary and was only read: it
    /// is left as it is (reading never changes a file); the next write moves it aside
    /// (``corruptFile(path:movedTo:reason:)``). Until then no stored values are seen.
    case unreadableFile(path: String, reason: String)
    /// A file operation failed (`operation` names it, `reason` is the system's message).
    case fileSystem(path: String, operation: String, reason: String)
    /// The app container could not be resolved or its folder created.
    case container(AppContainerError)
    /// A `Codable` value could not be encoded as a property list.
    case encodingFailed(key: String, reason: String)
    /// The stored value could not be decoded as the requested type.
    case decodingFailed(key: String, reason: String)
    /// A date outside ``PreferenceDate/supportedRange`` (years 0001 through 9999), which a
    /// property list cannot keep, was to be stored for `key`; `value` is the date as text.
    case dateOutOfRange(key: String, value: String)

    /// A one-line message saying what failed, where and why.
    public var description: String {
        switch self {
        case .corruptFile(let path, let movedTo, let reason):
            return "preferences file \(path) is corrupt (\(reason)); it was moved to \(movedTo)"
        case .unreadableFile(let path, let reason):
            return
                "preferences file \(path) cannot be read (\(reason)); it was left unchanged "
                + "(the next write moves it aside)"
        case .fileSystem(let path, let operation, let reason):
            return "\(operation) failed for \(path): \(reason)"
        case .container(let error):
            return error.description
        case .encodingFailed(let key, let reason):
            return "cannot store the value for key '\(key)': \(reason)"
        case .decodingFailed(let key, let reason):
            return "cannot read the value for key '\(key)': \(reason)"
        case .dateOutOfRange(let key, let value):
            return
                "cannot store the date \(value) for key '\(key)': property lists keep dates "
                + "from \(PreferenceDate.supportedRangeText)"
        }
    }

    /// A file-system error for the current `errno`.
    static func system(_ operation: String, path: String, code: Int32 = errno) -> Self {
        .fileSystem(path: path, operation: operation, reason: String(cString: strerror(code)))
    }
}
