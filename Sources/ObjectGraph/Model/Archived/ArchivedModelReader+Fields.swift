import Foundation
import KeyedArchive

/// Typed reads of an archive object's fields: each checks the field's kind and counts against
/// the reader's budget; `$null` reads as absent.
extension ArchivedModelReader {
    func failure(_ object: ArchivedObject, _ reason: String) -> ArchivedModelError {
        .object(source: source, index: object.index, className: object.className, reason: reason)
    }

    /// Counts `reads` against the budget.
    mutating func spend(_ reads: Int, _ object: ArchivedObject) throws(ArchivedModelError) {
        budget -= reads
        guard budget >= 0 else {
            throw failure(
                object,
                "the archive shares its objects so often that reading it would not end in reasonable time"
            )
        }
    }

    /// The field `key` of `object`, decoded; `nil` when absent or `$null`.
    mutating func field(_ object: ArchivedObject, _ key: String) throws(ArchivedModelError)
        -> ArchivedValue?
    {
        let value: ArchivedValue?
        do { value = try object.value(forKey: key) } catch {
            throw failure(object, "\(key): \(error)")
        }
        switch value {
        case nil, .null?: return nil
        case .array(let elements)?, .set(let elements)?: try spend(1 + elements.count, object)
        case .dictionary(let entries)?: try spend(1 + entries.count, object)
        default: try spend(1, object)
        }
        return value
    }

    mutating func string(_ object: ArchivedObject, _ key: String) throws(ArchivedModelError)
        -> String?
    {
        guard let value = try field(object, key) else { return nil }
        guard let text = value.string else { throw failure(object, "\(key) is not a string") }
        return text
    }

    mutating func integer(_ object: ArchivedObject, _ key: String) throws(ArchivedModelError)
        -> Int?
    {
        guard let value = try field(object, key) else { return nil }
        guard let number = value.integer, let result = Int(exactly: number) else {
            throw failure(object, "\(key) is not an integer")
        }
        return result
    }

    mutating func bool(_ object: ArchivedObject, _ key: String) throws(ArchivedModelError) -> Bool?
    {
        guard let value = try field(object, key) else { return nil }
        switch value {
        case .bool(let flag): return flag
        case .integer(let number): return number != 0
        default: throw failure(object, "\(key) is not a Boolean")
        }
    }

    mutating func objectField(_ object: ArchivedObject, _ key: String) throws(ArchivedModelError)
        -> ArchivedObject?
    {
        guard let value = try field(object, key) else { return nil }
        guard let result = value.object else { throw failure(object, "\(key) is not an object") }
        return result
    }

    /// The elements of an array or set field (none when absent).
    mutating func list(_ object: ArchivedObject, _ key: String) throws(ArchivedModelError)
        -> [ArchivedValue]
    {
        guard let value = try field(object, key) else { return [] }
        guard let elements = value.elements else {
            throw failure(object, "\(key) is not an array or a set")
        }
        return elements
    }

    /// The strings of an array or set field.
    mutating func strings(_ object: ArchivedObject, _ key: String) throws(ArchivedModelError)
        -> [String]
    {
        var result: [String] = []
        for element in try list(object, key) {
            guard let text = element.string else {
                throw failure(object, "\(key) holds something other than a string")
            }
            result.append(text)
        }
        return result
    }

    /// The values of a dictionary field: a plain dictionary, or Core Data's
    /// `NSKnownKeysDictionary1` (its `values` array; empty slots hold a token string).
    mutating func dictionaryValues(_ object: ArchivedObject, _ key: String)
        throws(ArchivedModelError)
        -> [ArchivedValue]
    {
        switch try field(object, key) {
        case nil: return []
        case .dictionary(let entries)?:
            return entries.sorted { ($0.key.string ?? "").utf8Less(than: $1.key.string ?? "") }.map(
                \.value)
        case .object(let known)? where known.className.hasPrefix("NSKnownKeysDictionary"):
            return try list(known, "values")
        default:
            throw failure(object, "\(key) is not a dictionary")
        }
    }

    /// Lists of property names (uniqueness constraints, compound indexes): each inner element a
    /// name or a property description.
    mutating func nameLists(_ object: ArchivedObject, _ key: String) throws(ArchivedModelError)
        -> [[String]]
    {
        var result: [[String]] = []
        for group in try list(object, key) {
            guard let members = group.elements else {
                throw failure(object, "\(key) holds something other than a list of properties")
            }
            try spend(members.count, object)
            var names: [String] = []
            for member in members {
                if let text = member.string {
                    names.append(text)
                } else if let property = member.object,
                    let text = try string(property, "NSPropertyName")
                {
                    names.append(text)
                } else {
                    throw failure(
                        object, "\(key) names a property by something other than its name")
                }
            }
            result.append(names)
        }
        return result
    }

    /// `NSUserInfo`, keys sorted (an archived dictionary keeps no order); values that are not
    /// strings are written as their text.
    mutating func userInfo(_ object: ArchivedObject) throws(ArchivedModelError) -> UserInfo {
        guard let value = try field(object, "NSUserInfo") else { return UserInfo() }
        guard case .dictionary(let entries) = value else {
            throw failure(object, "NSUserInfo is not a dictionary")
        }
        var result: [UserInfo.Entry] = []
        for (key, entry) in entries {
            guard let name = key.string else {
                throw failure(object, "NSUserInfo has a key that is not a string")
            }
            guard let text = Self.text(of: entry) else {
                throw failure(object, "NSUserInfo[\"\(name)\"] is not a string or a number")
            }
            result.append(UserInfo.Entry(key: name, value: text))
        }
        return UserInfo(result.sorted { $0.key.utf8Less(than: $1.key) })
    }

    /// A plain value as the text a model file holds.
    static func text(of value: ArchivedValue) -> String? {
        switch value {
        case .string(let text): return text
        case .bool(let flag): return flag ? "YES" : "NO"
        case .integer(let number): return String(number)
        case .real(let number): return number.description
        default: return nil
        }
    }
}
