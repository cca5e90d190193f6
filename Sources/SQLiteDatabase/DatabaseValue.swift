import CSQLite
import Foundation

/// One SQLite value, in one of SQLite's five storage classes.
///
/// ```swift
/// let row = try db.fetchOne(sql: "SELECT 1, 'a', NULL")
/// row?[0]  // .integer(1)
/// row?[1]  // .text("a")
/// row?[2]  // .null
/// ```
public enum DatabaseValue: Hashable, Sendable, CustomStringConvertible {
    /// `NULL`.
    case null
    /// A 64-bit signed integer (`INTEGER`).
    case integer(Int64)
    /// A double-precision float (`REAL`).
    case real(Double)
    /// UTF-8 text (`TEXT`).
    case text(String)
    /// Bytes (`BLOB`).
    case blob(Data)

    /// Whether the value is `NULL`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The SQL name of the storage class: `NULL`, `INTEGER`, `REAL`, `TEXT` or `BLOB`.
    public var storageClass: String {
        switch self {
        case .null: return "NULL"
        case .integer: return "INTEGER"
        case .real: return "REAL"
        case .text: return "TEXT"
        case .blob: return "BLOB"
        }
    }

    /// An SQL-like rendering for messages and debugging: `NULL`, `1`, `1.5`, `'it''s'`,
    /// `X'00FF'`. Never used to build SQL: values are always bound.
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let value): return "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let value):
            return "X'"
                + value.map { byte in
                    let hex = String(byte, radix: 16, uppercase: true)
                    return byte < 16 ? "0" + hex : hex
                }.joined() + "'"
        }
    }
}

// MARK: - Reading and writing through the C API

extension DatabaseValue {
    /// Reads column `index` of the current row of `statement`. The caller checks the index.
    init(statement: OpaquePointer, column index: Int32) {
        // One call for the column, then its type and value from it: each `sqlite3_column_*`
        // call looks the column up and checks for errors, where `sqlite3_value_*` calls do
        // neither. (SQLite calls the column's value "unprotected": reading it is safe while
        // no other thread uses the connection, which a `Database` guarantees.)
        self.init(sqliteValue: sqlite3_column_value(statement, index))
    }

    /// Reads a function argument.
    init(sqliteValue value: OpaquePointer?) {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER:
            self = .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT:
            self = .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            let text = sqlite3_value_text(value)
            let count = Int(sqlite3_value_bytes(value))
            self = .text(Self.string(text, count: count))
        case SQLITE_BLOB:
            let bytes = sqlite3_value_blob(value)
            let count = Int(sqlite3_value_bytes(value))
            self = .blob(Self.data(bytes, count: count))
        default:
            self = .null
        }
    }

    private static func string(_ text: UnsafePointer<UInt8>?, count: Int) -> String {
        guard let text, count > 0 else { return "" }
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    private static func data(_ bytes: UnsafeRawPointer?, count: Int) -> Data {
        guard let bytes, count > 0 else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// Binds the value to parameter `index` (1-based) of `statement`; returns the SQLite code.
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch self {
        case .null:
            return sqlite3_bind_null(statement, index)
        case .integer(let value):
            return sqlite3_bind_int64(statement, index, value)
        case .real(let value):
            return sqlite3_bind_double(statement, index, value)
        case .text(let value):
            var value = value
            return value.withUTF8 { buffer in
                // A nil pointer would bind NULL: bind an empty string explicitly.
                guard let base = buffer.baseAddress, buffer.count > 0 else {
                    return sqlite3_bind_text(statement, index, "", 0, sqliteTransient)
                }
                return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    sqlite3_bind_text64(
                        statement, index, $0, UInt64(buffer.count), sqliteTransient,
                        UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let value):
            return value.withUnsafeBytes { buffer in
                // A nil pointer would bind NULL: bind an empty blob explicitly.
                guard let base = buffer.baseAddress, buffer.count > 0 else {
                    return sqlite3_bind_zeroblob(statement, index, 0)
                }
                return sqlite3_bind_blob64(
                    statement, index, base, UInt64(buffer.count), sqliteTransient)
            }
        }
    }

    /// Makes the value the result of a function call.
    func setResult(of context: OpaquePointer?) {
        switch self {
        case .null:
            sqlite3_result_null(context)
        case .integer(let value):
            sqlite3_result_int64(context, value)
        case .real(let value):
            sqlite3_result_double(context, value)
        case .text(let value):
            var value = value
            value.withUTF8 { buffer in
                guard let base = buffer.baseAddress, buffer.count > 0 else {
                    sqlite3_result_text(context, "", 0, sqliteTransient)
                    return
                }
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    sqlite3_result_text64(
                        context, $0, UInt64(buffer.count), sqliteTransient, UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let value):
            value.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress, buffer.count > 0 else {
                    sqlite3_result_zeroblob(context, 0)
                    return
                }
                sqlite3_result_blob64(context, base, UInt64(buffer.count), sqliteTransient)
            }
        }
    }
}

/// `SQLITE_TRANSIENT` (a cast macro that does not import): SQLite copies the bytes at once.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
