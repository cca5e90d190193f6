import Foundation
import PostgresClient
import SQLiteDatabase

/// Converts attribute values between ObjectGraph's ``Value`` and the columns of
/// ``PostgresSchemaDDL``. The checks of ``ValueCoding`` (integer ranges, Float narrowing, what
/// each type accepts) apply as on SQLite; decimals stay exact (`numeric`) and UUIDs are `uuid`.
enum PostgresValueCoding {
    /// The parameter that stores `value` in a column of an attribute of type `type`.
    static func parameter(for value: Value, type: AttributeType)
        throws(ValueCodingError) -> PostgresValue
    {
        switch (type, value) {
        case (_, .null): return .null
        case (.decimal, .decimal(let number)):
            guard !number.isNaN else {
                throw ValueCodingError(attributeType: type, "NaN is no decimal a store keeps")
            }
            return .numeric(number.description)
        case (.decimal, .integer(let number)): return .numeric(String(number))
        case (.uuid, .uuid(let uuid)): return .uuid(uuid)
        default: break
        }
        switch try ValueCoding.storageValue(for: value, type: type) {
        case .null: return .null
        case .integer(let number):
            return type == .boolean ? .bool(number != 0) : .integer(number)
        case .real(let number): return .double(number)
        case .text(let text): return .text(text)
        case .blob(let bytes): return .bytes(bytes)
        }
    }

    /// The value of an attribute of type `type` from column `column` of `row` (a copied row
    /// or a cursor on a result). Each typed read answers NULL itself (no read asks twice).
    static func value(in row: some PostgresColumns, column: Int, type: AttributeType)
        throws(PostgresError) -> Value
    {
        switch type {
        case .integer16, .integer32, .integer64:
            guard let number = try row.int64OrNil(column) else { return .null }
            guard type.integerRange?.contains(number) ?? true else {
                throw PostgresError(.decoding, "\(number) does not fit in an \(type) attribute")
            }
            return .integer(number)
        case .boolean: return try row.bool(column).map { Value.bool($0) } ?? .null
        case .decimal: return try row.decimal(column).map { Value.decimal($0) } ?? .null
        case .double, .float: return try row.double(column).map { Value.double($0) } ?? .null
        case .date:
            return try row.double(column).map {
                Value.date(Date(timeIntervalSinceReferenceDate: $0))
            } ?? .null
        case .uuid: return try row.uuid(column).map { Value.uuid($0) } ?? .null
        case .binary, .transformable: return try row.bytes(column).map { Value.data($0) } ?? .null
        case .uri:
            guard let text = row.text(column) else { return .null }
            guard let url = URL(string: text) else {
                throw PostgresError(.decoding, "'\(text)' is no URI")
            }
            return .uri(url)
        case .string, .undefined, .objectID, .composite, .unknown:
            return row.text(column).map { Value.string($0) } ?? .null
        }
    }
}
