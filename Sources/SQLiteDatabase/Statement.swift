import CSQLite

/// A prepared SQL statement (`sqlite3_stmt`), made by ``Database/makeStatement(sql:)`` or
/// ``Database/cachedStatement(sql:)``, and finalized when released.
///
/// Bind arguments, then run it: ``execute(arguments:)`` for changes, ``fetchAll(arguments:)``,
/// ``fetchOne(arguments:)``, ``forEachRow(arguments:_:)`` or ``makeCursor(arguments:)`` for
/// rows. Passing `arguments` replaces every binding; passing nil (the default) keeps the
/// values bound with ``bind(_:at:)`` and ``bind(_:named:)``.
///
/// ```swift
/// let insert = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
/// for (name, score) in scores {
///     try insert.execute(arguments: [name, score])
/// }
///
/// let select = try db.makeStatement(sql: "SELECT name FROM player WHERE score > :min")
/// try select.bind(100, named: "min")
/// let names = try select.fetchAll().map { try $0.decode(String.self, at: 0) }
/// ```
///
/// A statement belongs to its database's isolation domain: it is not `Sendable`.
public final class Statement {
    /// The statement handle.
    let handle: OpaquePointer

    /// The connection that prepared the statement.
    let connection: Connection

    /// The SQL text of the statement.
    public let sql: String

    /// The number of result columns (0 for statements that return no rows).
    public let columnCount: Int

    /// The result column names, in order.
    public let columnNames: [String]

    /// The parameter names without prefix, by position (index 0 is parameter 1); nil for
    /// positional parameters (`?`, `?NNN`). Read once: binding runs for every execution.
    private let parameterKeys: [String?]

    /// The values bound so far, by position (index 0 is parameter 1), for error reports.
    private var boundValues: [DatabaseValue?]

    /// Incremented whenever the statement is reset, so that a cursor can tell that its run
    /// was interrupted.
    private(set) var generation = 0

    init(connection: Connection, handle: OpaquePointer, sql: String) {
        self.connection = connection
        self.handle = handle
        self.sql = sql
        let count = Int(sqlite3_column_count(handle))
        self.columnCount = count
        self.columnNames = (0..<count).map { index in
            sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
        }
        let parameterCount = Int(sqlite3_bind_parameter_count(handle))
        self.parameterKeys = (0..<parameterCount).map { index in
            guard let name = sqlite3_bind_parameter_name(handle, Int32(index + 1)) else {
                return nil
            }
            let text = String(cString: name)
            return text.first == "?" ? nil : StatementArguments.strippedName(text)
        }
        self.boundValues = Array(repeating: nil, count: parameterCount)
        // Only while a trace or SQL log is set: one test per statement prepared, none per run.
        connection.traceHub?.register(self)
    }

    deinit {
        connection.traceHub?.forget(handle)
        sqlite3_finalize(handle)
    }

    // MARK: - Properties

    /// The number of parameters (the largest parameter index).
    public var parameterCount: Int {
        parameterKeys.count
    }

    /// The parameter names by position (`":name"`, `"?2"`), nil for anonymous `?`.
    public var parameterNames: [String?] {
        (0..<parameterCount).map { index in
            sqlite3_bind_parameter_name(handle, Int32(index + 1)).map { String(cString: $0) }
        }
    }

    /// Whether the statement makes no direct change to the database file.
    public var isReadOnly: Bool {
        sqlite3_stmt_readonly(handle) != 0
    }

    /// Whether the statement is in the middle of a run (stepped, not finished, not reset).
    public var isBusy: Bool {
        sqlite3_stmt_busy(handle) != 0
    }

    /// The index of the first result column named `name` (exact match first, then
    /// case-insensitive), or nil.
    public func index(ofColumn name: String) -> Int? {
        if let index = columnNames.firstIndex(of: name) {
            return index
        }
        let lowered = name.lowercased()
        return columnNames.firstIndex { $0.lowercased() == lowered }
    }

    /// The arguments bound now, as positional and named values (for error reports).
    var boundArguments: StatementArguments? {
        var positional: [DatabaseValue] = []
        var named: [String: DatabaseValue] = [:]
        for (key, value) in zip(parameterKeys, boundValues) {
            guard let value else { continue }
            if let key {
                named[key] = value
            } else {
                positional.append(value)
            }
        }
        let arguments = StatementArguments(positional: positional, named: named)
        return arguments.isEmpty ? nil : arguments
    }

    /// The values bound now, by position (`NULL` for a parameter left unbound), for the SQL log.
    var boundValuesForLog: [DatabaseValue] {
        boundValues.map { $0 ?? .null }
    }

    // MARK: - Binding

    /// Binds `value` (nil is `NULL`) to the parameter at `index`, counted from 1 as in SQL.
    ///
    /// - Throws: ``DatabaseError`` with code `.range` when there is no such parameter.
    public func bind(_ value: (any DatabaseValueConvertible)?, at index: Int) throws {
        try prepareToBind()
        try bind(value?.databaseValue ?? .null, at: Int32(clamping: index))
    }

    /// Binds `value` (nil is `NULL`) to the parameter named `name`, written with or without
    /// its prefix: `"name"`, `":name"`, `"@name"` or `"$name"`.
    ///
    /// - Throws: ``DatabaseError`` with code `.range` when there is no such parameter.
    public func bind(_ value: (any DatabaseValueConvertible)?, named name: String) throws {
        try prepareToBind()
        let candidates =
            [name] + [":", "@", "$"].map { $0 + StatementArguments.strippedName(name) }
        for candidate in candidates {
            let index = sqlite3_bind_parameter_index(handle, candidate)
            if index > 0 {
                try bind(value?.databaseValue ?? .null, at: index)
                return
            }
        }
        throw DatabaseError(
            resultCode: .range, message: "no parameter named \(quoteIdentifier(name))", sql: sql)
    }

    /// Replaces every binding with `arguments`.
    ///
    /// Positional values go, in order, to the parameters without a name (`?`, `?NNN`); named
    /// values to the parameters with one (`:name`, `@name`, `$name`).
    ///
    /// - Throws: ``DatabaseError`` with code `.misuse` when the number of positional values
    ///   differs from the number of positional parameters, or a named parameter has no value.
    public func bind(_ arguments: StatementArguments) throws {
        let used = try bind(arguments, positionalOffset: 0)
        if used != arguments.positional.count {
            throw DatabaseError(
                resultCode: .misuse,
                message: "wrong number of statement arguments: expected \(used), "
                    + "got \(arguments.positional.count)",
                sql: sql, arguments: arguments)
        }
    }

    /// Binds `arguments`, taking positional values from `positionalOffset` on, and returns
    /// how many positional values the statement used. Extra positional values are left for
    /// the caller (the next statement of a multi-statement `execute`).
    func bind(_ arguments: StatementArguments, positionalOffset: Int) throws -> Int {
        // Every parameter is bound below (or the call throws), so there is no need to clear
        // the previous bindings first.
        resetForNewRun()
        var next = positionalOffset
        for (position, key) in parameterKeys.enumerated() {
            let value: DatabaseValue
            if let key {
                guard let named = arguments.named[key] else {
                    throw DatabaseError(
                        resultCode: .misuse,
                        message: "missing statement argument for parameter "
                            + (parameterNames[position] ?? key),
                        sql: sql, arguments: arguments)
                }
                value = named
            } else {
                guard next < arguments.positional.count else {
                    throw DatabaseError(
                        resultCode: .misuse,
                        message: "wrong number of statement arguments: not enough positional "
                            + "values (got \(arguments.positional.count))",
                        sql: sql, arguments: arguments)
                }
                value = arguments.positional[next]
                next += 1
            }
            try bind(value, at: Int32(position + 1))
        }
        return next - positionalOffset
    }

    /// Removes every binding (parameters become `NULL`).
    public func clearBindings() {
        sqlite3_clear_bindings(handle)
        for position in boundValues.indices {
            boundValues[position] = nil
        }
    }

    /// Resets the statement so that it runs again from the start; bindings are kept.
    public func reset() {
        resetForNewRun()
    }

    private func resetForNewRun() {
        sqlite3_reset(handle)
        generation &+= 1
    }

    /// Resets a statement in the middle of a run before binding (SQLite refuses bindings
    /// then), and checks that the connection is open.
    private func prepareToBind() throws {
        _ = try connection.openHandle(sql: sql)
        if isBusy {
            resetForNewRun()
        }
    }

    private func bind(_ value: DatabaseValue, at index: Int32) throws {
        let code = value.bind(to: handle, at: index)
        guard code == SQLITE_OK else {
            if code == SQLITE_RANGE {
                throw DatabaseError(
                    resultCode: .range,
                    message: "no parameter at index \(index) (the statement has "
                        + "\(parameterCount))",
                    sql: sql)
            }
            throw connection.error(code: code, sql: sql, arguments: boundArguments)
        }
        boundValues[Int(index) - 1] = value
    }

    // MARK: - Running

    /// Advances to the next row: true when a row is ready, false when the run is finished.
    /// Failures go through the connection's single choke point.
    func step() throws -> Bool {
        _ = try connection.openHandle(sql: sql)
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.statementDidFail(self, code: code)
        }
    }

    /// Starts a new run: rebinding `arguments` when given, otherwise resetting.
    private func startRun(_ arguments: StatementArguments?) throws {
        _ = try connection.openHandle(sql: sql)
        if let arguments {
            try bind(arguments)
        } else {
            resetForNewRun()
        }
    }

    /// Runs the statement to completion, ignoring any rows.
    ///
    /// ```swift
    /// try statement.execute(arguments: ["Ann", 10])
    /// ```
    public func execute(arguments: StatementArguments? = nil) throws {
        try startRun(arguments)
        try runToCompletion()
    }

    /// Steps until done, then resets so that locks are released.
    func runToCompletion() throws {
        while try step() {}
        sqlite3_reset(handle)
    }

    /// A cursor over the rows. Rows are read one at a time as you advance.
    ///
    /// ```swift
    /// let cursor = try statement.makeCursor(arguments: [30])
    /// while let row = try cursor.next() {
    ///     print(try row.decode(String.self, at: 0))
    /// }
    /// ```
    public func makeCursor(arguments: StatementArguments? = nil) throws -> RowCursor {
        try startRun(arguments)
        return RowCursor(statement: self)
    }

    /// Calls `body` with each row in turn, without keeping them all in memory.
    public func forEachRow(arguments: StatementArguments? = nil, _ body: (Row) throws -> Void)
        throws
    {
        let cursor = try makeCursor(arguments: arguments)
        while let row = try cursor.next() {
            try body(row)
        }
    }

    /// All rows.
    public func fetchAll(arguments: StatementArguments? = nil) throws -> [Row] {
        var rows: [Row] = []
        try forEachRow(arguments: arguments) { rows.append($0) }
        return rows
    }

    /// The first row, or nil when there is none.
    public func fetchOne(arguments: StatementArguments? = nil) throws -> Row? {
        let cursor = try makeCursor(arguments: arguments)
        let row = try cursor.next()
        cursor.finish()
        return row
    }

    /// The first column of the first row converted to `T`; nil when there is no row or the
    /// value is `NULL`.
    ///
    /// ```swift
    /// let count = try db.makeStatement(sql: "SELECT COUNT(*) FROM player")
    ///     .fetchValue(Int.self)
    /// ```
    public func fetchValue<T: DatabaseValueConvertible>(
        _ type: T.Type = T.self, arguments: StatementArguments? = nil
    ) throws -> T? {
        let cursor = try makeCursor(arguments: arguments)
        defer { cursor.finish() }
        guard try cursor.step() else { return nil }
        return try cursor.decode(T?.self, at: 0)
    }

    /// Reads column `index` of the current row. The caller checks that a row is current.
    func value(at index: Int) throws -> DatabaseValue {
        DatabaseValue(statement: handle, column: try column(index))
    }

    /// The storage class of column `index` in the current row. The caller checks that a row
    /// is current.
    func storageClass(at index: Int) throws -> StorageClass {
        switch sqlite3_column_type(handle, try column(index)) {
        case SQLITE_INTEGER: return .integer
        case SQLITE_FLOAT: return .real
        case SQLITE_TEXT: return .text
        case SQLITE_BLOB: return .blob
        default: return .null
        }
    }

    /// Column `index` of the current row as SQLite converts it to an integer.
    func int64(at index: Int) throws -> Int64 {
        sqlite3_column_int64(handle, try column(index))
    }

    /// Column `index` of the current row when it holds an `INTEGER`, else `nil`.
    func integer(at index: Int) throws -> Int64? {
        // One column lookup (see `DatabaseValue.init(statement:column:)`).
        let value = sqlite3_column_value(handle, try column(index))
        guard sqlite3_value_type(value) == SQLITE_INTEGER else { return nil }
        return sqlite3_value_int64(value)
    }

    /// Column `index` of the current row as SQLite converts it to a double.
    func double(at index: Int) throws -> Double {
        sqlite3_column_double(handle, try column(index))
    }

    /// Column `index` of the current row as SQLite converts it to UTF-8 text.
    func text(at index: Int) throws -> String {
        let column = try column(index)
        // Text first, then its length, as the SQLite documentation advises.
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// `index` as a C column index, or a thrown error when it is out of range.
    /// Inlined into every column read; the error is built out of line.
    @inline(__always)
    private func column(_ index: Int) throws -> Int32 {
        guard index >= 0, index < columnCount else { throw columnError(index) }
        return Int32(index)
    }

    @inline(never)
    private func columnError(_ index: Int) -> RowDecodingError {
        RowDecodingError(
            reason: .indexOutOfRange(columnCount: columnCount), columnIndex: index, sql: sql)
    }

    /// The current row, copied.
    func currentRow() -> Row {
        var values: [DatabaseValue] = []
        values.reserveCapacity(columnCount)
        for index in 0..<columnCount {
            values.append(DatabaseValue(statement: handle, column: Int32(index)))
        }
        return Row(columnNames: columnNames, values: values, sql: sql)
    }
}

@available(*, unavailable, message: "A statement belongs to its database's isolation domain")
extension Statement: Sendable {}
