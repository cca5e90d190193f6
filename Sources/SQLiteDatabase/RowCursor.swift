import CSQLite

/// Iterates the rows of a statement one at a time, never holding them all in memory.
///
/// Two ways to advance:
/// - ``next()`` copies the row into a ``Row`` value and returns it (nil at the end);
/// - ``step()`` only advances (false at the end); read the current row's columns in place
///   with ``value(at:)`` and ``decode(_:at:)`` — the fast path, with no `Row` and no name
///   lookup.
///
/// ```swift
/// let cursor = try db.makeCursor(sql: "SELECT id, name FROM player ORDER BY id")
/// while try cursor.step() {
///     let id: Int64 = try cursor.decode(at: 0)
///     let name: String? = try cursor.decode(at: 1)
///     print(id, name ?? "-")
/// }
/// ```
///
/// The cursor is valid until its statement runs again (re-bound, reset, or executed): after
/// that, advancing throws. A cursor released before the end resets its statement, which
/// releases SQLite's read lock.
public final class RowCursor {
    /// The statement being run.
    public let statement: Statement

    private enum State {
        case beforeFirstRow
        case onRow
        case finished
    }

    private var state = State.beforeFirstRow

    /// The statement's run this cursor belongs to.
    private let generation: Int

    init(statement: Statement) {
        self.statement = statement
        self.generation = statement.generation
    }

    deinit {
        finish()
    }

    /// The result column names.
    public var columnNames: [String] { statement.columnNames }

    /// The number of result columns.
    public var columnCount: Int { statement.columnCount }

    /// Advances to the next row and returns whether there is one. Read it with
    /// ``value(at:)`` or ``decode(_:at:)``.
    public func step() throws -> Bool {
        switch state {
        case .finished:
            return false
        case .beforeFirstRow, .onRow:
            guard statement.generation == generation else {
                state = .finished
                throw DatabaseError.misuse(
                    "the cursor's statement was reset or run again", sql: statement.sql)
            }
            do {
                if try statement.step() {
                    state = .onRow
                    return true
                }
            } catch {
                state = .finished
                throw error
            }
            finish()
            return false
        }
    }

    /// Advances and returns the next row as a ``Row``, or nil after the last.
    public func next() throws -> Row? {
        guard try step() else { return nil }
        return statement.currentRow()
    }

    /// The current row, copied as a ``Row``.
    public func currentRow() throws -> Row {
        try checkOnRow(columnIndex: nil)
        return statement.currentRow()
    }

    /// The value of column `index` in the current row.
    public func value(at index: Int) throws -> DatabaseValue {
        try checkOnRow(columnIndex: index)
        return try statement.value(at: index)
    }

    /// The storage class of column `index` in the current row, without reading its value.
    ///
    /// With ``int64(at:)``, ``double(at:)`` and ``text(at:)`` it reads a column in place,
    /// without building a ``DatabaseValue``:
    ///
    /// ```swift
    /// switch try cursor.storageClass(at: 2) {
    /// case .integer: total += try cursor.int64(at: 2)
    /// case .null: break
    /// default: total += Int64(try cursor.decode(Double.self, at: 2))
    /// }
    /// ```
    public func storageClass(at index: Int) throws -> StorageClass {
        try checkOnRow(columnIndex: index)
        return try statement.storageClass(at: index)
    }

    /// Column `index` of the current row as a 64-bit integer: the value itself for an
    /// `INTEGER`; other storage classes are converted as SQLite's `sqlite3_column_int64` does
    /// (`NULL` is 0), so check ``storageClass(at:)`` first when that matters.
    public func int64(at index: Int) throws -> Int64 {
        try checkOnRow(columnIndex: index)
        return try statement.int64(at: index)
    }

    /// Column `index` of the current row when it holds an `INTEGER`; `nil` for any other
    /// storage class (`NULL` included). One call for ``storageClass(at:)`` and ``int64(at:)``:
    ///
    /// ```swift
    /// if let key = try cursor.integer(at: 0) { keys.append(key) }
    /// ```
    public func integer(at index: Int) throws -> Int64? {
        try checkOnRow(columnIndex: index)
        return try statement.integer(at: index)
    }

    /// Column `index` of the current row as a double: the value itself for a `REAL`; other
    /// storage classes are converted as SQLite's `sqlite3_column_double` does (`NULL` is 0).
    public func double(at index: Int) throws -> Double {
        try checkOnRow(columnIndex: index)
        return try statement.double(at: index)
    }

    /// Column `index` of the current row as text: the value itself for a `TEXT`; other
    /// storage classes are converted as SQLite's `sqlite3_column_text` does (`NULL` is "").
    public func text(at index: Int) throws -> String {
        try checkOnRow(columnIndex: index)
        return try statement.text(at: index)
    }

    /// The value of column `index` in the current row, converted to `T`.
    @inlinable
    public func decode<T: DatabaseValueConvertible>(_ type: T.Type = T.self, at index: Int)
        throws -> T
    {
        let value = try value(at: index)
        guard let converted = T.fromDatabaseValue(value) else {
            throw decodingError(value, type: String(describing: T.self), at: index)
        }
        return converted
    }

    /// The error for a value that does not convert (kept out of line: the fast path above
    /// never builds names or messages).
    @usableFromInline
    func decodingError(_ value: DatabaseValue, type: String, at index: Int) -> RowDecodingError {
        RowDecodingError(
            reason: .incompatibleValue(storageClass: value.storageClass, type: type),
            columnIndex: index, columnName: statement.columnNames[index], sql: statement.sql)
    }

    /// The value of the first column named `name` in the current row, converted to `T`.
    /// Prefer ``decode(_:at:)`` in loops: it skips the name lookup.
    public func decode<T: DatabaseValueConvertible>(_ type: T.Type = T.self, named name: String)
        throws -> T
    {
        guard let index = statement.index(ofColumn: name) else {
            throw RowDecodingError(reason: .columnNotFound, columnName: name, sql: statement.sql)
        }
        return try decode(T.self, at: index)
    }

    /// Stops the run: resets the statement (unless it has moved on to another run) so that
    /// its locks are released. Further calls to ``step()`` return false.
    func finish() {
        if state != .finished, statement.generation == generation {
            sqlite3_reset(statement.handle)
        }
        state = .finished
    }

    /// Throws unless a row is current. Inlined into every column read; the error is built
    /// out of line.
    @inline(__always)
    private func checkOnRow(columnIndex: Int?) throws {
        guard state == .onRow, statement.generation == generation else {
            throw noCurrentRowError(columnIndex: columnIndex)
        }
    }

    @inline(never)
    private func noCurrentRowError(columnIndex: Int?) -> RowDecodingError {
        RowDecodingError(reason: .noCurrentRow, columnIndex: columnIndex, sql: statement.sql)
    }
}

@available(*, unavailable, message: "A cursor belongs to its database's isolation domain")
extension RowCursor: Sendable {}

/// The storage class of a value in a row (SQLite's five), as ``RowCursor/storageClass(at:)``
/// reports it.
public enum StorageClass: Sendable, Hashable {
    /// `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer
    /// A double-precision float.
    case real
    /// UTF-8 text.
    case text
    /// Bytes.
    case blob
}
