import Foundation

/// One value in one of SQLite's storage classes. Stand-in for `SQLiteDatabase.DatabaseValue`
/// (same cases) until that module lands.
enum StorageValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    /// `NULL`, `INTEGER`, `REAL`, `TEXT` or `BLOB`.
    var storageClass: String {
        switch self {
        case .null: return "NULL"
        case .integer: return "INTEGER"
        case .real: return "REAL"
        case .text: return "TEXT"
        case .blob: return "BLOB"
        }
    }
}
