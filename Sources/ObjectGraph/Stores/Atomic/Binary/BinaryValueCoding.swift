import Foundation

/// The typed value records of the binary store: a tag byte, then the value's bytes
/// (Docs/BinaryStoreFormat.md, "Values").
enum BinaryValueCoding {
    enum Tag: UInt8 {
        case null = 0
        case integer = 1
        case double = 2
        case decimal = 3
        case string = 4
        case falseValue = 5
        case trueValue = 6
        case date = 7
        case data = 8
        case uuid = 9
        case uri = 10
        case objectID = 11
    }

    /// Appends `value` as a tagged record.
    static func write(_ value: Value, to writer: inout BinaryWriter) throws {
        switch value {
        case .null:
            writer.byte(Tag.null.rawValue)
        case .integer(let number):
            writer.byte(Tag.integer.rawValue)
            writer.signed(number)
        case .double(let number):
            writer.byte(Tag.double.rawValue)
            writer.double(number)
        case .decimal(let number):
            writer.byte(Tag.decimal.rawValue)
            writer.string(number.description)
        case .string(let text):
            writer.byte(Tag.string.rawValue)
            writer.string(text)
        case .bool(let flag):
            writer.byte(flag ? Tag.trueValue.rawValue : Tag.falseValue.rawValue)
        case .date(let date):
            writer.byte(Tag.date.rawValue)
            writer.double(date.timeIntervalSinceReferenceDate)
        case .data(let bytes):
            writer.byte(Tag.data.rawValue)
            writer.data(bytes)
        case .uuid(let id):
            writer.byte(Tag.uuid.rawValue)
            let parts = id.uuid
            writer.raw([
                parts.0, parts.1, parts.2, parts.3, parts.4, parts.5, parts.6, parts.7, parts.8,
                parts.9, parts.10, parts.11, parts.12, parts.13, parts.14, parts.15,
            ])
        case .uri(let url):
            writer.byte(Tag.uri.rawValue)
            writer.string(url.absoluteString)
        case .objectID(let id):
            guard case .permanent(let key) = id.key else {
                throw UnwritableGraph(
                    "cannot write the temporary object ID \(id) as an attribute value")
            }
            writer.byte(Tag.objectID.rawValue)
            writer.string(id.storeIdentifier)
            writer.string(id.entityName)
            writer.varint(key)
        }
    }

    /// Reads one tagged record.
    static func read(from reader: inout BinaryReader) throws -> Value {
        let start = reader.offset
        let raw = try reader.byte("a value tag")
        guard let tag = Tag(rawValue: raw) else {
            throw reader.corrupt("unknown value tag \(raw)", at: start)
        }
        switch tag {
        case .null: return .null
        case .integer: return .integer(try reader.signed("an integer value"))
        case .double: return .double(try reader.double("a double value"))
        case .decimal:
            let text = try reader.string("a decimal value")
            if text == "NaN" { return .decimal(.nan) }
            guard let number = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
            else {
                throw reader.corrupt("'\(text.prefix(40))' is not a decimal number", at: start)
            }
            return .decimal(number)
        case .string: return .string(try reader.string("a string value"))
        case .falseValue: return .bool(false)
        case .trueValue: return .bool(true)
        case .date:
            return .date(Date(timeIntervalSinceReferenceDate: try reader.double("a date value")))
        case .data: return .data(try reader.data("a binary value"))
        case .uuid:
            let bytes = try reader.raw(16, "a UUID value")
            let id = UUID(
                uuid: (
                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6],
                    bytes[7], bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13],
                    bytes[14], bytes[15]
                ))
            return .uuid(id)
        case .uri:
            let text = try reader.string("a URI value")
            guard let url = URL(string: text) else {
                throw reader.corrupt("'\(text.prefix(40))' is not a URI", at: start)
            }
            return .uri(url)
        case .objectID:
            let store = try reader.string("an object ID's store")
            let entity = try reader.string("an object ID's entity")
            let key = try reader.int64("an object ID's key")
            return .objectID(
                ObjectID(entityName: entity, storeIdentifier: store, key: .permanent(key)))
        }
    }
}
