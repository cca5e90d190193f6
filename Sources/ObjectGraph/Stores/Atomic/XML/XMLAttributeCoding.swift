import Foundation

/// Attribute values as the XML store writes them in `<attribute type="…">text</attribute>`.
///
/// | Attribute type | `type` | Text |
/// |---|---|---|
/// | Integer 16/32/64 | `int16`, `int32`, `int64` | decimal integer |
/// | Boolean | `bool` | `0` or `1` (read also `true`/`false`/`yes`/`no`) |
/// | Decimal | `decimal` | the decimal's full text (`3.14159`) |
/// | Double | `double` | shortest round-tripping text (`0.1`, `1e-05`, `inf`, `nan`) |
/// | Float | `float` | the shortest text of the 32-bit value (`0.1`) |
/// | String | `string` | the text, XML-escaped |
/// | Date | `date` | seconds since 2001-01-01 UTC with 20 decimals, as Apple writes them (the shortest text where 20 decimals would lose digits, `inf`, `nan`) |
/// | Binary | `binary` | base64 in 76-character lines (line breaks ignored when read) |
/// | UUID | `uuid` | upper-case 8-4-4-4-12 text (ObjectGraph's choice; Apple's is unseen) |
/// | URI | `uri` | the absolute URL text (ObjectGraph's choice) |
/// | Transformable | `transformable` | base64 of the transformed bytes (ObjectGraph's choice) |
///
/// Values are read by the model's attribute type; the `type` spelling in the file is not
/// trusted. Nil attributes are not written.
enum XMLAttributeCoding {
    /// The spelling of `type` in the `type` attribute, or `nil` for types the store cannot hold.
    static func spelling(of type: AttributeType) -> String? {
        switch type {
        case .integer16: return "int16"
        case .integer32: return "int32"
        case .integer64: return "int64"
        case .boolean: return "bool"
        case .decimal: return "decimal"
        case .double: return "double"
        case .float: return "float"
        case .string: return "string"
        case .date: return "date"
        case .binary: return "binary"
        case .uuid: return "uuid"
        case .uri: return "uri"
        case .transformable: return "transformable"
        case .undefined, .objectID, .composite, .unknown: return nil
        }
    }

    /// The text that stores `value` in an attribute of type `type`.
    /// - Throws: a one-sentence reason when the value does not fit the type.
    static func text(for value: Value, type: AttributeType) throws(ValueCodingError) -> String {
        switch (type, value) {
        case (.decimal, .decimal(let number)):
            guard !number.isNaN else {
                throw ValueCodingError(attributeType: type, "NaN cannot be stored as a Decimal")
            }
            return number.description
        case (.uuid, .uuid(let uuid)):
            return uuid.uuidString
        case (.float, _):
            let stored = try ValueCoding.storageValue(for: value, type: type)
            guard case .real(let number) = stored else { break }
            return String(Float(number))
        case (.date, .date(let date)):
            return dateText(date.timeIntervalSinceReferenceDate)
        case (.binary, .data(let bytes)), (.transformable, .data(let bytes)):
            return bytes.base64EncodedString(options: .lineLength76Characters)
                .replacingOccurrences(of: "\r\n", with: "\n")
        default:
            break
        }
        switch try ValueCoding.storageValue(for: value, type: type) {
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        case .text(let text): return text
        case .null: return ""
        case .blob:
            throw ValueCodingError(attributeType: type, "cannot store \(value) as \(type) text")
        }
    }

    /// The value an attribute of type `type` holds when its text is `text`.
    /// - Throws: a one-sentence reason when the text is not a value of the type.
    static func value(from text: String, type: AttributeType) throws(ValueCodingError) -> Value {
        switch type {
        case .string:
            return .string(text)
        case .binary, .transformable:
            guard let bytes = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                throw ValueCodingError(attributeType: type, "the text is not base64")
            }
            return .data(bytes)
        default:
            break
        }
        let trimmed = trim(text)
        let result: Value?
        switch type {
        case .integer16, .integer32, .integer64:
            if let number = Int64(trimmed), type.integerRange?.contains(number) ?? false {
                result = .integer(number)
            } else {
                result = nil
            }
        case .boolean:
            switch trimmed {
            case "1", "true", "TRUE", "True", "YES", "yes": result = .bool(true)
            case "0", "false", "FALSE", "False", "NO", "no": result = .bool(false)
            default: result = nil
            }
        case .double: result = Double(trimmed).map { .double($0) }
        case .float: result = Float(trimmed).map { .double(Double($0)) }
        case .date:
            result = Double(trimmed).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case .undefined, .objectID, .composite, .unknown:
            throw ValueCodingError(attributeType: type, "\(type) attributes cannot be stored")
        default:
            result = try? ValueCoding.value(from: .text(String(trimmed)), type: type)
        }
        guard let result else {
            throw ValueCodingError(
                attributeType: type, "'\(clip(String(trimmed)))' is not a value of type \(type)")
        }
        return result
    }

    /// Seconds with 20 decimals, as Apple writes dates (`259257125.71128600835800170898`), when
    /// that text reads back as `seconds`; otherwise (within 50 microseconds of 2001-01-01,
    /// where 20 decimals drop digits: `1e-30`) and for infinities and NaN, Swift's shortest
    /// round-trip form (`1e-30`, `inf`, `-inf`, `nan`). Every `Double` reads back identical.
    static func dateText(_ seconds: Double) -> String {
        guard seconds.isFinite else { return String(seconds) }
        let fixed = fixedDecimals(seconds)
        guard let read = Double(fixed), read.bitPattern == seconds.bitPattern else {
            return String(seconds)
        }
        return fixed
    }

    /// `seconds` printed with `%.20f`.
    private static func fixedDecimals(_ seconds: Double) -> String {
        var buffer = [CChar](repeating: 0, count: 400)
        let count = buffer.withUnsafeMutableBufferPointer { pointer -> Int32 in
            withVaList([seconds]) { vsnprintf(pointer.baseAddress, pointer.count, "%.20f", $0) }
        }
        guard count > 0, Int(count) < buffer.count else {
            return String(format: "%.20f", seconds)
        }
        let bytes = buffer.prefix(Int(count)).map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text` without leading and trailing spaces, tabs and line breaks.
    static func trim(_ text: String) -> Substring {
        let bytes = text.utf8
        var lower = bytes.startIndex
        var upper = bytes.endIndex
        while lower < upper, isSpace(bytes[lower]) { lower = bytes.index(after: lower) }
        while upper > lower, isSpace(bytes[bytes.index(before: upper)]) {
            upper = bytes.index(before: upper)
        }
        return text[lower..<upper]
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// At most 40 characters of `text`, for messages.
    private static func clip(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : text
    }
}
