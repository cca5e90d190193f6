import Foundation

/// Reading an input failed: it is a folder, or the system reported an error.
public struct InputReadError: Error, CustomStringConvertible, Sendable {
    /// What was read (`standard input`).
    public let name: String
    /// The `errno` of the failed read.
    public let code: Int32

    /// `standard input is a directory`, or `cannot read standard input: <reason>`.
    public var description: String {
        if code == EISDIR { return "\(name) is a directory" }
        return "cannot read \(name): \(String(cString: strerror(code)))"
    }
}
