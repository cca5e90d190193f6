import Foundation

/// An error reported by SQLite, or by this module for a misuse it detects (code `.misuse`).
///
/// It carries the primary and extended result codes, SQLite's message, and the SQL that
/// failed. The statement arguments are kept too, but they may hold private data (a password,
/// an e-mail address), so ``description`` leaves them out: ask ``expandedDescription`` for
/// them explicitly.
///
/// ```swift
/// do {
///     try db.execute(sql: "INSERT INTO user (email) VALUES (?)", arguments: [email])
/// } catch let error as DatabaseError where error.extendedResultCode == .constraintUnique {
///     print(error)  // SQLITE_CONSTRAINT_UNIQUE (2067): UNIQUE constraint failed: user.email
///                   //  - while executing `INSERT INTO user (email) VALUES (?)`
/// }
/// ```
public struct DatabaseError: Error, Sendable, CustomStringConvertible {
    /// The extended result code (equal to the primary one when SQLite gave no detail).
    public let extendedResultCode: ResultCode

    /// The message: SQLite's own (`sqlite3_errmsg`) or this module's.
    public let message: String

    /// The SQL that failed, when the error comes from a statement.
    public let sql: String?

    /// The arguments bound to the statement when it failed. Not part of ``description``.
    public let arguments: StatementArguments?

    /// The primary result code (`.constraint` for `SQLITE_CONSTRAINT_UNIQUE`).
    public var resultCode: ResultCode {
        extendedResultCode.primaryResultCode
    }

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - resultCode: the primary or extended result code.
    ///   - message: what went wrong; defaults to SQLite's explanation of the code.
    ///   - sql: the SQL being prepared or run, if any.
    ///   - arguments: the arguments bound to it, if any.
    public init(
        resultCode: ResultCode, message: String? = nil, sql: String? = nil,
        arguments: StatementArguments? = nil
    ) {
        self.extendedResultCode = resultCode
        self.message = message ?? resultCode.explanation
        self.sql = sql
        self.arguments = arguments
    }

    /// The code, the message and the SQL; never the arguments.
    public var description: String {
        var text = "\(extendedResultCode): \(message)"
        if let sql {
            text += " - while executing `\(sql)`"
        }
        return text
    }

    /// ``description`` followed by the statement arguments, for debugging. It may reveal
    /// private data: do not log it in production.
    public var expandedDescription: String {
        guard let arguments, !arguments.isEmpty else { return description }
        return description + " with arguments \(arguments)"
    }
}

extension DatabaseError {
    /// An error for an API misuse detected by this module (`SQLITE_MISUSE`).
    static func misuse(_ message: String, sql: String? = nil) -> DatabaseError {
        DatabaseError(resultCode: .misuse, message: message, sql: sql)
    }

    /// The error thrown when a closed database is used.
    static func closed(sql: String? = nil) -> DatabaseError {
        misuse("the database connection is closed", sql: sql)
    }
}

extension DatabaseError: LocalizedError {
    /// The ``description``, so that `localizedDescription` is informative (without the
    /// arguments).
    public var errorDescription: String? { description }
}
