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
