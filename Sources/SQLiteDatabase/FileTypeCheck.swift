import Foundation

/// Refuses a path that names something other than a regular file before SQLite opens it:
/// reading a FIFO blocks forever, and a device or socket is no database.
enum FileTypeCheck {
    /// Throws when `path` exists and is not a regular file (symbolic links are followed).
    /// A missing path passes: opening it says so, or creates it.
    /// - Throws: ``DatabaseError`` (`.cannotOpen`) naming the path and what it is.
    static func refuseNonRegularFile(atPath path: String) throws {
        if let reason = PathKind.refusal(ofPath: path) {
            throw DatabaseError(resultCode: .cannotOpen, message: "\(path): \(reason)")
        }
    }
}
