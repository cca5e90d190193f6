import Foundation

/// What a path names on disk (symbolic links followed). Every model and store path is checked
/// with it before it is opened: reading a FIFO blocks until some process writes to it, and a
/// folder, device or socket holds no model file or store.
///
/// ```swift
/// PathKind(atPath: "/tmp/pipe")  // .fifo
/// if let reason = PathKind.refusal(ofPath: path) {
///     throw StoreError.cannotOpen(path: path, reason: reason)  // "it is a FIFO (named pipe), …"
/// }
/// ```
public enum PathKind: Sendable, Hashable, CustomStringConvertible {
    /// Nothing is there (or it cannot be looked at).
    case missing
    /// A regular file.
    case regularFile
    /// A folder.
    case directory
    /// A FIFO (named pipe).
    case fifo
    /// A character device (`/dev/null`, a terminal).
    case characterDevice
    /// A block device (a disk).
    case blockDevice
    /// A Unix domain socket.
    case socket
    /// Any other kind.
    case other

    /// What `path` names, from `stat` (no file is opened).
    public init(atPath path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            self = .missing
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: self = .regularFile
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        default: self = .other
        }
    }

    /// The kind in words: "a regular file", "a FIFO (named pipe)"…
    public var description: String {
        switch self {
        case .missing: return "missing"
        case .regularFile: return "a regular file"
        case .directory: return "a folder"
        case .fifo: return "a FIFO (named pipe)"
        case .characterDevice: return "a character device"
        case .blockDevice: return "a block device"
        case .socket: return "a socket"
        case .other: return "neither a file nor a folder"
        }
    }

    /// Why `path` must not be opened as one of `accepted`, or nil when it may be. A missing
    /// path is not refused here: opening it says so (or creates it).
    ///
    /// - Returns: a reason such as "it is a FIFO (named pipe), not a regular file".
    public static func refusal(
        ofPath path: String, accepting accepted: Set<PathKind> = [.regularFile]
    )
        -> String?
    {
        let kind = PathKind(atPath: path)
        guard kind != .missing, !accepted.contains(kind) else { return nil }
        let wanted = accepted.map(\.description).sorted().joined(separator: " or ")
        return "it is \(kind), not \(wanted)"
    }
}
