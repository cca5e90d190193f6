import Foundation

/// One row of a ``PostgresResult``: each column's value in PostgreSQL's text form (`nil`: NULL),
/// read with typed accessors that throw, naming the column, when the text is not of that type.
///
/// ```swift
/// let id = try row.int64(0)           // NULL throws; use `int64OrNil` to allow it
/// let name = try row.string(1)        // String? (NULL → nil)
/// let photo = try row.bytes(2)        // Data? from bytea's \x… form
/// ```
public struct PostgresRow: Sendable {
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
        try read(index, as: "an integer") { Int64($0) }
    }

    /// Column `index` as a 64-bit integer; NULL throws.
    public func int64(_ index: Int) throws(PostgresError) -> Int64 {
        try required(index, int64OrNil(index))
    }

    /// Column `index` as a double (`Infinity`, `-Infinity` and `NaN` included), `nil` for NULL.
    public func double(_ index: Int) throws(PostgresError) -> Double? {
        try read(index, as: "a double") { Double($0) }
    }

    /// Column `index` as a boolean (`t`/`f`), `nil` for NULL.
    public func bool(_ index: Int) throws(PostgresError) -> Bool? {
        try read(index, as: "a boolean") { text -> Bool? in
            switch text {
            case "t": return true
            case "f": return false
            default: return nil
            }
        }
    }

    /// Column `index` as a UUID, `nil` for NULL.
    public func uuid(_ index: Int) throws(PostgresError) -> UUID? {
        try read(index, as: "a UUID") { UUID(uuidString: $0) }
    }

    /// Column `index` as a decimal (a `numeric`'s exact text), `nil` for NULL.
    public func decimal(_ index: Int) throws(PostgresError) -> Decimal? {
        try read(index, as: "a decimal") {
            Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")).flatMap {
                $0.isNaN ? nil : $0
            }
        }
    }

    /// Column `index` as bytes (a `bytea` in its `\x…` hex form), `nil` for NULL.
    public func bytes(_ index: Int) throws(PostgresError) -> Data? {
        try read(index, as: "bytes (\\x…)") { Self.hexBytes($0) }
    }

    private func read<T>(_ index: Int, as what: String, _ parse: (String) -> T?)
        throws(PostgresError) -> T?
    {
        guard let text = text(index) else { return nil }
        guard let value = parse(text) else {
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            throw PostgresError(
                .decoding, "column \(name(index)) holds '\(shown)', not \(what)")
        }
        return value
    }

    private func required<T>(_ index: Int, _ value: T?) throws(PostgresError) -> T {
        guard let value else {
            throw PostgresError(.decoding, "column \(name(index)) is NULL")
        }
        return value
    }

    private func name(_ index: Int) -> String {
        index >= 0 && index < columns.count ? "\(columns[index]) (\(index))" : "\(index)"
    }

    /// The bytes of bytea's hex output (`\x0aff`), `nil` when `text` is not that form.
    static func hexBytes(_ text: String) -> Data? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"),
            utf8.count % 2 == 0
        else { return nil }
        var data = Data(capacity: (utf8.count - 2) / 2)
        var index = 2
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else {
                return nil
            }
            data.append(high << 4 | low)
            index += 2
        }
        return data
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
