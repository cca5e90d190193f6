import Foundation

/// One row of a ``PostgresResult``: each column's value in PostgreSQL's text form (`nil`: NULL),
/// read with typed accessors that throw, naming the column, when the text is not of that type.
///
/// ```swift
/// let id = try row.int64(0)           // NULL throws; use `int64OrNil` to allow it
/// let name = try row.string(1)        // String? (NULL → nil)
/// let photo = try row.bytes(2)        // Data? from bytea's \x… form
/// ```
public struct PostgresRow: PostgresColumns, Sendable {
    /// The column names (shared by every row of a result).
    public let columns: [String]
    /// Each column's text, `nil` for NULL.
    public let texts: [String?]

    /// Creates a row.
    public init(columns: [String], texts: [String?]) {
        self.columns = columns
        self.texts = texts
    }

    /// Whether column `index` is NULL (or out of range).
    public func isNull(_ index: Int) -> Bool { text(index) == nil }

    /// The text of column `index`, `nil` for NULL.
    public func text(_ index: Int) -> String? {
        index >= 0 && index < texts.count ? texts[index] : nil
    }

    /// Column `index` as text.
    public func string(_ index: Int) -> String? { text(index) }

    /// Column `index` as a 64-bit integer, `nil` for NULL.
    public func int64OrNil(_ index: Int) throws(PostgresError) -> Int64? {
        try read(index, as: "an integer", PostgresTextForm.int64)
    }

    /// Column `index` as a 64-bit integer; NULL throws.
    public func int64(_ index: Int) throws(PostgresError) -> Int64 {
        guard let value = try int64OrNil(index) else {
            throw PostgresError(.decoding, "column \(name(index)) is NULL")
        }
        return value
    }

    /// Column `index` as a double (`Infinity`, `-Infinity` and `NaN` included), `nil` for NULL.
    public func double(_ index: Int) throws(PostgresError) -> Double? {
        try read(index, as: "a double", PostgresTextForm.double)
    }

    /// Column `index` as a boolean (`t`/`f`), `nil` for NULL.
    public func bool(_ index: Int) throws(PostgresError) -> Bool? {
        try read(index, as: "a boolean", PostgresTextForm.bool)
    }

    /// Column `index` as a UUID, `nil` for NULL.
    public func uuid(_ index: Int) throws(PostgresError) -> UUID? {
        try read(index, as: "a UUID", PostgresTextForm.uuid)
    }

    /// Column `index` as a decimal (a `numeric`'s exact text), `nil` for NULL.
    public func decimal(_ index: Int) throws(PostgresError) -> Decimal? {
        try read(index, as: "a decimal", PostgresTextForm.decimal)
    }

    /// Column `index` as bytes (a `bytea` in its `\x…` hex form), `nil` for NULL.
    public func bytes(_ index: Int) throws(PostgresError) -> Data? {
        try read(index, as: "bytes (\\x…)", PostgresTextForm.hexBytes)
    }

    private func read<T>(
        _ index: Int, as what: String, _ parse: (UnsafeBufferPointer<UInt8>) -> T?
    ) throws(PostgresError) -> T? {
        guard var text = text(index) else { return nil }
        guard let value = text.withUTF8(parse) else {
            throw PostgresTextForm.mismatch(text, column: name(index), what: what)
        }
        return value
    }

    private func name(_ index: Int) -> String {
        index >= 0 && index < columns.count ? "\(columns[index]) (\(index))" : "\(index)"
    }
}
