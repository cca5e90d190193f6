/// One fetched row: its column names and values, copied out of the statement.
///
/// Read by index (fast, no lookup) or by name (first column with that name; exact match
/// first, then case-insensitive as SQLite does):
///
/// ```swift
/// if let row = try db.fetchOne(sql: "SELECT id, name FROM player WHERE id = ?", arguments: [1]) {
///     let id: Int64 = try row.decode(at: 0)
///     let name: String? = try row.decode(named: "name")
///     print(row["name"] ?? .null)  // the raw DatabaseValue, nil when no such column
/// }
/// ```
///
/// Decoding throws ``RowDecodingError`` for a missing column, an index out of range, or a
/// value that does not convert (such as `NULL` for a non-optional type); it never traps.
public struct Row: Hashable, Sendable, CustomStringConvertible {
    /// The column names, in order.
    public let columnNames: [String]

    /// The values, in column order.
    public let values: [DatabaseValue]

    /// The SQL that produced the row, for error messages. Not part of equality.
    public let sql: String?

    /// Creates a row from names and values of the same count (extra names or values are
    /// dropped).
    public init(columnNames: [String], values: [DatabaseValue], sql: String? = nil) {
        let count = min(columnNames.count, values.count)
        self.columnNames = columnNames.count == count ? columnNames : Array(columnNames[..<count])
        self.values = values.count == count ? values : Array(values[..<count])
        self.sql = sql
    }

    /// The number of columns.
    public var count: Int { values.count }

    /// The value at `index`, or nil when the index is out of range.
    public subscript(_ index: Int) -> DatabaseValue? {
        values.indices.contains(index) ? values[index] : nil
    }

    /// The value of the first column named `name`, or nil when there is none.
    public subscript(_ name: String) -> DatabaseValue? {
        index(ofColumn: name).map { values[$0] }
    }

    /// The index of the first column named `name` (exact match first, then
    /// case-insensitive), or nil.
    public func index(ofColumn name: String) -> Int? {
        if let index = columnNames.firstIndex(of: name) {
            return index
        }
        let lowered = name.lowercased()
        return columnNames.firstIndex { $0.lowercased() == lowered }
    }

    /// The value at `index` converted to `T`.
    ///
    /// ```swift
    /// let score: Double? = try row.decode(at: 2)   // nil for NULL
    /// let score = try row.decode(Double.self, at: 2)  // throws for NULL
    /// ```
    @inlinable
    public func decode<T: DatabaseValueConvertible>(_ type: T.Type = T.self, at index: Int)
        throws -> T
    {
        guard values.indices.contains(index) else {
            throw indexError(index)
        }
        let value = values[index]
        guard let converted = T.fromDatabaseValue(value) else {
            throw decodingError(value, type: String(describing: T.self), at: index)
        }
        return converted
    }

    /// The value of the first column named `name` converted to `T`.
    public func decode<T: DatabaseValueConvertible>(_ type: T.Type = T.self, named name: String)
        throws -> T
    {
        guard let index = index(ofColumn: name) else {
            throw RowDecodingError(reason: .columnNotFound, columnName: name, sql: sql)
        }
        return try decode(T.self, at: index)
    }

    /// `[id: 1, name: 'Ann']`. Reveals values: do not log rows holding private data.
    public var description: String {
        "[" + zip(columnNames, values).map { "\($0): \($1)" }.joined(separator: ", ") + "]"
    }

    /// Rows are equal when their names and values are equal (the SQL is ignored).
    public static func == (lhs: Row, rhs: Row) -> Bool {
        lhs.columnNames == rhs.columnNames && lhs.values == rhs.values
    }

    /// Hashes names and values.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(columnNames)
        hasher.combine(values)
    }

    /// The error for a value that does not convert (out of line, off the fast path).
    @usableFromInline
    func decodingError(_ value: DatabaseValue, type: String, at index: Int) -> RowDecodingError {
        RowDecodingError(
            reason: .incompatibleValue(storageClass: value.storageClass, type: type),
            columnIndex: index, columnName: columnNames[index], sql: sql)
    }

    /// The error for an index out of range.
    @usableFromInline
    func indexError(_ index: Int) -> RowDecodingError {
        RowDecodingError(
            reason: .indexOutOfRange(columnCount: values.count), columnIndex: index, sql: sql)
    }
}
