import Foundation

/// One statement a ``PostgresConnection`` ran, as its ``PostgresConnection/statementObserver``
/// sees it: for a SQL log, or for counting the statements an operation takes.
///
/// ```swift
/// connection.statementObserver = { record in print(record.sql, record.duration) }
/// ```
public struct PostgresStatementRecord: Sendable {
    /// The statement's SQL text, with `$1`, `$2`, … where values are bound.
    public var sql: String
    /// The values bound to it, in parameter order (they may be private data).
    public var arguments: [PostgresValue]
    /// Seconds from sending the statement to reading its whole result.
    public var duration: Double
    /// The rows it returned (statements with result columns); `nil` otherwise or on failure.
    public var rowsReturned: Int?
    /// The rows it inserted, updated or deleted (statements without result columns); `nil`
    /// otherwise or on failure.
    public var rowsChanged: Int?
    /// The error, when the statement failed.
    public var error: PostgresError?

    /// Creates a record.
    public init(
        sql: String, arguments: [PostgresValue], duration: Double, rowsReturned: Int? = nil,
        rowsChanged: Int? = nil, error: PostgresError? = nil
    ) {
        self.sql = sql
        self.arguments = arguments
        self.duration = duration
        self.rowsReturned = rowsReturned
        self.rowsChanged = rowsChanged
        self.error = error
    }
}

extension PostgresConnection {
    /// Runs `take` (which reads a statement's result) and reports the statement to
    /// ``statementObserver``, when there is one, with the time since `started`.
    func observed(
        _ sql: String, _ arguments: [PostgresValue], since started: UInt64,
        _ take: () throws(PostgresError) -> PostgresResult
    ) throws(PostgresError) -> PostgresResult {
        guard let observer = statementObserver else { return try take() }
        let seconds = { Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9 }
        do {
            let result = try take()
            observer(
                PostgresStatementRecord(
                    sql: sql, arguments: arguments, duration: seconds(),
                    rowsReturned: result.columns.isEmpty ? nil : result.rows.count,
                    rowsChanged: result.columns.isEmpty ? result.affectedRows : nil))
            return result
        } catch {
            observer(
                PostgresStatementRecord(
                    sql: sql, arguments: arguments, duration: seconds(), error: error))
            throw error
        }
    }
}

extension PostgresConnection {
    /// Reports a statement to ``statementObserver``, when there is one, with the time since
    /// `started` and what it returned, changed or threw.
    func report(
        _ sql: String, _ arguments: [PostgresValue], since started: UInt64,
        rowsReturned: Int? = nil, rowsChanged: Int? = nil, error: PostgresError? = nil
    ) {
        guard let observer = statementObserver else { return }
        observer(
            PostgresStatementRecord(
                sql: sql, arguments: arguments,
                duration: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9,
                rowsReturned: rowsReturned, rowsChanged: rowsChanged, error: error))
    }
}
