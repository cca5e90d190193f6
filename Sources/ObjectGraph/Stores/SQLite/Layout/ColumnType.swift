/// The declared SQL type of a column in Core Data's SQLite layout.
///
/// Core Data declares columns with these six names; SQLite derives the column affinity from
/// them (`INTEGER` → integer, `DECIMAL` and `TIMESTAMP` → numeric, `FLOAT` → real, `VARCHAR` →
/// text, `BLOB` → none). See `research/coredata-store-format.md` §7.
///
/// ```swift
/// ColumnType(attributeType: .date)   // .timestamp
/// ColumnType.timestamp.rawValue      // "TIMESTAMP"
/// ```
public enum ColumnType: String, Sendable, Hashable, CaseIterable {
    /// `INTEGER`: integers, booleans, keys, foreign keys, entity numbers, order keys.
    case integer = "INTEGER"
    /// `DECIMAL`: Decimal attributes (stored as a double).
    case decimal = "DECIMAL"
    /// `FLOAT`: Double and Float attributes.
    case float = "FLOAT"
    /// `VARCHAR`: String and URI attributes.
    case varchar = "VARCHAR"
    /// `TIMESTAMP`: Date attributes (seconds since 2001-01-01).
    case timestamp = "TIMESTAMP"
    /// `BLOB`: Binary, Transformable and UUID attributes.
    case blob = "BLOB"

    /// The declared type of an attribute's column, or `nil` when the type has no column
    /// (undefined, object ID, composite, unknown spellings).
    public init?(attributeType: AttributeType) {
        switch attributeType {
        case .integer16, .integer32, .integer64, .boolean: self = .integer
        case .decimal: self = .decimal
        case .double, .float: self = .float
        case .string, .uri: self = .varchar
        case .date: self = .timestamp
        case .binary, .transformable, .uuid: self = .blob
        case .undefined, .objectID, .composite, .unknown: return nil
        }
    }

    /// The position of the type's group in a `CREATE TABLE` column list: integers first, then
    /// dates and floating-point numbers, then text, then bytes (§6.5).
    var columnGroup: Int {
        switch self {
        case .integer: return 0
        case .decimal, .float, .timestamp: return 1
        case .varchar: return 2
        case .blob: return 4
        }
    }

    /// The group of an attribute's column `type`: URI attributes, `VARCHAR` like strings, come
    /// after every string and before the bytes (knowledgeC's `StructuredMetadata`).
    static func columnGroup(of attributeType: AttributeType, in type: ColumnType) -> Int {
        attributeType == .uri ? 3 : type.columnGroup
    }
}
