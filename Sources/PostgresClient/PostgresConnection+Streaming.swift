import CLibPQ
import Foundation

/// Reading a result as its rows arrive (libpq's single-row mode): see
/// ``PostgresConnection/execute(_:_:binary:streaming:reading:)``.
extension PostgresConnection {
    /// ``execute(_:_:binary:streaming:reading:)`` with `streaming`: the statement is sent, and
    /// the cursor reads each row as it arrives, freed when the cursor moves on. When `read`
    /// returns or throws, the rows not read yet are received and dropped, so that the
    /// connection is ready for the next statement; a server error that ended the rows (after
    /// `read` saw the rows before it) is thrown, whatever `read` did. The statement is reported
    /// to the ``statementObserver`` after the rows are read, with their number.
    func streamed<T>(
        _ sql: String, _ arguments: [PostgresValue], binary: Bool,
        reading read: (inout PostgresCursor) throws -> T
    ) throws -> T {
        let started = statementObserver == nil ? 0 : DispatchTime.now().uptimeNanoseconds
        let first: OpaquePointer
        do {
            first = try firstStreamed(sql, arguments, binary: binary)
        } catch {
            report(sql, arguments, since: started, error: error)
            throw error
        }
        var cursor = PostgresCursor(result: first, binary: binary, stream: handle)
        let value = Result { try read(&cursor) }
        let end = cursor.finish()
        if let failed = end.failure {
            let error = failure(failed, sql: sql)
            report(sql, arguments, since: started, error: error)
            throw error
        }
        if cursor.columnCount > 0 {
            report(sql, arguments, since: started, rowsReturned: cursor.rowCount)
        } else {
            report(sql, arguments, since: started, rowsChanged: end.changed)
        }
        return try value.get()
    }

    /// Sends `sql` (prepared on first use, and again when its plan went stale) with
    /// `arguments`, its rows to come one at a time, and returns its first result: a row, the
    /// end of no rows, or a command's completion. A failure is thrown (the results after it
    /// dropped: the connection takes the next statement).
    private func firstStreamed(_ sql: String, _ arguments: [PostgresValue], binary: Bool)
        throws(PostgresError) -> OpaquePointer
    {
        try Self.check(arguments, sql: sql)
        var first = try sendStreaming(sql, arguments, binary: binary)
        if Self.isStalePlan(first) {
            discardResults()
            if try replanned(sql, clearing: first) {
                first = try sendStreaming(sql, arguments, binary: binary)
            }
        }
        guard let first, Self.succeeded(first) else {
            discardResults()
            throw failure(first, sql: sql)
        }
        return first
    }

    /// Sends the statement prepared for `sql` (preparing it first when new) without waiting,
    /// in single-row mode, and returns its first result (`nil` when libpq could not send it).
    private func sendStreaming(_ sql: String, _ arguments: [PostgresValue], binary: Bool)
        throws(PostgresError) -> OpaquePointer?
    {
        let name = try preparedName(for: sql)
        let sent = Self.withParameters(arguments) { values, lengths, formats in
            PQsendQueryPrepared(
                handle, name, Int32(arguments.count), values, lengths, formats, binary ? 1 : 0)
        }
        guard sent == 1 else { return nil }
        // Refused only when the statement could not be sent: its whole result then comes as
        // one, which the cursor reads all the same.
        _ = PQsetSingleRowMode(handle)
        return PQgetResult(handle)
    }

    /// Receives and drops the results still coming for the statement sent last.
    private func discardResults() {
        while let result = PQgetResult(handle) { PQclear(result) }
    }
}
