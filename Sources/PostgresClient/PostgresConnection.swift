import CLibPQ
import Foundation

/// One connection to a PostgreSQL server through libpq. Statements run with bound parameters
/// (`$1`, `$2`, …), each prepared once per connection and reused (parameter types inferred by
/// the server: cast where the statement does not tell, `$1::text`); values never enter the SQL
/// text. Not thread-safe: use a connection from one thread at a time.
///
/// ```swift
/// let connection = try PostgresConnection(url: PostgresURL(string: "postgresql:///shop"))
/// try connection.execute("CREATE TABLE IF NOT EXISTS t (id bigint PRIMARY KEY, name text)")
/// try connection.execute("INSERT INTO t VALUES ($1, $2)", [.integer(1), .text("Ada")])
/// let name = try connection.execute("SELECT name FROM t WHERE id = $1", [.integer(1)])
///     .rows.first?.string(0)
/// ```
public final class PostgresConnection {
    /// Where the connection goes (its password is never shown).
    public let url: PostgresURL
    /// libpq's connection (used by the extensions in this module; ``PostgresListener`` waits
    /// on its socket).
    let handle: OpaquePointer
    /// Called after each statement ``execute(_:_:)`` or ``run(_:)`` finishes, with its SQL,
    /// time and counts (a SQL log; `nil`: nothing is measured).
    public var statementObserver: ((PostgresStatementRecord) -> Void)?
    /// Prepared statement names by SQL text.
    private var preparedNames: [String: String] = [:]
    /// How many statements were ever prepared (each name is new: `og_1`, `og_2`, …).
    private var preparedCount = 0
    private var savepointDepth = 0

    /// The most statements kept prepared at once (all are dropped when more are needed).
    static let preparedLimit = 512

    /// Connects to `url`. The password is `password` when given, else the URL's, else what
    /// libpq finds itself (`PGPASSWORD`, the passfile).
    /// - Throws: ``PostgresError`` (``PostgresError/Kind/connection``) with libpq's message
    ///   and the redacted URL.
    public init(url: PostgresURL, password: String? = nil) throws(PostgresError) {
        self.url = url
        var pairs = url.connectionKeywords(password: password)
        if !pairs.contains(where: { $0.0 == "connect_timeout" }) {
            pairs.append(("connect_timeout", "10"))
        }
        pairs.append(("client_encoding", "UTF8"))
        let keys = pairs.map { strdup($0.0) }
        let values = pairs.map { strdup($0.1) }
        defer {
            for pointer in keys { free(pointer) }
            for pointer in values { free(pointer) }
        }
        let made = PQconnectdbParams(
            keys.map { UnsafePointer($0) } + [nil], values.map { UnsafePointer($0) } + [nil], 0)
        guard let made else {
            throw PostgresError(.connection, "\(url): libpq could not allocate a connection")
        }
        guard PQstatus(made) == CONNECTION_OK else {
            let message = Self.trimmed(PQerrorMessage(made))
            PQfinish(made)
            throw PostgresError(.connection, "\(url): \(message)")
        }
        // Notices (`NOTICE: schema "x" already exists, skipping`) are not printed.
        PQsetNoticeProcessor(made, { _, _ in }, nil)
        handle = made
    }

    deinit { PQfinish(handle) }

    /// Runs `sql` with `arguments` bound to `$1`, `$2`, … and returns what it gave. The
    /// statement is prepared on first use and reused.
    /// - Throws: ``PostgresError`` with the server's SQLSTATE, message and the SQL.
    @discardableResult
    public func execute(_ sql: String, _ arguments: [PostgresValue] = [])
        throws(PostgresError) -> PostgresResult
    {
        let started = statementObserver == nil ? 0 : DispatchTime.now().uptimeNanoseconds
        let result = try sent(sql, arguments)
        return try observed(sql, arguments, since: started) { () throws(PostgresError) in
            try take(result, sql: sql)
        }
    }

    /// Sends `sql` (prepared on first use) with `arguments` and returns libpq's result, not
    /// yet checked (see ``checked(_:sql:)``), its values in binary form when `binaryResults`.
    /// - Throws: ``PostgresError`` when an argument holds a NUL character or the statement
    ///   cannot be prepared.
    func sent(_ sql: String, _ arguments: [PostgresValue], binaryResults: Bool = false)
        throws(PostgresError) -> OpaquePointer?
    {
        try Self.check(arguments, sql: sql)
        let result = try executePrepared(sql, arguments, binaryResults: binaryResults)
        guard Self.isStalePlan(result), try replanned(sql, clearing: result) else { return result }
        return try executePrepared(sql, arguments, binaryResults: binaryResults)
    }

    /// Throws when an argument holds a NUL character (PostgreSQL text cannot store one).
    static func check(_ arguments: [PostgresValue], sql: String) throws(PostgresError) {
        for (index, argument) in arguments.enumerated() {
            if case .text(let text) = argument, Self.holdsNUL(text) {
                throw PostgresError(
                    .statement,
                    "parameter $\(index + 1) holds a NUL character, which"
                        + " PostgreSQL text cannot store", sql: sql)
            }
        }
    }

    /// After `result`, a refusal of the statement prepared for `sql` (see
    /// ``isStalePlan(_:)``): the statement's tables changed under it since it was prepared (a
    /// column's type, a table dropped and made again by a migration), and the server refuses
    /// the old plan's result type. The statement is forgotten; `true` (`result` cleared and the
    /// old statement deallocated) when it is to be prepared again and run once more, `false`
    /// inside a transaction (the error has aborted it; the next use prepares anew).
    func replanned(_ sql: String, clearing result: OpaquePointer?) throws(PostgresError) -> Bool {
        let name = preparedNames.removeValue(forKey: sql)
        guard !isInsideTransaction else { return false }
        PQclear(result)
        if let name { try run("DEALLOCATE " + PostgresIdentifier.quoted(name)) }
        return true
    }

    /// Whether `text` holds a NUL character (searched in its UTF-8 bytes at once, not byte by
    /// byte through the generic view: some arguments are kilobytes long and go with every run).
    private static func holdsNUL(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, 0, bytes.count) != nil
        } ?? text.utf8.contains(0)
    }

    /// Runs the statement prepared for `sql` (preparing it first when new).
    private func executePrepared(
        _ sql: String, _ arguments: [PostgresValue], binaryResults: Bool
    ) throws(PostgresError) -> OpaquePointer? {
        let name = try preparedName(for: sql)
        return Self.withParameters(arguments) { values, lengths, formats in
            PQexecPrepared(
                handle, name, Int32(arguments.count), values, lengths, formats,
                binaryResults ? 1 : 0)
        }
    }

    /// Whether `result` is the server's refusal of a prepared statement whose plan no longer
    /// gives the result type it was prepared with (SQLSTATE 0A000, "cached plan must not
    /// change result type").
    static func isStalePlan(_ result: OpaquePointer?) -> Bool {
        guard let result, PQresultStatus(result) == PGRES_FATAL_ERROR,
            let code = PQresultErrorField(result, Int32(UInt8(ascii: "C")))
        else { return false }
        return String(cString: code) == "0A000"
    }

    /// Runs `sql` as it is, without parameters (DDL, several statements separated by `;`).
    @discardableResult
    public func run(_ sql: String) throws(PostgresError) -> PostgresResult {
        let started = statementObserver == nil ? 0 : DispatchTime.now().uptimeNanoseconds
        let result = PQexec(handle, sql)
        return try observed(sql, [], since: started) { () throws(PostgresError) in
            try take(result, sql: sql)
        }
    }

    /// Whether a transaction is open on the connection.
    public var isInsideTransaction: Bool { PQtransactionStatus(handle) != PQTRANS_IDLE }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    /// Inside a transaction already, `body` runs in a savepoint instead.
    ///
    /// ```swift
    /// try connection.transaction {
    ///     try connection.execute("UPDATE accounts SET n = n - 1 WHERE id = $1", [.integer(1)])
    /// }
    /// ```
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try transaction(beginning: "BEGIN", body)
    }

    /// Runs `body` in a transaction begun with `isolation` (one `BEGIN ISOLATION LEVEL …`
    /// statement): committed when it returns, rolled back when it throws. Inside a transaction
    /// already, the server refuses to change the level (`SET TRANSACTION` after a query), and
    /// this throws its error.
    ///
    /// ```swift
    /// try connection.transaction(isolation: .repeatableRead) {
    ///     try connection.execute("DELETE FROM t WHERE id > $1", [.integer(10)])
    /// }
    /// ```
    public func transaction<T>(isolation: PostgresIsolation, _ body: () throws -> T) throws -> T {
        if isInsideTransaction {
            return try transaction {
                try run("SET TRANSACTION ISOLATION LEVEL " + isolation.sql)
                return try body()
            }
        }
        return try transaction(beginning: "BEGIN ISOLATION LEVEL " + isolation.sql, body)
    }

    /// ``transaction(_:)`` begun with `beginning` when not inside a transaction already.
    private func transaction<T>(beginning: String, _ body: () throws -> T) throws -> T {
        if isInsideTransaction {
            savepointDepth += 1
            defer { savepointDepth -= 1 }
            let name = PostgresIdentifier.quoted("og_savepoint_\(savepointDepth)")
            try run("SAVEPOINT \(name)")
            do {
                let value = try body()
                try run("RELEASE SAVEPOINT \(name)")
                return value
            } catch {
                _ = try? run("ROLLBACK TO SAVEPOINT \(name)")
                throw error
            }
        }
        try run(beginning)
        do {
            let value = try body()
            try run("COMMIT")
            return value
        } catch {
            if isInsideTransaction { _ = try? run("ROLLBACK") }
            throw error
        }
    }

    // MARK: - libpq

    /// The name `sql` is prepared under, preparing it first when new (every parameter's type
    /// inferred by the server from the statement).
    func preparedName(for sql: String) throws(PostgresError) -> String {
        if let known = preparedNames[sql] { return known }
        if preparedNames.count >= Self.preparedLimit {
            try run("DEALLOCATE ALL")
            preparedNames.removeAll()
        }
        preparedCount += 1
        let name = "og_\(preparedCount)"
        let result = PQprepare(handle, name, sql, 0, nil)
        _ = try take(result, sql: sql)
        preparedNames[sql] = name
        return name
    }

    /// Calls `body` with libpq's parameter arrays for `arguments` (copied, freed after).
    static func withParameters<Sent>(
        _ arguments: [PostgresValue],
        _ body: ([UnsafePointer<CChar>?], [Int32], [Int32]) -> Sent
    ) -> Sent {
        var buffers: [UnsafeMutablePointer<CChar>?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        for argument in arguments {
            guard let bytes = argument.wireBytes else {
                buffers.append(nil)
                lengths.append(0)
                formats.append(0)
                continue
            }
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (offset, byte) in bytes.enumerated() {
                buffer[offset] = CChar(bitPattern: byte)
            }
            buffer[bytes.count] = 0
            buffers.append(buffer)
            lengths.append(Int32(bytes.count))
            formats.append(argument.isBinary ? 1 : 0)
        }
        defer { for buffer in buffers { buffer?.deallocate() } }
        return body(buffers.map { UnsafePointer($0) }, lengths, formats)
    }

    /// `result` when the statement succeeded; otherwise the server's error is thrown (and
    /// `result` cleared). The caller clears a returned result.
    func checked(_ result: OpaquePointer?, sql: String) throws(PostgresError) -> OpaquePointer {
        guard let result, Self.succeeded(result) else { throw failure(result, sql: sql) }
        return result
    }

    /// Whether `result` is a statement's success: its command done, its rows (all, or one of
    /// a streamed result's) or an empty query.
    static func succeeded(_ result: OpaquePointer) -> Bool {
        let status = PQresultStatus(result)
        return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK
            || status == PGRES_SINGLE_TUPLE || status == PGRES_EMPTY_QUERY
    }

    /// The server's error in `result` (which is cleared), or libpq's message when there is no
    /// result, naming `sql`.
    func failure(_ result: OpaquePointer?, sql: String) -> PostgresError {
        guard let result else {
            return PostgresError(.statement, Self.trimmed(PQerrorMessage(handle)), sql: sql)
        }
        defer { PQclear(result) }
        let field = { (code: Character) -> String? in
            guard let ascii = code.asciiValue,
                let text = PQresultErrorField(result, Int32(ascii))
            else { return nil }
            return String(cString: text)
        }
        return PostgresError(
            .statement, field("M") ?? Self.trimmed(PQresultErrorMessage(result)),
            sqlState: field("C"), detail: field("D"), constraint: field("n"), sql: sql)
    }

    /// Reads `result` (and clears it), throwing the server's error.
    private func take(_ result: OpaquePointer?, sql: String) throws(PostgresError)
        -> PostgresResult
    {
        let result = try checked(result, sql: sql)
        defer { PQclear(result) }
        let columnCount = Int(PQnfields(result))
        let columns = (0..<columnCount).map { column in
            PQfname(result, Int32(column)).map { String(cString: $0) } ?? "?column?"
        }
        var rows: [PostgresRow] = []
        let rowCount = Int(PQntuples(result))
        rows.reserveCapacity(rowCount)
        for row in 0..<rowCount {
            var texts: [String?] = []
            texts.reserveCapacity(columnCount)
            for column in 0..<columnCount {
                if PQgetisnull(result, Int32(row), Int32(column)) != 0 {
                    texts.append(nil)
                } else {
                    texts.append(
                        PQgetvalue(result, Int32(row), Int32(column)).map { String(cString: $0) }
                    )
                }
            }
            rows.append(PostgresRow(columns: columns, texts: texts))
        }
        let affected = PQcmdTuples(result).map { Int(String(cString: $0)) ?? 0 } ?? 0
        return PostgresResult(columns: columns, rows: rows, affectedRows: affected)
    }

    private static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "unknown libpq error" }
        return String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
