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
               objectgraph predicate --jsonl [--max-line-bytes <n>]

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
          --max-line-bytes <n>  With --jsonl, the longest request line read, in bytes
                                (default 16777216, 16 MiB). A longer line is not kept in
                                memory: it is answered {"ok":false,"error":"line N is S bytes,
                                more than the limit of L bytes (--max-line-bytes)"}, the
                                message also goes to standard error, the stream goes on, and
                                the exit status is 2.
          -h, --help            Shows this help.

        MEMORY (--jsonl):
          A request line is held once and checked without building anything; its objects
          are then read, evaluated and dropped one at a time. Memory stays within about
          three times the longest line, plus up to about 40 times the JSON size of the
          largest single object (and of "args" and "variables") while it is evaluated:
          each JSON value becomes an evaluator value of up to about 80 bytes, and an
          array element such as '1,' takes 2 bytes of JSON.

        JSON VALUES:
          null is nil; objects are records (nested objects are to-one relationships, arrays of
          objects to-many); {"$date": <seconds since 1970>} is a date, {"$set": [...]} a set,
          {"$data": "<base64>"} data, {"$uuid": "..."} a UUID.

        EXIT STATUS:
          0  Success (with --jsonl: every line was answered, errors included).
          1  The format does not parse.
          2  Usage error; with --jsonl, standard input cannot be read (for example, it is a
             folder) or a line was longer than --max-line-bytes.

        """

    static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        var formatArguments: [Any?] = []
        var variables: [String: Expression] = [:]
        var format: String?
        var jsonl = false
        var maximumLineBytes: Int?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--jsonl":
                jsonl = true
            case "--max-line-bytes":
                guard let text = rest.popFirst(), let value = Int(text), value > 0 else {
                    return usageError("--max-line-bytes needs a positive number of bytes", io: io)
                }
                maximumLineBytes = value
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
            return JSONLines.run(
                io: io, maximumLineBytes: maximumLineBytes ?? JSONLines.defaultMaximumLineBytes)
        }
        guard maximumLineBytes == nil else {
            return usageError("--max-line-bytes applies to --jsonl", io: io)
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
