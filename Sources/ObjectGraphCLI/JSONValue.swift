import Foundation

/// A JSON value as `objectgraph predicate` reads it: a few words per value, without
/// Foundation's bridged objects (which cost kilobytes per small object on Linux).
///
/// ```swift
/// let value = try JSONValue(parsing: #"{"age": 30, "tags": [1, 2]}"#)
/// ```
enum JSONValue {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent that fits in 64 bits.
    case integer(Int64)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object's members in file order (a repeated key is kept; the last one counts).
    case object([(key: String, value: JSONValue)])

    /// The nesting of arrays and objects accepted, as Foundation's parser allows.
    static let maximumNesting = 512

    /// Parses `text`, which must hold exactly one JSON value.
    /// - Throws: ``JSONScanner/Invalid`` when it is not JSON.
    init(parsing text: String) throws(JSONScanner.Invalid) {
        var text = text
        let parsed = text.withUTF8 { bytes -> Result<JSONValue, JSONScanner.Invalid> in
            var scanner = JSONScanner(bytes)
            return Result { () throws(JSONScanner.Invalid) in
                let value = try scanner.readValue()
                try scanner.expectEnd()
                return value
            }
        }
        self = try parsed.get()
    }

    /// The members of an object with each key once, the last value of a repeated key winning,
    /// or `nil` for other values.
    var members: [String: JSONValue]? {
        guard case .object(let list) = self else { return nil }
        var result: [String: JSONValue] = [:]
        for (key, value) in list { result[key] = value }
        return result
    }
}
