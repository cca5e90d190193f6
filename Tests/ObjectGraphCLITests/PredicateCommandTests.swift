import Foundation
import Testing

@testable import ObjectGraphCLI

/// `objectgraph predicate`: canonical form, syntax errors, and the `--jsonl` protocol.
@Suite struct PredicateCommandTests {
    private func run(_ arguments: [String], input: [String] = []) -> (Int32, BufferIO) {
        let io = BufferIO(input: input)
        let status = CommandLineTool.run(["predicate"] + arguments, io: io)
        return (status, io)
    }

    @Test func printsCanonicalForm() {
        let (status, io) = run(["name beginswith[cd] 'jo' && age >= 18"])
        #expect(status == 0)
        #expect(io.output == "name BEGINSWITH[cd] \"jo\" AND age >= 18\n")
    }

    @Test func formatAfterDoubleDash() {
        let (status, io) = run(["--", "--a == 1"])
        #expect(status == 0)
        #expect(io.output == "- -a == 1\n")
        #expect(run(["--", "a == 1", "b"]).0 == 2)
    }

    @Test func argumentsAndVariables() {
        let (status, io) = run([
            "--arg", "30", "--arg", "\"name\"", "--var", "P=\"x\"", "--arg", "{\"$date\": 0}",
            "--var", "S={\"$set\": [1, 2]}",
            "age > %@ AND %K BEGINSWITH $P AND born > %@ AND n IN $S AND m == $MISSING",
        ])
        #expect(status == 0)
        #expect(
            io.output
                == "age > 30 AND name BEGINSWITH \"x\" AND born > CAST(-978307200.0, \"NSDate\")"
                + " AND n IN {1, 2} AND m == $MISSING\n")
    }

    @Test func syntaxErrorIsAFindingWithCaret() {
        let (status, io) = run(["age >"])
        #expect(status == 1)
        #expect(
            io.output
                == "error: expected an expression but found end of input at offset 5\n  age >\n       ^\n"
        )
    }

    @Test func usageErrors() {
        #expect(run([]).0 == 2)
        #expect(run(["a == 1", "b == 2"]).0 == 2)
        #expect(run(["--arg"]).0 == 2)
        #expect(run(["--arg", "{bad", "a == %@"]).0 == 2)
        #expect(run(["--var", "novalue", "a == 1"]).0 == 2)
        #expect(run(["--bogus", "a == 1"]).0 == 2)
        #expect(run(["--jsonl", "a == 1"]).0 == 2)
        let (status, io) = run(["--help"])
        #expect(status == 0)
        #expect(io.output.contains("USAGE: objectgraph predicate"))
        #expect(
            run(["--arg", "1"]).1.errorOutput.contains("hint: run 'objectgraph predicate --help'"))
    }

    @Test func jsonLinesProtocol() throws {
        let input = [
            #"{"predicate": "age > %@ AND name BEGINSWITH[c] $P", "args": [30], "variables": {"P": "a"}, "objects": [{"age": 31, "name": "Ada"}, {"age": 3, "name": "Al"}, {"age": "x"}, {}]}"#,
            "not json",
            #"{"predicate": "a =="}"#,
            #"["not", "an", "object"]"#,
            #"{"objects": []}"#,
            #"{"predicate": "ANY kids.name == 'bo' AND dept.name == 'R'", "objects": [{"kids": [{"name": "bo"}], "dept": {"name": "R"}}, {"kids": [], "dept": null}]}"#,
            #"{"predicate": "d > %@ AND data == %@ AND id == %@ AND tags CONTAINS 2", "args": [{"$date": 0}, {"$data": "AQI="}, {"$uuid": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}], "objects": [{"d": {"$date": 1}, "data": {"$data": "AQI="}, "id": {"$uuid": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}, "tags": {"$set": [1, 2]}}]}"#,
            #"{"predicate": "name MATCHES '('", "objects": [{"name": "x"}, {"name": null}]}"#,
            #"{"predicate": "$who.age > 1", "variables": {"who": {"age": 2}}, "objects": [{}]}"#,
            "",
            #"{"predicate": "a == 1", "args": 5}"#,
            #"{"predicate": "d == %@", "args": [{"$date": "x"}]}"#,
        ]
        let (status, io) = run(["--jsonl"], input: input)
        #expect(status == 0)
        let lines = io.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == input.count)
        let expected = [
            #"{"ok":true,"format":"age > 30 AND name BEGINSWITH[c] \"a\"","results":[true,false,null,false],"errors":[null,null,"type mismatch: cannot order \"x\" and 30",null]}"#,
            #"{"ok":false,"error":"invalid JSON"}"#,
            #"{"ok":false,"error":"expected an expression but found end of input at offset 4"}"#,
            #"{"ok":false,"error":"a request must be a JSON object"}"#,
            #"{"ok":false,"error":"missing \"predicate\" string"}"#,
            #"{"ok":true,"format":"ANY kids.name == \"bo\" AND dept.name == \"R\"","results":[true,false]}"#,
            #"{"ok":true,"format":"d > CAST(-978307200.0, \"NSDate\") AND data == CAST(\"AQI=\", \"NSData\") AND id == CAST(\"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\", \"NSUUID\") AND tags CONTAINS 2","results":[true]}"#,
            #"{"ok":true,"format":"name MATCHES \"(\"","results":[null,false],"errors":["invalid regular expression \"(\": not a valid ICU regular expression",null]}"#,
            #"{"ok":true,"format":"$who.age > 1","results":[true]}"#,
            #"{"ok":false,"error":"invalid JSON"}"#,
            #"{"ok":false,"error":"\"args\" must be an array"}"#,
            #"{"ok":false,"error":"$date needs a number of seconds since 1970"}"#,
        ]
        for (line, want) in zip(lines, expected) {
            #expect(String(line) == want)
        }
        // Every response line is valid JSON.
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil)
        }
    }

    @Test func hostileLinesNeverStopTheStream() {
        let deepJSON = String(repeating: "[", count: 100_000)
        let deepPredicate = #"{"predicate": ""# + String(repeating: "(", count: 100_000) + #""}"#
        let wide =
            #"{"predicate": ""# + (0..<100_000).map { "a == \($0)" }.joined(separator: " OR ")
            + #"", "objects": [{"a": 99999}]}"#
        var nested = "1"
        for _ in 0..<1_000 { nested = "{\"a\": " + nested + "}" }
        let deepObject = #"{"predicate": "a != nil", "objects": ["# + nested + "]}"
        let input = [
            deepJSON, deepPredicate, wide, "\u{FFFD}\u{FFFD}{", deepObject,
            #"{"predicate": "a == 1", "objects": [{"a": 1}]}"#,
        ]
        let (status, io) = run(["--jsonl"], input: input)
        #expect(status == 0)
        let lines = io.output.split(separator: "\n")
        #expect(lines.count == input.count)
        #expect(lines[1].contains("at most 256 levels of nesting"))
        #expect(lines[2].hasSuffix(#""results":[true]}"#))
        #expect(lines[5] == #"{"ok":true,"format":"a == 1","results":[true]}"#)
    }
}

/// `predicate --jsonl` reads standard input within a line limit and reports read errors.
@Suite struct PredicateInputTests {
    @Test func aLineOverTheLimitIsRefusedAndTheStreamGoesOn() {
        let long =
            #"{"predicate": "a == 1", "objects": [{"a": "# + String(repeating: "1", count: 60)
            + "}]}"
        let io = BufferIO(input: [#"{"predicate": "a == 1"}"#, long, #"{"predicate": "b == 2"}"#])
        let status = CommandLineTool.run(
            ["predicate", "--jsonl", "--max-line-bytes", "64"], io: io)
        #expect(status == 2)
        let message =
            "line 2 is \(long.utf8.count) bytes, more than the limit of 64 bytes (--max-line-bytes)"
        #expect(
            io.output == #"{"ok":true,"format":"a == 1","results":[]}"# + "\n"
                + #"{"ok":false,"error":""# + message + "\"}\n"
                + #"{"ok":true,"format":"b == 2","results":[]}"# + "\n")
        #expect(io.errorOutput == "error: \(message)\n")
    }

    @Test func theLineLimitIsAnOptionOfJSONLines() {
        for arguments in [
            ["--jsonl", "--max-line-bytes"], ["--jsonl", "--max-line-bytes", "0"],
            ["--jsonl", "--max-line-bytes", "x"], ["--max-line-bytes", "10", "a == 1"],
        ] {
            #expect(CommandLineTool.run(["predicate"] + arguments, io: BufferIO()) == 2)
        }
        let help = BufferIO()
        _ = CommandLineTool.run(["predicate", "--help"], io: help)
        #expect(help.output.contains("--max-line-bytes <n>"))
        #expect(help.output.contains("default 16777216"))
        #expect(help.output.contains("MEMORY (--jsonl)"))
    }

    @Test func theReaderKeepsAtMostTheLimitOfALine() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("objectgraph-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("input.jsonl")
        let huge = String(repeating: "y", count: 200_000)
        let text =
            "a\n" + String(repeating: "x", count: 200) + "\nb\r\n\n" + huge + "\n" + huge + "\ntail"
        try Data(text.utf8).write(to: file)
        let descriptor = open(file.path, O_RDONLY)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        let reader = InputLineReader(fileDescriptor: descriptor)
        #expect(try reader.next(maximumBytes: 100) == .line("a"))
        #expect(try reader.next(maximumBytes: 100) == .tooLong(bytes: 200))
        #expect(try reader.next(maximumBytes: 100) == .line("b"))
        #expect(try reader.next(maximumBytes: 100) == .line(""))
        #expect(try reader.next(maximumBytes: 150_000) == .tooLong(bytes: 200_000))
        #expect(try reader.next(maximumBytes: 200_000) == .line(huge))
        #expect(try reader.next(maximumBytes: 100) == .line("tail"))
        #expect(try reader.next(maximumBytes: 100) == nil)
    }

    @Test func standardInputThatIsAFolderIsAnError() throws {
        let folder = FileManager.default.temporaryDirectory
        let descriptor = open(folder.path, O_RDONLY)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        let reader = InputLineReader(fileDescriptor: descriptor)
        #expect(throws: InputReadError.self) { try reader.next(maximumBytes: 100) }
        do {
            _ = try reader.next(maximumBytes: 100)
        } catch {
            #expect(error.description == "standard input is a directory")
        }
        let io = ReaderIO(reader)
        #expect(CommandLineTool.run(["predicate", "--jsonl"], io: io) == 2)
        #expect(io.output.isEmpty)
        #expect(io.errorOutput == "error: standard input is a directory\n")
    }

    @Test(.enabled(if: builtObjectgraph != nil, "the objectgraph executable is not built"))
    func theCommandFailsWhenStandardInputIsAFolder() throws {
        let binary = try #require(builtObjectgraph)
        let descriptor = open(FileManager.default.temporaryDirectory.path, O_RDONLY)
        #expect(descriptor >= 0)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["predicate", "--jsonl"]
        process.standardInput = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        process.waitUntilExit()
        let message = String(
            decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 2)
        #expect(message == "error: standard input is a directory\n")
    }

    @Test func theJSONReaderAcceptsWhatJSONAccepts() {
        let valid = [
            "0", "-0", "1.5e3", "-12.25E-2", "9223372036854775807", "18446744073709551616", "true",
            "null", #""a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00""#, " [ 1 , [ ] , { } ] ",
            #"{"a": {"b": [null]}, "a": 2}"#,
        ]
        for text in valid {
            #expect((try? JSONValue(parsing: text)) != nil, "\(text)")
        }
        let invalid = [
            "", "01", "1.", ".5", "+1", "1e", "[1,]", #"{"a" 1}"#, #"{"a":1,}"#, "[1 2]", "nul",
            #""\ud800""#, #""\x""#, "\"a\nb\"", #""abc"#, "[1] 2", "{1: 2}", "1e400",
            String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
        ]
        for text in invalid {
            #expect((try? JSONValue(parsing: text)) == nil, "\(text)")
        }
        guard case .string(let text) = try? JSONValue(parsing: #""a\u00e9\ud83d\ude00\n""#) else {
            Issue.record("not a string")
            return
        }
        #expect(text == "aé😀\n")
        guard case .integer(let big) = try? JSONValue(parsing: "9223372036854775807"),
            case .double(let bigger) = try? JSONValue(parsing: "18446744073709551616")
        else {
            Issue.record("numbers")
            return
        }
        #expect(big == Int64.max && bigger == 18_446_744_073_709_551_616)
    }
}

/// Command I/O whose standard input is an ``InputLineReader``; output is kept in memory.
private final class ReaderIO: CommandIO {
    private let reader: InputLineReader
    private(set) var output = ""
    private(set) var errorOutput = ""
    var environment: [String: String] { [:] }

    init(_ reader: InputLineReader) { self.reader = reader }

    func write(_ text: String) { output += text }
    func writeError(_ text: String) { errorOutput += text }
    func readLine() -> String? { nil }
    func readLine(maximumBytes: Int) throws(InputReadError) -> InputLine? {
        try reader.next(maximumBytes: maximumBytes)
    }
    func flush() {}
}

/// The `objectgraph` executable built beside the test runner, if there is one.
private let builtObjectgraph: URL? = {
    let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    let binary = runner.deletingLastPathComponent().appendingPathComponent("objectgraph")
    return FileManager.default.isExecutableFile(atPath: binary.path) ? binary : nil
}()
