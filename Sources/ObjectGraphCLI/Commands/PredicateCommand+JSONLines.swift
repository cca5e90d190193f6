import Foundation
import ObjectGraph

// Foundation also declares `Predicate` and `Expression`; these are ObjectGraph's.
fileprivate typealias Predicate = ObjectGraph.Predicate
fileprivate typealias Expression = ObjectGraph.Expression

/// The `--jsonl` protocol of `objectgraph predicate`: one request per input line, one response
/// per output line, in order, flushed each; a bad line gets an error response and the stream
/// goes on.
///
/// Memory stays proportional to the input: a line is held once, checked without building
/// anything, and its objects are then read, evaluated and dropped one at a time; a line longer
/// than the limit is not held at all.
extension PredicateCommand {
    enum JSONLines {
        /// The default limit of `--max-line-bytes`: 16 MiB.
        static let defaultMaximumLineBytes = 16 * 1024 * 1024

        /// Answers every line of standard input; the exit status is 2 when standard input
        /// cannot be read or a line was refused for its length, else 0.
        static func run(io: CommandIO, maximumLineBytes: Int) -> Int32 {
            var number = 0
            var refused = false
            while true {
                let next: InputLine?
                do {
                    next = try io.readLine(maximumBytes: maximumLineBytes)
                } catch {
                    io.writeError("error: \(error)\n")
                    return ExitStatus.usage
                }
                guard let next else { break }
                number += 1
                switch next {
                case .line(let line):
                    io.write(respond(to: line) + "\n")
                case .tooLong(let bytes):
                    let message =
                        "line \(number) is \(bytes) bytes, more than the limit of "
                        + "\(maximumLineBytes) bytes (--max-line-bytes)"
                    io.write(failure(message) + "\n")
                    io.writeError("error: \(message)\n")
                    refused = true
                }
                io.flush()
            }
            return refused ? ExitStatus.usage : ExitStatus.success
        }

        static func failure(_ message: String) -> String {
            "{\"ok\":false,\"error\":\(StringLiteral.quoted(message))}"
        }

        /// The response line for one request line.
        static func respond(to line: String) -> String {
            var line = line
            return line.withUTF8 { respond(to: $0) }
        }

        /// The response to the request in `bytes`: the members are located first (the whole
        /// line is checked), then read one at a time.
        private static func respond(to bytes: UnsafeBufferPointer<UInt8>) -> String {
            let members: [String: Int]
            do {
                guard let found = try memberOffsets(bytes) else {
                    return failure("a request must be a JSON object")
                }
                members = found
            } catch {
                return failure("invalid JSON")
            }
            func value(_ key: String) -> JSONValue? {
                guard let offset = members[key] else { return nil }
                var scanner = JSONScanner(bytes, at: offset)
                return try? scanner.readValue(depth: 1)
            }
            guard case .string(let format) = value("predicate") else {
                return failure("missing \"predicate\" string")
            }
            var arguments: [Any?] = []
            var substitutions: [String: Expression] = [:]
            var variables: [String: EvaluationValue] = [:]
            do {
                if let args = value("args") {
                    guard case .array(let list) = args else {
                        return failure("\"args\" must be an array")
                    }
                    arguments = try list.map { try JSON.argument($0) }
                }
                if let given = value("variables") {
                    guard let dictionary = given.members else {
                        return failure("\"variables\" must be an object")
                    }
                    for (name, value) in dictionary {
                        variables[name] = try JSON.evaluationValue(value)
                        if value.members == nil || JSON.isSpecial(value),
                            let expression = try? JSON.expression(value)
                        {
                            substitutions[name] = expression
                        }
                    }
                }
            } catch {
                return failure("\(error)")
            }
            var objects = Objects(bytes: bytes, offset: members["objects"])
            guard objects.isArray else { return failure("\"objects\" must be an array") }
            let predicate: Predicate
            do {
                predicate = try Predicate(format: format, argumentArray: arguments)
                    .withSubstitutionVariables(expressions: substitutions)
            } catch {
                // An object that breaks the conventions is reported before the predicate.
                if let problem = objects.firstProblem() { return failure("\(problem)") }
                return failure(error.message)
            }
            var results = Results()
            do {
                while let object = try objects.next() {
                    do {
                        results.add(try predicate.evaluate(with: object, variables: variables))
                    } catch {
                        results.add(error: "\(error)")
                    }
                }
            } catch {
                return failure("\(error)")
            }
            return "{\"ok\":true,\"format\":\(StringLiteral.quoted(predicate.description))"
                + results.json + "}"
        }

        /// Where each member of the request object starts (the last of a repeated key), or nil
        /// when the line holds JSON that is not an object.
        /// - Throws: ``JSONScanner/Invalid`` when the line is not one JSON value.
        private static func memberOffsets(
            _ bytes: UnsafeBufferPointer<UInt8>
        ) throws(JSONScanner.Invalid) -> [String: Int]? {
            var scanner = JSONScanner(bytes)
            guard scanner.peek() == UInt8(ascii: "{") else {
                try scanner.skipValue()
                try scanner.expectEnd()
                return nil
            }
            var offsets: [String: Int] = [:]
            try scanner.container(depth: 0, close: UInt8(ascii: "}")) {
                scanner throws(JSONScanner.Invalid) in
                let key = try scanner.readKey()
                _ = scanner.peek()
                offsets[key] = scanner.offset
                try scanner.skipValue(depth: 1)
            }
            try scanner.expectEnd()
            return offsets
        }
    }
}
