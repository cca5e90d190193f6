import Foundation
import ObjectGraph

/// The JSON conventions of `objectgraph predicate`: `null` is nil, objects are records,
/// `{"$date": secondsSince1970}`, `{"$set": [...]}`, `{"$data": "base64"}`, `{"$uuid": "..."}`.
extension PredicateCommand {
    enum JSON {
        /// A JSON value that does not follow the conventions.
        struct Problem: Error, CustomStringConvertible {
            let description: String
        }

        /// The deepest nesting of arrays and objects converted.
        static let maximumDepth = 200

        /// Parses one JSON value (a command-line argument).
        static func parse(_ text: String) throws -> JSONValue {
            do {
                return try JSONValue(parsing: text)
            } catch {
                throw Problem(description: "invalid JSON")
            }
        }

        /// A special scalar object (`$date`, `$data`, `$uuid`), or nil when `object` is a record.
        static func special(_ object: [String: JSONValue]) throws -> Value? {
            guard object.count == 1, let (key, value) = object.first, key.hasPrefix("$") else {
                return nil
            }
            switch key {
            case "$date":
                let seconds: Double
                switch value {
                case .integer(let number): seconds = Double(number)
                case .double(let number): seconds = number
                default: throw Problem(description: "$date needs a number of seconds since 1970")
                }
                return .date(Date(timeIntervalSince1970: seconds))
            case "$data":
                guard case .string(let text) = value, let data = Data(base64Encoded: text) else {
                    throw Problem(description: "$data needs a base64 string")
                }
                return .data(data)
            case "$uuid":
                guard case .string(let text) = value, let uuid = UUID(uuidString: text) else {
                    throw Problem(description: "$uuid needs a UUID string")
                }
                return .uuid(uuid)
            default:
                return nil
            }
        }

        /// Whether `value` is one of the special objects, `$set` included.
        static func isSpecial(_ value: JSONValue) -> Bool {
            guard let object = value.members, object.count == 1, let key = object.keys.first
            else { return false }
            return ["$date", "$data", "$uuid", "$set"].contains(key)
        }

        /// The items of `{"$set": [...]}`, or nil.
        private static func setItems(_ object: [String: JSONValue]) -> [JSONValue]? {
            guard object.count == 1, case .array(let items) = object["$set"] else { return nil }
            return items
        }

        static func scalar(_ json: JSONValue) -> Value? {
            switch json {
            case .null: return .null
            case .bool(let flag): return .bool(flag)
            case .integer(let number): return .integer(number)
            case .double(let number): return .double(number)
            case .string(let text): return .string(text)
            case .array, .object: return nil
            }
        }

        /// A format argument: a scalar ``Value`` or, for collections, an ``Expression``.
        static func argument(_ json: JSONValue) throws -> Any? {
            if let value = scalar(json) { return value }
            return try expression(json)
        }

        /// A constant expression (records become the aggregate of their values).
        static func expression(_ json: JSONValue, depth: Int = 0) throws -> ObjectGraph.Expression {
            guard depth < maximumDepth else { throw Problem(description: "JSON nested too deeply") }
            if let value = scalar(json) { return .constant(value) }
            if case .array(let array) = json {
                return .aggregate(try array.map { try expression($0, depth: depth + 1) })
            }
            guard let object = json.members else {
                throw Problem(description: "unsupported JSON value")
            }
            if let value = try special(object) { return .constant(value) }
            if let items = setItems(object) {
                return .aggregate(try items.map { try expression($0, depth: depth + 1) })
            }
            return .aggregate(
                try object.keys.sorted().compactMap { key in
                    try object[key].map { try expression($0, depth: depth + 1) }
                })
        }

        /// An evaluation value: records are key-value objects, arrays collections.
        static func evaluationValue(_ json: JSONValue, depth: Int = 0) throws -> EvaluationValue {
            guard depth < maximumDepth else { throw Problem(description: "JSON nested too deeply") }
            if let value = scalar(json) { return .value(value) }
            if case .array(let array) = json {
                return .collection(try array.map { try evaluationValue($0, depth: depth + 1) })
            }
            guard let object = json.members else {
                throw Problem(description: "unsupported JSON value")
            }
            if let value = try special(object) { return .value(value) }
            if let items = setItems(object) {
                return .collection(try items.map { try evaluationValue($0, depth: depth + 1) })
            }
            return .dictionary(try object.mapValues { try evaluationValue($0, depth: depth + 1) })
        }
    }
}
