/// What a statement returned: its rows (values in PostgreSQL's text form), column names and the
/// number of rows it changed.
///
/// ```swift
/// let result = try connection.execute("SELECT id, name FROM people WHERE id = $1", [.integer(7)])
/// for row in result.rows { print(try row.int64(0), try row.string(1) ?? "") }
/// ```
public struct PostgresResult: Sendable {
    /// The column names, in order.
    public let columns: [String]
    /// The rows.
    public let rows: [PostgresRow]
    /// The rows an INSERT, UPDATE or DELETE changed (0 for other statements).
    public let affectedRows: Int

    /// Creates a result.
    public init(columns: [String], rows: [PostgresRow], affectedRows: Int) {
        self.columns = columns
        self.rows = rows
        self.affectedRows = affectedRows
    }
}
