import Foundation
import ObjectGraph

/// The JSON form of a Transformable attribute's archived value (`{"$archived": …}` in `dump`
/// and `query` output): strings, numbers, Booleans, arrays and string-keyed dictionaries as
/// themselves; dates, data and UUIDs as elsewhere (`$date`, `$data`, `$uuid`); `{"$url"}`,
/// `{"$set"}`, `{"$orderedSet"}`, `{"$dictionary": [[key, value]…]}` for other keys,
/// `{"$attributedString": text}`, and `{"$class", "$archive"}` for an object of an unknown class.
enum ArchivedValueJSON {
    /// The JSON of `value`.
    static func json(_ value: ArchivedAttributeValue) -> Any {
        switch value {
        case .null: return NSNull()
        case .string(let text): return text
        case .number(let number):
            switch number {
            case .bool(let flag): return flag
            case .integer(let integer): return integer
            case .unsignedInteger(let integer): return NSNumber(value: integer)
            case .float(let real): return real.isFinite ? Double(real) : NSNull()
            case .double(let real): return real.isFinite ? real : NSNull()
            }
        case .date(let date): return ["$date": date.timeIntervalSince1970]
        case .data(let bytes): return ["$data": bytes.base64EncodedString()]
        case .url(let relative, _): return ["$url": value.url?.absoluteString ?? relative]
        case .uuid(let uuid): return ["$uuid": uuid.uuidString]
        case .array(let elements): return elements.map(json)
        case .set(let elements): return ["$set": elements.map(json)]
        case .orderedSet(let elements): return ["$orderedSet": elements.map(json)]
        case .dictionary(let entries):
            var object: [String: Any] = [:]
            for entry in entries {
                guard case .string(let key) = entry.key, object[key] == nil else {
                    return ["$dictionary": entries.map { [json($0.key), json($0.value)] }]
                }
                object[key] = json(entry.value)
            }
            return object
        case .attributedString(let kept): return ["$attributedString": kept.text ?? ""]
        case .unknown(let kept):
            return ["$class": kept.className, "$archive": kept.archive.base64EncodedString()]
        }
    }

    /// `{"$archived": …}` for the Transformable attribute `name` of `object` when it holds an
    /// `NSKeyedArchiver` archive, else `nil`.
    static func attribute(_ name: String, of object: ManagedObject) -> Any? {
        guard let value = try? object.archivedValue(for: name) else { return nil }
        return ["$archived": json(value)]
    }
}
