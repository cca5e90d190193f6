import CSQLite
import Foundation

/// Reads the bytes of a database file through SQLite's own file layer, on a connection opened
/// `immutable` (no lock taken, no file created).
///
/// Going through SQLite matters: closing any descriptor of a file drops every POSIX lock this
/// process holds on it, so reading the file with a descriptor of our own would silently unlock
/// other connections of this process to the same database. SQLite's file layer keeps such a
/// descriptor open until those connections are done with the file.
final class ImmutableFileReader {
    private let handle: OpaquePointer
    private let file: UnsafeMutablePointer<sqlite3_file>
    private let methods: sqlite3_io_methods

    /// Opens the file at `path` (which must exist and be a regular file).
    /// - Throws: ``DatabaseError`` naming the path when SQLite cannot open it.
    init(path: String) throws {
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(
            UntouchedOpening.uri(path, query: "mode=ro&immutable=1"), &opened,
            SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            sqlite3_close_v2(opened)
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code),
                message: "cannot read \(path): \(message ?? "cannot open the file")")
        }
        var pointer: UnsafeMutablePointer<sqlite3_file>?
        guard
            sqlite3_file_control(opened, "main", SQLITE_FCNTL_FILE_POINTER, &pointer) == SQLITE_OK,
            let pointer, let methods = pointer.pointee.pMethods?.pointee
        else {
            sqlite3_close_v2(opened)
            throw DatabaseError(
                resultCode: .cannotOpen, message: "cannot read \(path): SQLite gave no file")
        }
        handle = opened
        file = pointer
        self.methods = methods
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// The file's size in bytes.
    func size() throws -> Int64 {
        var size: sqlite3_int64 = 0
        let code = methods.xFileSize?(file, &size) ?? SQLITE_IOERR
        guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
        return size
    }

    /// Up to `count` bytes from `offset`; fewer at the end of the file.
    func read(count: Int, at offset: Int64) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let code =
            bytes.withUnsafeMutableBytes {
                methods.xRead?(file, $0.baseAddress, Int32(count), offset)
            } ?? SQLITE_IOERR
        if code == SQLITE_IOERR | (2 << 8) {  // SQLITE_IOERR_SHORT_READ
            // SQLite zero-fills a short read; keep only the bytes the file has.
            let available = max(0, min(Int64(count), (try size()) - offset))
            return Array(bytes.prefix(Int(available)))
        }
        guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
        return bytes
    }
}
