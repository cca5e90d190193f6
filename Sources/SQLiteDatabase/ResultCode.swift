import CSQLite

/// An SQLite result code, primary (`SQLITE_BUSY`) or extended (`SQLITE_BUSY_SNAPSHOT`).
///
/// The low 8 bits of an extended code are its primary code. Matching with `~=` (in a `switch`
/// or a `catch`) compares primary codes when the pattern is a primary code, and whole codes
/// when the pattern is an extended code:
///
/// ```swift
/// switch error.extendedResultCode {
/// case .constraintUnique: print("duplicate")   // exact match
/// case .constraint: print("other constraint")   // any SQLITE_CONSTRAINT_*
/// default: throw error
/// }
///
/// do { try db.execute(sql: "INSERT ...") } catch ResultCode.busy { retryLater() }
/// ```
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric code, as returned by the sqlite3 C API.
    public let rawValue: Int32

    /// Creates a result code from its numeric value.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The primary code: the low 8 bits (`SQLITE_CONSTRAINT` for `SQLITE_CONSTRAINT_UNIQUE`).
    public var primaryResultCode: ResultCode {
        ResultCode(rawValue: rawValue & 0xFF)
    }

    /// Whether this is a primary code rather than an extended one.
    public var isPrimary: Bool {
        rawValue == rawValue & 0xFF
    }

    /// The C name of the code (`"SQLITE_CONSTRAINT_UNIQUE"`), or the primary name followed by
    /// the number when the extended code has no name here.
    public var name: String {
        if let name = Self.names[rawValue] {
            return name
        }
        if let primary = Self.names[rawValue & 0xFF] {
            return "\(primary)_\(rawValue)"
        }
        return "SQLITE_\(rawValue)"
    }

    /// The English explanation SQLite gives for the code (`"constraint failed"`).
    public var explanation: String {
        sqlite3_errstr(rawValue).map { String(cString: $0) } ?? name
    }

    /// The name and the number, e.g. `SQLITE_BUSY (5)`.
    public var description: String {
        "\(name) (\(rawValue))"
    }

    /// Matches a code against a pattern: by primary code when the pattern is primary,
    /// exactly otherwise.
    public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
        if pattern.isPrimary {
            return pattern == code.primaryResultCode
        }
        return pattern == code
    }

    /// Matches a thrown ``DatabaseError`` against a code, so that
    /// `catch ResultCode.constraint { ... }` works. Other errors never match.
    public static func ~= (pattern: ResultCode, error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return pattern ~= error.extendedResultCode
    }
}

extension ResultCode {
    /// `SQLITE_OK`: success.
    public static let ok = ResultCode(rawValue: SQLITE_OK)
    /// `SQLITE_ERROR`: a generic error (SQL error, missing table, function error...).
    public static let error = ResultCode(rawValue: SQLITE_ERROR)
    /// `SQLITE_INTERNAL`: an internal logic error in SQLite.
    public static let `internal` = ResultCode(rawValue: SQLITE_INTERNAL)
    /// `SQLITE_PERM`: access permission denied.
    public static let permission = ResultCode(rawValue: SQLITE_PERM)
    /// `SQLITE_ABORT`: the operation was aborted.
    public static let abort = ResultCode(rawValue: SQLITE_ABORT)
    /// `SQLITE_BUSY`: the database file is locked by another connection.
    public static let busy = ResultCode(rawValue: SQLITE_BUSY)
    /// `SQLITE_LOCKED`: a table is locked within the same connection or shared cache.
    public static let locked = ResultCode(rawValue: SQLITE_LOCKED)
    /// `SQLITE_NOMEM`: out of memory.
    public static let noMemory = ResultCode(rawValue: SQLITE_NOMEM)
    /// `SQLITE_READONLY`: attempt to write a read-only database.
    public static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
    /// `SQLITE_INTERRUPT`: interrupted by `sqlite3_interrupt`.
    public static let interrupt = ResultCode(rawValue: SQLITE_INTERRUPT)
    /// `SQLITE_IOERR`: a disk I/O error.
    public static let ioError = ResultCode(rawValue: SQLITE_IOERR)
    /// `SQLITE_CORRUPT`: the database file is malformed.
    public static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
    /// `SQLITE_NOTFOUND`: unknown opcode or file control.
    public static let notFound = ResultCode(rawValue: SQLITE_NOTFOUND)
    /// `SQLITE_FULL`: the disk is full.
    public static let full = ResultCode(rawValue: SQLITE_FULL)
    /// `SQLITE_CANTOPEN`: unable to open the database file.
    public static let cannotOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
    /// `SQLITE_PROTOCOL`: locking protocol error.
    public static let `protocol` = ResultCode(rawValue: SQLITE_PROTOCOL)
    /// `SQLITE_SCHEMA`: the schema changed.
    public static let schema = ResultCode(rawValue: SQLITE_SCHEMA)
    /// `SQLITE_TOOBIG`: a string or blob exceeds the size limit.
    public static let tooBig = ResultCode(rawValue: SQLITE_TOOBIG)
    /// `SQLITE_CONSTRAINT`: a constraint was violated.
    public static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
    /// `SQLITE_MISMATCH`: data type mismatch.
    public static let mismatch = ResultCode(rawValue: SQLITE_MISMATCH)
    /// `SQLITE_MISUSE`: the library was used incorrectly. This module also uses it for API
    /// misuse it detects itself, such as a wrong number of statement arguments.
    public static let misuse = ResultCode(rawValue: SQLITE_MISUSE)
    /// `SQLITE_AUTH`: authorization denied.
    public static let authorization = ResultCode(rawValue: SQLITE_AUTH)
    /// `SQLITE_RANGE`: a bind parameter index is out of range.
    public static let range = ResultCode(rawValue: SQLITE_RANGE)
    /// `SQLITE_NOTADB`: the file is not a database.
    public static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)
    /// `SQLITE_ROW`: `sqlite3_step` has a row ready.
    public static let row = ResultCode(rawValue: SQLITE_ROW)
    /// `SQLITE_DONE`: `sqlite3_step` has finished.
    public static let done = ResultCode(rawValue: SQLITE_DONE)

    // Extended codes are function-like macros in sqlite3.h and do not import into Swift: the
    // values below are (primary | (n << 8)) as defined there.

    /// `SQLITE_BUSY_SNAPSHOT`: a WAL read snapshot cannot be upgraded to a write.
    public static let busySnapshot = ResultCode(rawValue: 5 | (2 << 8))
    /// `SQLITE_READONLY_DBMOVED`: the database file was moved or deleted while open.
    public static let readOnlyDatabaseMoved = ResultCode(rawValue: 8 | (4 << 8))
    /// `SQLITE_CONSTRAINT_CHECK`: a `CHECK` constraint failed.
    public static let constraintCheck = ResultCode(rawValue: 19 | (1 << 8))
    /// `SQLITE_CONSTRAINT_FOREIGNKEY`: a foreign key constraint failed.
    public static let constraintForeignKey = ResultCode(rawValue: 19 | (3 << 8))
    /// `SQLITE_CONSTRAINT_NOTNULL`: a `NOT NULL` constraint failed.
    public static let constraintNotNull = ResultCode(rawValue: 19 | (5 << 8))
    /// `SQLITE_CONSTRAINT_PRIMARYKEY`: a `PRIMARY KEY` constraint failed.
    public static let constraintPrimaryKey = ResultCode(rawValue: 19 | (6 << 8))
    /// `SQLITE_CONSTRAINT_UNIQUE`: a `UNIQUE` constraint failed.
    public static let constraintUnique = ResultCode(rawValue: 19 | (8 << 8))

    private static let names: [Int32: String] = [
        0: "SQLITE_OK", 1: "SQLITE_ERROR", 2: "SQLITE_INTERNAL", 3: "SQLITE_PERM",
        4: "SQLITE_ABORT", 5: "SQLITE_BUSY", 6: "SQLITE_LOCKED", 7: "SQLITE_NOMEM",
        8: "SQLITE_READONLY", 9: "SQLITE_INTERRUPT", 10: "SQLITE_IOERR", 11: "SQLITE_CORRUPT",
        12: "SQLITE_NOTFOUND", 13: "SQLITE_FULL", 14: "SQLITE_CANTOPEN", 15: "SQLITE_PROTOCOL",
        16: "SQLITE_EMPTY", 17: "SQLITE_SCHEMA", 18: "SQLITE_TOOBIG", 19: "SQLITE_CONSTRAINT",
        20: "SQLITE_MISMATCH", 21: "SQLITE_MISUSE", 22: "SQLITE_NOLFS", 23: "SQLITE_AUTH",
        24: "SQLITE_FORMAT", 25: "SQLITE_RANGE", 26: "SQLITE_NOTADB", 27: "SQLITE_NOTICE",
        28: "SQLITE_WARNING", 100: "SQLITE_ROW", 101: "SQLITE_DONE",
        5 | (1 << 8): "SQLITE_BUSY_RECOVERY", 5 | (2 << 8): "SQLITE_BUSY_SNAPSHOT",
        5 | (3 << 8): "SQLITE_BUSY_TIMEOUT",
        8 | (1 << 8): "SQLITE_READONLY_RECOVERY", 8 | (2 << 8): "SQLITE_READONLY_CANTLOCK",
        8 | (3 << 8): "SQLITE_READONLY_ROLLBACK", 8 | (4 << 8): "SQLITE_READONLY_DBMOVED",
        14 | (1 << 8): "SQLITE_CANTOPEN_NOTEMPDIR", 14 | (2 << 8): "SQLITE_CANTOPEN_ISDIR",
        14 | (3 << 8): "SQLITE_CANTOPEN_FULLPATH",
        19 | (1 << 8): "SQLITE_CONSTRAINT_CHECK", 19 | (2 << 8): "SQLITE_CONSTRAINT_COMMITHOOK",
        19 | (3 << 8): "SQLITE_CONSTRAINT_FOREIGNKEY", 19 | (4 << 8): "SQLITE_CONSTRAINT_FUNCTION",
        19 | (5 << 8): "SQLITE_CONSTRAINT_NOTNULL", 19 | (6 << 8): "SQLITE_CONSTRAINT_PRIMARYKEY",
        19 | (7 << 8): "SQLITE_CONSTRAINT_TRIGGER", 19 | (8 << 8): "SQLITE_CONSTRAINT_UNIQUE",
        19 | (9 << 8): "SQLITE_CONSTRAINT_VTAB", 19 | (10 << 8): "SQLITE_CONSTRAINT_ROWID",
    ]
}
