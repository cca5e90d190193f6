/// Why a PostgreSQL operation failed: what was being done, the server's SQLSTATE and message
/// when it answered, and the SQL (never the bound values, never a password).
///
/// ```swift
/// do { try connection.execute("INSERT INTO t (id) VALUES ($1)", [.integer(1)]) }
/// catch let error as PostgresError where error.sqlState == "23505" { print(error.constraint ?? "") }
/// ```
public struct PostgresError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of operation failed.
    public enum Kind: String, Sendable, Hashable {
        /// A connection URL could not be read.
        case invalidURL = "invalid URL"
        /// The server could not be reached or refused the connection.
        case connection = "cannot connect"
        /// The server refused a statement.
        case statement = "statement failed"
        /// A column's text could not be read as the type asked for.
        case decoding = "cannot read a value"
    }

    /// What kind of operation failed.
    public var kind: Kind
    /// The five-character SQLSTATE code the server gave (`23505` for a unique violation), when
    /// it gave one.
    public var sqlState: String?
    /// The message (the server's primary message, or libpq's).
    public var message: String
    /// The server's detail line, when it gave one (it may quote values of the failing row).
    public var detail: String?
    /// The constraint the statement broke, when the server names one.
    public var constraint: String?
    /// The SQL of the statement, when a statement failed.
    public var sql: String?

    /// Creates an error.
    public init(
        _ kind: Kind, _ message: String, sqlState: String? = nil, detail: String? = nil,
        constraint: String? = nil, sql: String? = nil
    ) {
        self.kind = kind
        self.message = message
        self.sqlState = sqlState
        self.detail = detail
        self.constraint = constraint
        self.sql = sql
    }

    /// Whether the server refused a row for a unique index or constraint (SQLSTATE 23505).
    public var isUniqueViolation: Bool { sqlState == "23505" }

    /// `statement failed: SQLSTATE 42P01: relation "x" does not exist (SQL: SELECT …)`.
    public var description: String {
        var text = kind.rawValue + ": "
        if let sqlState { text += "SQLSTATE \(sqlState): " }
        text += message
        if let sql { text += " (SQL: \(sql))" }
        return text
    }
}
