import CLibPQ
import Foundation

extension PostgresConnection {
    /// Runs `sql` with `arguments` as ``execute(_:_:)`` does, and calls `read` with a cursor on
    /// the result's rows, read where libpq keeps them (no `String` per value), before the
    /// result is freed: for reading many rows at once. With `binary`, the server sends the
    /// values in binary form (no number printed and parsed again); the cursor reads them as
    /// it reads the text form (see ``PostgresCursor``).
    ///
    /// With `streaming`, the rows are read as they arrive, each freed when the cursor moves
    /// on (libpq's single-row mode), not received whole first: a result of many rows never
    /// sits whole in memory beside what `read` makes of it, at a small cost per row. The
    /// cursor's ``PostgresCursor/rowCount`` is then the rows received so far. When `read`
    /// returns early, the rows not read are received and dropped; a server error after some
    /// rows (`read` saw those) is thrown whatever `read` returned or threw. Either way the
    /// connection is ready for the next statement. The ``statementObserver`` hears of a
    /// streamed statement once its rows are read (its time includes `read`'s).
    ///
    /// ```swift
    /// let names = try connection.execute("SELECT name FROM t WHERE id > $1", [.integer(0)]) {
    ///     cursor in
    ///     var names: [String] = []
    ///     while cursor.next() { names.append(cursor.text(0) ?? "") }
    ///     return names
    /// }
    /// ```
    /// - Throws: ``PostgresError`` with the server's SQLSTATE, message and the SQL, or what
    ///   `read` throws.
    public func execute<T>(
        _ sql: String, _ arguments: [PostgresValue] = [], binary: Bool = false,
        streaming: Bool = false, reading read: (inout PostgresCursor) throws -> T
    ) throws -> T {
        if streaming { return try streamed(sql, arguments, binary: binary, reading: read) }
        let started = statementObserver == nil ? 0 : DispatchTime.now().uptimeNanoseconds
        let sent = try sent(sql, arguments, binaryResults: binary)
        let result: OpaquePointer
        do {
            result = try checked(sent, sql: sql)
        } catch {
            report(sql, arguments, since: started, error: error)
            throw error
        }
        defer { PQclear(result) }
        var cursor = PostgresCursor(result: result, binary: binary)
        if cursor.columnCount > 0 {
            report(sql, arguments, since: started, rowsReturned: cursor.rowCount)
        } else {
            let affected = PQcmdTuples(result).map { Int(String(cString: $0)) ?? 0 } ?? 0
            report(sql, arguments, since: started, rowsChanged: affected)
        }
        return try read(&cursor)
    }
}
