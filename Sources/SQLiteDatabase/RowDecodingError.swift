import Foundation

/// A column could not be read as the requested Swift type.
///
/// It names the column, the reason and the SQL of the query. It never reveals the stored
/// value itself, only its storage class.
///
/// ```swift
/// do {
///     let age: Int = try row.decode(named: "age")
/// } catch let error as RowDecodingError {
///     print(error)  // cannot decode column "age" (index 1) as Int: found NULL ...
/// }
/// ```
public struct RowDecodingError: Error, Sendable, CustomStringConvertible {
    /// Why the column could not be read.
    public enum Reason: Sendable, Hashable {
        /// No column has the requested name.
        case columnNotFound
        /// The index is outside `0..<columnCount`.
        case indexOutOfRange(columnCount: Int)
        /// The stored value (of the given storage class) does not convert to the type.
        case incompatibleValue(storageClass: String, type: String)
        /// The cursor is not on a row (before the first `step()` or after the last).
        case noCurrentRow
    }

    /// The reason.
    public let reason: Reason

    /// The column index, when known.
    public let columnIndex: Int?

    /// The column name, when known.
    public let columnName: String?

    /// The SQL of the query that produced the row, when known.
    public let sql: String?

    /// Creates an error.
    public init(reason: Reason, columnIndex: Int? = nil, columnName: String? = nil, sql: String?) {
        self.reason = reason
        self.columnIndex = columnIndex
        self.columnName = columnName
        self.sql = sql
    }

    /// What went wrong, which column, and the SQL.
    public var description: String {
        var column: String
        switch (columnName, columnIndex) {
        case (let name?, let index?): column = "column \(quoteIdentifier(name)) (index \(index))"
        case (let name?, nil): column = "column \(quoteIdentifier(name))"
        case (nil, let index?): column = "column at index \(index)"
        case (nil, nil): column = "row"
        }
        var text: String
        switch reason {
        case .columnNotFound:
            text = "no \(column) in the row"
        case .indexOutOfRange(let count):
            text = "\(column) is out of range: the row has \(count) column(s)"
        case .incompatibleValue(let storageClass, let type):
            text = "cannot decode \(column) as \(type): found \(storageClass)"
        case .noCurrentRow:
            text = "cannot read \(column): the cursor is not on a row"
        }
        if let sql {
            text += " - in `\(sql)`"
        }
        return text
    }
}

extension RowDecodingError: LocalizedError {
    /// The ``description``, so that `localizedDescription` is informative.
    public var errorDescription: String? { description }
}
