import CSQLite
import Foundation

/// How a database opened ``Database/OpenMode/readOnlyUntouched`` is read without changing
/// anything in its folder. SQLite creates `-wal` and `-shm` files to read a database in WAL
/// mode, and the first connection rewrites an existing `-shm`; this picks, from the files
/// beside the database, a way that does neither and still reads every committed row:
///
/// | files beside the database                  | read how                                   |
/// |--------------------------------------------|--------------------------------------------|
/// | no `-wal`, rollback-journal mode           | in place, `mode=ro` (SQLite's locks)       |
/// | no `-wal` (or an empty one, no `-shm`), WAL | in place, `immutable=1`: nothing to replay |
/// | `-wal` and `-shm`                          | in place, `readonly_shm=1`: the `-shm` is  |
/// |                                            | only read; the `-wal` is read through it   |
/// |                                            | or, when it is stale, on its own           |
/// | `-wal` with rows, no `-shm`                | a private copy (SQLite needs a `-shm`)     |
/// | a hot `-journal` (in-place read refused)   | a private copy, rolled back there          |
///
/// A file read `immutable` is assumed not to change while it is open: a process that starts
/// writing it meanwhile is not seen, and its checkpoints may be read half done.
enum UntouchedOpening {
    /// Where a connection reads.
    enum Route: Equatable {
        /// The file in place, through this URI.
        case inPlace(uri: String)
        /// A private copy of the file (and its `-wal` or `-journal`), for this reason.
        case privateCopy(reason: String)
    }

    /// Opens `path` as the table above says; the private copy, if one was made, is returned
    /// for the database to remove on close.
    /// - Throws: ``DatabaseError`` naming the path and why it cannot be read.
    static func open(path: String) throws -> (Connection, PrivateCopy?) {
        var reason: String
        switch try route(for: path) {
        case .inPlace(let uri):
            let connection = try Database.openConnection(
                uri, flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, path: path)
            guard let failure = probe(connection) else { return (connection, nil) }
            _ = connection.close()
            guard failure.resultCode == .readOnly || failure.resultCode == .cannotOpen else {
                throw DatabaseError(
                    resultCode: failure.extendedResultCode, message: "\(failure.message): \(path)")
            }
            reason = "SQLite cannot read it in place without writing: \(failure.message)"
        case .privateCopy(let why):
            reason = why
        }
        let copy: PrivateCopy
        do {
            copy = try PrivateCopy(of: path)
        } catch let error as DatabaseError {
            throw DatabaseError(
                resultCode: error.extendedResultCode,
                message: "\(path) cannot be read without changing its folder (\(reason)), and "
                    + error.message)
        }
        do {
            // Read-write, so that SQLite replays the -wal or rolls back the journal in the
            // copy; then every write is refused as on a read-only connection.
            let connection = try Database.openConnection(
                copy.databasePath, flags: SQLITE_OPEN_READWRITE, path: path)
            if let failure = probe(connection, then: "PRAGMA query_only = ON") {
                _ = connection.close()
                throw failure
            }
            return (connection, copy)
        } catch let error as DatabaseError {
            copy.remove()
            throw DatabaseError(
                resultCode: error.extendedResultCode,
                message: "\(path) cannot be read without changing its folder (\(reason)), nor "
                    + "from a private copy: \(error.message)")
        }
    }

    /// The route for the database at `path`, from the files beside it.
    static func route(for path: String) throws -> Route {
        for suffix in ["-wal", "-shm", "-journal"] {
            try FileTypeCheck.refuseNonRegularFile(atPath: path + suffix)
        }
        let walSize = size(ofFileAt: path + "-wal")
        let shmExists = size(ofFileAt: path + "-shm") != nil
        guard let walSize else {
            let isWAL = (try? isInWALMode(path)) ?? false
            return .inPlace(uri: uri(path, query: isWAL ? "mode=ro&immutable=1" : "mode=ro"))
        }
        if shmExists {
            return .inPlace(uri: uri(path, query: "mode=ro&readonly_shm=1"))
        }
        if walSize == 0 {
            return .inPlace(uri: uri(path, query: "mode=ro&immutable=1"))
        }
        return .privateCopy(
            reason: "its -wal holds \(walSize) bytes and it has no -shm, which SQLite would "
                + "create to read them")
    }

    /// Whether the database header says WAL mode (read version 2, byte 19), as SQLite reads it
    /// to decide to open the `-wal`.
    static func isInWALMode(_ path: String) throws -> Bool {
        let header = try ImmutableFileReader(path: path).read(count: 100, at: 0)
        return header.count == 100 && header.starts(with: Array("SQLite format 3\0".utf8))
            && header[19] == 2
    }

    /// The size of the file at `path`, or nil when there is none.
    static func size(ofFileAt path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    /// A `file:` URI for `path` with `query`: the absolute path, every byte outside
    /// `A-Z a-z 0-9 - . _ ~ /` percent-encoded.
    static func uri(_ path: String, query: String) -> String {
        let absolute =
            path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var encoded = ""
        for byte in absolute.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                encoded.append(Character(Unicode.Scalar(byte)))
            default:
                encoded += String(format: "%%%02X", byte)
            }
        }
        return "file://" + encoded + "?" + query
    }

    /// Reads the schema, which makes SQLite open the journal or `-wal`; runs `then` after it.
    /// Returns the failure, if any.
    private static func probe(_ connection: Connection, then followUp: String? = nil)
        -> DatabaseError?
    {
        guard let handle = connection.handle else { return DatabaseError.closed() }
        for sql in ["SELECT count(*) FROM sqlite_schema", followUp].compactMap({ $0 }) {
            let code = sqlite3_exec(handle, sql, nil, nil, nil)
            if code != SQLITE_OK { return connection.error(code: code, sql: sql) }
        }
        return nil
    }
}
