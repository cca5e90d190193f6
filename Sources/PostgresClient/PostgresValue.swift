import Foundation

/// A value bound to a statement's `$n` parameter. Every value but bytes is sent in PostgreSQL's
/// text form; bytes go in binary form. The server reads each as the type the statement gives
/// the parameter (a column's type, or a cast: write `$1::text` where nothing else tells).
///
/// ```swift
/// try connection.execute(
///     "INSERT INTO people (id, name, photo) VALUES ($1, $2, $3)",
///     [.integer(7), .text("Ada"), .bytes(Data([0xFF]))])
/// ```
public enum PostgresValue: Sendable, Hashable {
    /// SQL NULL.
    case null
    /// A `boolean`.
    case bool(Bool)
    /// A `bigint`.
    case integer(Int64)
    /// A `double precision` (infinities and NaN included).
    case double(Double)
    /// A `numeric`, in its text form (`12.50`).
    case numeric(String)
    /// Text (no NUL character); the server reads it as the type the statement expects there.
    case text(String)
    /// A `bytea`.
    case bytes(Data)
    /// A `uuid`.
    case uuid(UUID)

    /// The bytes sent (text form, or the raw bytes of `bytes`), `nil` for NULL.
    var wireBytes: [UInt8]? {
        switch self {
        case .null: return nil
        case .bool(let flag): return Array((flag ? "t" : "f").utf8)
        case .integer(let number): return Array(String(number).utf8)
        case .double(let number):
            if number.isNaN { return Array("NaN".utf8) }
            if number.isInfinite { return Array((number < 0 ? "-Infinity" : "Infinity").utf8) }
            return Array("\(number)".utf8)
        case .numeric(let text), .text(let text): return Array(text.utf8)
        case .bytes(let data): return [UInt8](data)
        case .uuid(let uuid): return Array(uuid.uuidString.utf8)
        }
    }

    /// The value as one element of an array literal bound as text (`$1::text[]`): `NULL`, or
    /// its text form (bytes in hex), text and bytes double-quoted with their backslashes and
    /// quotes escaped.
    ///
    /// ```swift
    /// let names: [PostgresValue] = [.text("Ada \"A\""), .null]
    /// let literal = "{" + names.map(\.arrayElement).joined(separator: ",") + "}"
    /// ```
    public var arrayElement: String {
        let text: String
        switch self {
        case .null: return "NULL"
        case .text(let string): text = string
        case .bytes(let data): text = PostgresBinaryForm.hexText(data)
        default: return String(decoding: wireBytes ?? [], as: UTF8.self)
        }
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") })
        else { return "\"" + text + "\"" }
        var quoted = "\""
        for character in text.unicodeScalars {
            if character == "\\" || character == "\"" { quoted.unicodeScalars.append("\\") }
            quoted.unicodeScalars.append(character)
        }
        return quoted + "\""
    }

    /// Whether the value is sent in binary form.
    var isBinary: Bool {
        if case .bytes = self { return true }
        return false
    }
}
