import Foundation

/// One row's columns read as typed values: a ``PostgresRow`` (copied out of a result) or a
/// ``PostgresCursor`` (read in place). Both read PostgreSQL's text form alike, and a column
/// whose text is not of the type asked for throws ``PostgresError`` (``PostgresError/Kind/decoding``)
/// naming the column.
///
/// ```swift
/// func person(_ columns: some PostgresColumns) throws -> (Int64, String?) {
///     (try columns.int64(0), columns.text(1))
/// }
/// ```
public protocol PostgresColumns {
    /// Whether column `index` is NULL (or out of range).
    func isNull(_ index: Int) -> Bool
    /// The text of column `index`, `nil` for NULL.
    func text(_ index: Int) -> String?
    /// Column `index` as a 64-bit integer, `nil` for NULL.
    func int64OrNil(_ index: Int) throws(PostgresError) -> Int64?
    /// Column `index` as a 64-bit integer; NULL throws.
    func int64(_ index: Int) throws(PostgresError) -> Int64
    /// Column `index` as a double (`Infinity`, `-Infinity` and `NaN` included), `nil` for NULL.
    func double(_ index: Int) throws(PostgresError) -> Double?
    /// Column `index` as a boolean (`t`/`f`), `nil` for NULL.
    func bool(_ index: Int) throws(PostgresError) -> Bool?
    /// Column `index` as a UUID, `nil` for NULL.
    func uuid(_ index: Int) throws(PostgresError) -> UUID?
    /// Column `index` as a decimal (a `numeric`'s exact text), `nil` for NULL.
    func decimal(_ index: Int) throws(PostgresError) -> Decimal?
    /// Column `index` as bytes (a `bytea` in its `\x…` hex form), `nil` for NULL.
    func bytes(_ index: Int) throws(PostgresError) -> Data?
}
