import Foundation

/// Refuses a path that names something other than a regular file before SQLite opens it:
/// reading a FIFO blocks forever, and a device or socket is no database.
enum FileTypeCheck {
    /// Throws when `path` exists and is not a regular file (symbolic links are followed).
    /// A missing path passes: opening it says so, or creates it.
    /// - Throws: ``DatabaseError`` (`.cannotOpen`) naming the path and what it is.
    static func refuseNonRegularFile(atPath path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        let kind: String
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: kind = "a folder"
        case S_IFIFO: kind = "a FIFO (named pipe)"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFSOCK: kind = "a socket"
        default: kind = "not a file"
        }
        throw DatabaseError(
            resultCode: .cannotOpen, message: "\(path) is \(kind), not a regular file")
    }
}
