import Foundation
import ObjectGraph

// Foundation also declares `Predicate` and `Expression`; these are ObjectGraph's.
fileprivate typealias Predicate = ObjectGraph.Predicate
fileprivate typealias Expression = ObjectGraph.Expression

/// `objectgraph predicate`: checks a predicate and prints its canonical form, or evaluates
/// predicates against JSON objects line by line (`--jsonl`).
struct PredicateCommand: Command {
    static let name = "predicate"
    static let abstract = "Check a predicate format string, or evaluate predicates (--jsonl)"
    static let help = """
        OVERVIEW: \(abstract)

        USAGE: objectgraph predicate [--arg <json>]... [--var <name>=<json>]... [--] <format>
               objectgraph predicate --jsonl

        ARGUMENTS:
          <format>              A predicate in Apple's format syntax, e.g. 'age > %@ AND name
                                BEGINSWITH[cd] $PREFIX'. Prints its canonical form (exit 0) or
                                the syntax error with a caret under the offset (exit 1).

        OPTIONS:
          --arg <json>          A format argument (%@, %K, %d…), as JSON; repeat in order.
          --var <name>=<json>   Substitutes $name with a JSON value.
          --jsonl               Reads one JSON object per line on standard input:
                                {"predicate": "...", "args": [...], "variables": {...},
                                 "objects": [{...}, ...]}
                                and writes one JSON line per input line:
                                {"ok":true,"format":"...","results":[true,false,null]} (null
                                where evaluating that object failed, explained in "errors"), or
                                {"ok":false,"error":"..."}.
          -h, --help            Shows this help.

        JSON VALUES:
          null is nil; objects are records (nested objects are to-one relationships, arrays of
          objects to-many); {"$date": <seconds since 1970>} is a date, {"$set": [...]} a set,
          {"$data": "<base64>"} data, {"$uuid": "..."} a UUID.

        """

    static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        var formatArguments: [Any?] = []
        var variables: [String: Expression] = [:]
        var format: String?
        var jsonl = false
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--jsonl":
                jsonl = true
            case "--":
                // Everything after `--` is the format, even when it starts with `-`.
                guard format == nil, let text = rest.popFirst(), rest.isEmpty else {
                    return usageError("expected exactly one format after '--'", io: io)
                }
                format = text
            case "--arg":
                guard let text = rest.popFirst() else {
                    return usageError("--arg needs a JSON value", io: io)
                }
                do {
                    formatArguments.append(try JSON.argument(JSON.parse(text)))
                } catch {
                    return usageError("--arg \(text): \(error)", io: io)
                }
            case "--var":
                guard let text = rest.popFirst(), let equals = text.firstIndex(of: "="),
                    equals != text.startIndex
                else {
                    return usageError("--var needs NAME=JSON", io: io)
                }
                let name = String(text[..<equals])
                do {
                    let json = try JSON.parse(String(text[text.index(after: equals)...]))
                    variables[name] = try JSON.expression(json)
                } catch {
                    return usageError("--var \(name): \(error)", io: io)
                }
            default:
                if argument.hasPrefix("--") {
                    return usageError("unknown option '\(argument)'", io: io)
                }
                guard format == nil else {
                    return usageError("unexpected argument '\(argument)'", io: io)
                }
                format = argument
            }
        }
        if jsonl {
            guard format == nil, formatArguments.isEmpty, variables.isEmpty else {
                return usageError("--jsonl reads everything from standard input", io: io)
            }
            JSONLines.run(io: io)
            return ExitStatus.success
        }
        guard let format else { return usageError("missing the predicate format", io: io) }
        do {
            var predicate = try Predicate(format: format, argumentArray: formatArguments)
            if !variables.isEmpty {
                predicate = predicate.withSubstitutionVariables(expressions: variables)
            }
            io.write(predicate.description + "\n")
            return ExitStatus.success
        } catch {
            io.write("error: \(error)\n")
            return ExitStatus.finding
        }
    }
}

/// The JSON conventions of `objectgraph predicate`: `null` is nil, objects are records,
/// `{"$date": secondsSince1970}`, `{"$set": [...]}`, `{"$data": "base64"}`, `{"$uuid": "..."}`.
extension PredicateCommand {
    fileprivate enum JSON {
        /// A JSON value that does not follow the conventions.
        struct Problem: Error, CustomStringConvertible {
            let description: String
        }

        /// The deepest nesting of arrays and objects accepted.
        static let maximumDepth = 200

        static func parse(_ text: String) throws -> Any {
            do {
                return try JSONSerialization.jsonObject(
                    with: Data(text.utf8), options: [.fragmentsAllowed])
            } catch {
                throw Problem(description: "invalid JSON")
            }
        }

        /// A special scalar object (`$date`, `$data`, `$uuid`), or nil when `object` is a record.
        static func special(_ object: [String: Any]) throws -> Value? {
            guard object.count == 1, let (key, value) = object.first, key.hasPrefix("$") else {
                return nil
            }
            switch key {
            case "$date":
                guard let number = value as? NSNumber, number.doubleValue.isFinite else {
                    throw Problem(description: "$date needs a number of seconds since 1970")
                }
                return .date(Date(timeIntervalSince1970: number.doubleValue))
            case "$data":
                guard let text = value as? String, let data = Data(base64Encoded: text) else {
                    throw Problem(description: "$data needs a base64 string")
                }
                return .data(data)
            case "$uuid":
                guard let text = value as? String, let uuid = UUID(uuidString: text) else {
                    throw Problem(description: "$uuid needs a UUID string")
                }
                return .uuid(uuid)
            default:
                return nil
            }
        }

        static func scalar(_ json: Any) -> Value? {
            if json is NSNull { return .null }
            if let text = json as? String { return .string(text) }
            if let number = json as? NSNumber {
                let objCType = String(cString: number.objCType)
                if objCType == "c", "\(type(of: number))".contains("Boolean") {
                    return .bool(number.boolValue)
                }
                switch objCType {
                case "f", "d": return .double(number.doubleValue)
                case "Q":
                    let n = number.uint64Value
                    return n <= UInt64(Int64.max) ? .integer(Int64(n)) : .double(number.doubleValue)
                default: return .integer(number.int64Value)
                }
            }
            return nil
        }

        /// A format argument: a scalar ``Value`` or, for collections, an ``Expression``.
        static func argument(_ json: Any) throws -> Any? {
            if let value = scalar(json) { return value }
            return try expression(json)
        }

        /// A constant expression (records become the aggregate of their values).
        static func expression(_ json: Any, depth: Int = 0) throws -> Expression {
            guard depth < maximumDepth else { throw Problem(description: "JSON nested too deeply") }
            if let value = scalar(json) { return .constant(value) }
            if let array = json as? [Any] {
                return .aggregate(try array.map { try expression($0, depth: depth + 1) })
            }
            if let object = json as? [String: Any] {
                if let value = try special(object) { return .constant(value) }
                if object.count == 1, let items = object["$set"] as? [Any] {
                    return .aggregate(try items.map { try expression($0, depth: depth + 1) })
                }
                return .aggregate(
                    try object.keys.sorted().compactMap { key in
                        try object[key].map { try expression($0, depth: depth + 1) }
                    })
            }
            throw Problem(description: "unsupported JSON value")
        }

        /// An evaluation value: records are key-value objects, arrays collections.
        static func evaluationValue(_ json: Any, depth: Int = 0) throws -> EvaluationValue {
            guard depth < maximumDepth else { throw Problem(description: "JSON nested too deeply") }
            if let value = scalar(json) { return .value(value) }
            if let array = json as? [Any] {
                return .collection(try array.map { try evaluationValue($0, depth: depth + 1) })
            }
            if let object = json as? [String: Any] {
                if let value = try special(object) { return .value(value) }
                if object.count == 1, let items = object["$set"] as? [Any] {
                    return .collection(try items.map { try evaluationValue($0, depth: depth + 1) })
                }
                var record: [String: EvaluationValue] = [:]
                for (key, value) in object {
                    record[key] = try evaluationValue(value, depth: depth + 1)
                }
                return .dictionary(record)
            }
            throw Problem(description: "unsupported JSON value")
        }
    }
}

/// The `--jsonl` protocol of `objectgraph predicate`: one request per input line, one response
/// per output line, in order, flushed each; a bad line gets an error response and the stream
/// goes on.
extension PredicateCommand {
    fileprivate enum JSONLines {
        static func run(io: CommandIO) {
            while let line = io.readLine() {
                io.write(respond(to: line) + "\n")
                io.flush()
            }
        }

        static func failure(_ message: String) -> String {
            "{\"ok\":false,\"error\":\(StringLiteral.quoted(message))}"
        }

        /// The response line for one request line.
        static func respond(to line: String) -> String {
            let json: Any
            do {
                json = try JSON.parse(line)
            } catch {
                return failure("invalid JSON")
            }
            guard let request = json as? [String: Any] else {
                return failure("a request must be a JSON object")
            }
            guard let format = request["predicate"] as? String else {
                return failure("missing \"predicate\" string")
            }
            var arguments: [Any?] = []
            var substitutions: [String: Expression] = [:]
            var variables: [String: EvaluationValue] = [:]
            var objects: [EvaluationValue] = []
            do {
                if let args = request["args"] {
                    guard let list = args as? [Any] else {
                        return failure("\"args\" must be an array")
                    }
                    arguments = try list.map { try JSON.argument($0) }
                }
                if let given = request["variables"] {
                    guard let dictionary = given as? [String: Any] else {
                        return failure("\"variables\" must be an object")
                    }
                    for (name, value) in dictionary {
                        variables[name] = try JSON.evaluationValue(value)
                        if let expression = try? JSON.expression(value),
                            !(value is [String: Any]) || isSpecial(value)
                        {
                            substitutions[name] = expression
                        }
                    }
                }
                if let given = request["objects"] {
                    guard let list = given as? [Any] else {
                        return failure("\"objects\" must be an array")
                    }
                    objects = try list.map { try JSON.evaluationValue($0) }
                }
            } catch {
                return failure("\(error)")
            }
            let predicate: Predicate
            do {
                predicate = try Predicate(format: format, argumentArray: arguments)
                    .withSubstitutionVariables(expressions: substitutions)
            } catch {
                return failure(error.message)
            }
            var results: [String] = []
            var errors: [String] = []
            var failed = false
            for object in objects {
                do {
                    results.append(
                        try predicate.evaluate(with: object, variables: variables)
                            ? "true" : "false")
                    errors.append("null")
                } catch {
                    failed = true
                    results.append("null")
                    errors.append(StringLiteral.quoted("\(error)"))
                }
            }
            var out = "{\"ok\":true,\"format\":\(StringLiteral.quoted(predicate.description))"
            out += ",\"results\":[" + results.joined(separator: ",") + "]"
            if failed { out += ",\"errors\":[" + errors.joined(separator: ",") + "]" }
            return out + "}"
        }

        private static func isSpecial(_ value: Any) -> Bool {
            guard let object = value as? [String: Any], object.count == 1,
                let key = object.keys.first
            else { return false }
            return ["$date", "$data", "$uuid", "$set"].contains(key)
        }
    }
}
