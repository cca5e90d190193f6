import Foundation
import SQLiteDatabase

/// Converts attribute values between ObjectGraph's ``Value`` and what Core Data keeps in SQLite
/// (`research/coredata-store-format.md` §7):
///
/// | Attribute | Written | Read |
/// |---|---|---|
/// | Integer 16/32/64 | INTEGER | INTEGER; whole REAL; numeric TEXT |
/// | Boolean | INTEGER 0/1 | INTEGER or REAL (non-zero is true); TEXT 0/1/true/false |
/// | Decimal | REAL (Core Data keeps a double: decimal precision is lost) | INTEGER, REAL, TEXT |
/// | Double, Float | REAL (Float narrowed to Float first) | REAL, INTEGER, numeric TEXT |
/// | Date | REAL seconds since 2001-01-01 UTC | REAL or INTEGER (whole seconds), numeric TEXT |
/// | String | TEXT | TEXT; INTEGER/REAL as their text; UTF-8 BLOB |
/// | URI | TEXT, the absolute string | TEXT |
/// | UUID | BLOB, 16 bytes in RFC 4122 order | 16-byte BLOB; TEXT in the 8-4-4-4-12 form |
/// | Binary, Transformable | BLOB | BLOB; TEXT as its UTF-8 bytes |
///
/// NULL is `.null` both ways. Nothing traps: a value that does not fit throws
/// ``ValueCodingError``.
enum ValueCoding {
    /// The SQLite value that stores `value` in a column of an attribute of type `type`.
    static func storageValue(for value: Value, type: AttributeType)
        throws(ValueCodingError) -> DatabaseValue
    {
        if case .null = value { return .null }
        switch (type, value) {
        case (.integer16, .integer(let number)), (.integer32, .integer(let number)),
            (.integer64, .integer(let number)):
            guard let range = type.integerRange, range.contains(number) else {
                throw ValueCodingError(
                    attributeType: type, "\(number) does not fit in an \(type) attribute")
            }
            return .integer(number)
        case (.integer16, .bool(let flag)), (.integer32, .bool(let flag)),
            (.integer64, .bool(let flag)), (.boolean, .bool(let flag)):
            return .integer(flag ? 1 : 0)
        case (.boolean, .integer(let number)):
            return .integer(number == 0 ? 0 : 1)
        case (.decimal, .decimal(let number)):
            return .real(NSDecimalNumber(decimal: number).doubleValue)
        case (.decimal, .double(let number)), (.double, .double(let number)):
            return .real(number)
        case (.decimal, .integer(let number)), (.double, .integer(let number)):
            return .real(Double(number))
        case (.double, .decimal(let number)):
            return .real(NSDecimalNumber(decimal: number).doubleValue)
        case (.float, .double(let number)):
            return .real(Double(Float(number)))
        case (.float, .integer(let number)):
            return .real(Double(Float(number)))
        case (.float, .decimal(let number)):
            return .real(Double(Float(NSDecimalNumber(decimal: number).doubleValue)))
        case (.string, .string(let text)):
            return .text(text)
        case (.date, .date(let date)):
            return .real(date.timeIntervalSinceReferenceDate)
        case (.binary, .data(let bytes)), (.transformable, .data(let bytes)):
            return .blob(bytes)
        case (.uuid, .uuid(let uuid)):
            return .blob(uuidBytes(uuid))
        case (.uri, .uri(let url)):
            return .text(url.absoluteString)
        default:
            throw ValueCodingError(
                attributeType: type, "cannot store \(value) in an \(type) attribute's column")
        }
    }

    /// The attribute value of type `type` that `stored` holds.
    static func value(from stored: DatabaseValue, type: AttributeType)
        throws(ValueCodingError) -> Value
    {
        if case .null = stored { return .null }
        let result: Value?
        switch type {
        case .integer16, .integer32, .integer64: result = integer(stored, type: type)
        case .boolean: result = boolean(stored)
        case .decimal: result = decimal(stored)
        case .double, .float: result = double(stored).map { .double($0) }
        case .date:
            result = double(stored).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case .string: result = string(stored)
        case .uri:
            if case .text(let text) = stored, let url = URL(string: text) {
                result = .uri(url)
            } else {
                result = nil
            }
        case .uuid: result = uuid(stored)
        case .binary, .transformable:
            switch stored {
            case .blob(let bytes): result = .data(bytes)
            case .text(let text): result = .data(Data(text.utf8))
            default: result = nil
            }
        case .undefined, .objectID, .composite, .unknown: result = nil
        }
        guard let result else {
            throw ValueCodingError(
                attributeType: type,
                "cannot read a \(stored.storageClass) value \(describe(stored)) as \(type)")
        }
        return result
    }

    // MARK: - Reading helpers

    private static func integer(_ stored: DatabaseValue, type: AttributeType) -> Value? {
        let number: Int64?
        switch stored {
        case .integer(let value): number = value
        case .real(let value):
            number = value.rounded() == value ? Int64(exactly: value) : nil
        case .text(let text):
            number = Int64(text.trimmingCharacters(in: .whitespaces))
        default: number = nil
        }
        guard let number, type.integerRange?.contains(number) ?? false else { return nil }
        return .integer(number)
    }

    private static func boolean(_ stored: DatabaseValue) -> Value? {
        switch stored {
        case .integer(let value): return .bool(value != 0)
        case .real(let value): return .bool(value != 0)
        case .text(let text):
            switch text.lowercased() {
            case "1", "true", "yes": return .bool(true)
            case "0", "false", "no": return .bool(false)
            default: return nil
            }
        default: return nil
        }
    }

    private static func decimal(_ stored: DatabaseValue) -> Value? {
        switch stored {
        case .integer(let value): return .decimal(Decimal(value))
        case .real(let value):
            guard value.isFinite else { return nil }
            // The shortest text that round-trips the double gives the decimal a user expects
            // (0.1, not 0.1000000000000000055…).
            return Decimal(string: String(value), locale: posixLocale).map { .decimal($0) }
        case .text(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, let number = Decimal(string: trimmed, locale: posixLocale),
                !number.isNaN
            else { return nil }
            return .decimal(number)
        default: return nil
        }
    }

    private static func double(_ stored: DatabaseValue) -> Double? {
        switch stored {
        case .integer(let value): return Double(value)
        case .real(let value): return value
        case .text(let text): return Double(text.trimmingCharacters(in: .whitespaces))
        default: return nil
        }
    }

    private static func string(_ stored: DatabaseValue) -> Value? {
        switch stored {
        case .text(let text): return .string(text)
        case .integer(let value): return .string(String(value))
        case .real(let value): return .string(String(value))
        case .blob(let bytes): return String(data: bytes, encoding: .utf8).map { .string($0) }
        case .null: return .null
        }
    }

    private static func uuid(_ stored: DatabaseValue) -> Value? {
        switch stored {
        case .blob(let bytes) where bytes.count == 16:
            let b = [UInt8](bytes)
            return .uuid(
                UUID(
                    uuid: (
                        b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
                        b[12], b[13], b[14], b[15]
                    )))
        case .text(let text): return UUID(uuidString: text).map { .uuid($0) }
        default: return nil
        }
    }

    private static func uuidBytes(_ uuid: UUID) -> Data {
        let u = uuid.uuid
        return Data([
            u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15,
        ])
    }

    private static func describe(_ stored: DatabaseValue) -> String {
        switch stored {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let text):
            let short = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return "'" + short + "'"
        case .blob(let bytes): return "<\(bytes.count) bytes>"
        }
    }

    private static let posixLocale = Locale(identifier: "en_US_POSIX")
}
