import Foundation
import ObjectGraphCLI
import Testing

/// A temporary XDG config folder for `objectgraph defaults`; the real home is never touched.
private struct DefaultsFixture {
    let folder: URL
    let identifier = "com.example.cli"

    init() throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("DefaultsCommandTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    var environment: [String: String] {
        [
            "XDG_CONFIG_HOME": folder.path, "XDG_DATA_HOME": folder.path,
            "XDG_CACHE_HOME": folder.path, "HOME": folder.path,
        ]
    }

    var plist: URL {
        folder.appendingPathComponent("\(identifier)/\(identifier).plist")
    }

    /// Runs `objectgraph defaults <arguments>`.
    func run(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        let io = BufferIO(environment: environment)
        let status = CommandLineTool.run(["defaults"] + arguments, io: io)
        return (status, io.output, io.errorOutput)
    }

    /// Runs `binary defaults <arguments>` once per list, all at the same time, and returns
    /// their exit statuses once all have ended.
    func runConcurrently(_ binary: URL, _ argumentLists: [[String]]) throws -> [Int32] {
        let processes = try argumentLists.map { arguments -> Process in
            let process = Process()
            process.executableURL = binary
            process.arguments = ["defaults"] + arguments
            process.environment = environment
            try process.run()
            return process
        }
        return processes.map { process in
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    func stored() throws -> [String: Any] {
        let data = try Data(contentsOf: plist)
        return try PropertyListSerialization.propertyList(from: data, format: nil)
            as? [String: Any] ?? [:]
    }
}

/// The built `objectgraph` executable next to the test bundle, if there is one.
private let objectgraphBinary: URL? = {
    var candidates: [URL] = []
    let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    candidates.append(exe.deletingLastPathComponent().appendingPathComponent("objectgraph"))
    if let first = CommandLine.arguments.first {
        let runner = URL(fileURLWithPath: first).resolvingSymlinksInPath()
        candidates.append(runner.deletingLastPathComponent().appendingPathComponent("objectgraph"))
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    candidates.append(root.appendingPathComponent(".build/debug/objectgraph"))
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
}()

@Suite struct DefaultsCommandTests {
    @Test func helpIsListed() {
        let io = BufferIO()
        #expect(CommandLineTool.run(["--help"], io: io) == 0)
        #expect(io.output.contains("defaults"))
        let help = BufferIO()
        #expect(CommandLineTool.run(["defaults", "--help"], io: help) == 0)
        #expect(help.output.contains("USAGE: objectgraph defaults read"))
    }

    @Test func writeThenReadAString() throws {
        let fixture = try DefaultsFixture()
        defer { fixture.remove() }
        #expect(fixture.run(["write", fixture.identifier, "name", "Ada Lovelace"]).status == 0)
        let read = fixture.run(["read", fixture.identifier, "name"])
        #expect(read.status == 0)
        #expect(read.output == "Ada Lovelace\n")
        #expect(try fixture.stored()["name"] as? String == "Ada Lovelace")
    }

    @Test func everyTypeFlag() throws {
        let fixture = try DefaultsFixture()
        defer { fixture.remove() }
        let id = fixture.identifier
        let writes: [[String]] = [
            ["s", "-string", "text"], ["i", "-int", "42"], ["j", "-integer", "-7"],
            ["f", "-float", "2.5"], ["b", "-bool", "YES"], ["n", "-boolean", "false"],
            ["d", "-date", "2024-05-01T12:00:00Z"], ["x", "-data", "00ff10"],
            ["a", "-array", "one", "two"], ["m", "-dict", "k1", "v1", "k2", "v2"],
            ["p", "(red, green)"],
        ]
        for write in writes {
            let result = fixture.run(["write", id] + write)
            #expect(result.status == 0, "\(write): \(result.error)")
        }
        #expect(fixture.run(["write", id, "a", "-array-add", "three"]).status == 0)
        #expect(fixture.run(["write", id, "m", "-dict-add", "k3", "v3"]).status == 0)

        let stored = try fixture.stored()
        #expect(stored["s"] as? String == "text")
        #expect(stored["i"] as? Int == 42)
        #expect(stored["j"] as? Int == -7)
        #expect(stored["f"] as? Double == 2.5)
        #expect(stored["b"] as? Bool == true)
        #expect(stored["n"] as? Bool == false)
        #expect(stored["d"] as? Date == Date(timeIntervalSince1970: 1_714_564_800))
        #expect(stored["x"] as? Data == Data([0x00, 0xFF, 0x10]))
        #expect(stored["a"] as? [String] == ["one", "two", "three"])
        #expect(stored["m"] as? [String: String] == ["k1": "v1", "k2": "v2", "k3": "v3"])
        #expect(stored["p"] as? [String] == ["red", "green"])

        let types = [
            "s": "string", "i": "integer", "f": "float", "b": "boolean", "d": "date",
            "x": "data", "a": "array", "m": "dictionary",
        ]
        for (key, type) in types {
            #expect(fixture.run(["read-type", id, key]).output == "Type is \(type)\n")
        }
        #expect(fixture.run(["read", id, "i"]).output == "42\n")
        #expect(fixture.run(["read", id, "b"]).output == "1\n")
        #expect(fixture.run(["read", id, "d"]).output == "2024-05-01 12:00:00 +0000\n")
        #expect(fixture.run(["read", id, "a"]).output == "(\n    one,\n    two,\n    three\n)\n")
    }

    @Test func readingTheWholeDomain() throws {
        let fixture = try DefaultsFixture()
        defer { fixture.remove() }
        let id = fixture.identifier
        _ = fixture.run(["write", id, "volume", "-int", "7"])
        _ = fixture.run(["write", id, "name", "Ada Lovelace"])
        let read = fixture.run(["read", id])
        #expect(read.status == 0)
        #expect(read.output == "{\n    name = \"Ada Lovelace\";\n    volume = 7;\n}\n")
    }

    @Test func deleting() throws {
        let fixture = try DefaultsFixture()
        defer { fixture.remove() }
        let id = fixture.identifier
        _ = fixture.run(["write", id, "a", "1"])
        _ = fixture.run(["write", id, "b", "2"])
        #expect(fixture.run(["delete", id, "a"]).status == 0)
        #expect(try fixture.stored()["a"] == nil)
        #expect(try fixture.stored()["b"] as? String == "2")
        let missing = fixture.run(["delete", id, "a"])
        #expect(missing.status == 1)
        #expect(missing.error.contains("does not exist"))
        #expect(fixture.run(["delete", id]).status == 0)
        #expect(try fixture.stored().isEmpty)
        #expect(fixture.run(["read", id]).status == 1)
    }

    @Test func missingThingsAreFindings() throws {
        let fixture = try DefaultsFixture()
        defer { fixture.remove() }
        let domain = fixture.run(["read", "com.example.none"])
        #expect(domain.status == 1)
        #expect(domain.error.contains("Domain com.example.none does not exist"))
        _ = fixture.run(["write", fixture.identifier, "a", "1"])
        let key = fixture.run(["read", fixture.identifier, "nope"])
        #expect(key.status == 1)
        #expect(key.error == "The domain/default pair of (com.example.cli, nope) does not exist\n")
    }

    @Test(arguments: [
        ["frobnicate", "com.example.cli"], ["read"], ["write", "com.example.cli"],
        ["write", "com.example.cli", "k"], ["write", "com.example.cli", "k", "-int", "x"],
        ["write", "com.example.cli", "k", "-bool", "maybe"],
        ["write", "com.example.cli", "k", "-dict", "odd"],
        ["write", "com.example.cli", "k", "-weird", "1"], ["read", "../etc"], ["read", "a/b"],
        ["read", "com.example.cli", "--root"],
    ])
    func usageErrors(arguments: [String]) throws {
        let fixture = try DefaultsFixture()
        defer { fixture.remove() }
        let result = fixture.run(arguments)
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("error: "))
        #expect(result.error.contains("hint: run 'objectgraph defaults --help'"))
    }

    @Test func rootSelectsTheIOSLayout() throws {
        let fixture = try DefaultsFixture()
        defer { fixture.remove() }
        let root = fixture.folder.appendingPathComponent("Container")
        let result = fixture.run(["write", "app", "k", "v", "--root", root.path])
        #expect(result.status == 0)
        let file = root.appendingPathComponent("Library/Preferences/app.plist")
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(fixture.run(["read", "--root", root.path, "app", "k"]).output == "v\n")
    }

    @Test func aCorruptFileIsReportedAndReplaced() throws {
        let fixture = try DefaultsFixture()
        defer { fixture.remove() }
        _ = fixture.run(["write", fixture.identifier, "a", "1"])
        try Data("garbage {".utf8).write(to: fixture.plist)
        let write = fixture.run(["write", fixture.identifier, "b", "2"])
        #expect(write.status == 0)
        #expect(write.error.contains("is corrupt"))
        #expect(try fixture.stored()["b"] as? String == "2")
    }

    @Test(.enabled(if: objectgraphBinary != nil, "the objectgraph executable is not built"))
    func twoProcessesWritingConcurrentlyLoseNothing() throws {
        let fixture = try DefaultsFixture()
        defer { fixture.remove() }
        let binary = try #require(objectgraphBinary)
        let rounds = 60
        let statuses = try fixture.runConcurrently(
            binary,
            ["left", "right"].map { prefix in
                ["write", fixture.identifier, prefix, "-string", prefix, "--repeat", "\(rounds)"]
            })
        #expect(statuses == [0, 0])
        let stored = try fixture.stored()
        #expect(stored.count == 2 * rounds)
        for prefix in ["left", "right"] {
            for round in 0..<rounds {
                #expect(stored["\(prefix)-\(round)"] as? String == prefix)
            }
        }
    }

    /// Issue 15, case 2: four processes adding 100 elements each to one array (or keys to one
    /// dictionary) keep all 400. Each round is one `update` under the writers' lock.
    @Test(
        .enabled(if: objectgraphBinary != nil, "the objectgraph executable is not built"),
        arguments: ["-array-add", "-dict-add"])
    func concurrentAddsFromFourProcessesLoseNothing(flag: String) throws {
        let fixture = try DefaultsFixture()
        defer { fixture.remove() }
        let binary = try #require(objectgraphBinary)
        let rounds = 100
        let prefixes = ["p0", "p1", "p2", "p3"]
        let statuses = try fixture.runConcurrently(
            binary,
            prefixes.map { prefix in
                let values = flag == "-array-add" ? [prefix] : [prefix, "v"]
                return ["write", fixture.identifier, "k", flag] + values + [
                    "--repeat", "\(rounds)",
                ]
            })
        #expect(statuses == [0, 0, 0, 0])
        let stored = try fixture.stored()
        let expected = Set(prefixes.flatMap { prefix in (0..<rounds).map { "\(prefix)-\($0)" } })
        if flag == "-array-add" {
            let list = try #require(stored["k"] as? [String])
            #expect(list.count == expected.count)
            #expect(Set(list) == expected)
        } else {
            let dictionary = try #require(stored["k"] as? [String: String])
            #expect(Set(dictionary.keys) == expected)
        }
    }

    @Test func anAddToAValueOfAnotherTypeIsAnErrorAndChangesNothing() throws {
        let fixture = try DefaultsFixture()
        defer { fixture.remove() }
        _ = fixture.run(["write", fixture.identifier, "k", "-int", "3"])
        let before = try Data(contentsOf: fixture.plist)
        for arguments in [["-array-add", "x"], ["-dict-add", "a", "b"]] {
            let result = fixture.run(["write", fixture.identifier, "k"] + arguments)
            #expect(result.status == 2)
            #expect(result.error.contains("the existing value is not"))
        }
        #expect(try Data(contentsOf: fixture.plist) == before)
    }

    /// Issue 15, case 3: dates a property list cannot keep are an error naming the value and
    /// the range; nothing is written.
    @Test(arguments: [
        "5900000-01-01", "9999999-01-01T00:00:00Z", "10000-01-01T00:00:00Z",
        "9999-12-31T23:00:00-05:00", "0000-12-31T23:59:59Z", "-0001-01-01",
        "292277026596-12-04 15:30:07 +0000",
    ])
    func datesOutsideThePropertyListRangeAreRefused(text: String) throws {
        let fixture = try DefaultsFixture()
        defer { fixture.remove() }
        let result = fixture.run(["write", fixture.identifier, "d", "-date", text])
        #expect(result.status == 2)
        #expect(result.error.contains("'\(text)'"))
        #expect(
            result.error.contains("0001-01-01 00:00:00 +0000 through 9999-12-31 23:59:59 +0000"))
        #expect(!FileManager.default.fileExists(atPath: fixture.plist.path))
    }

    @Test(arguments: [
        ("0001-01-01", "0001-01-01 00:00:00 +0000"),
        ("1000-01-01T00:00:00Z", "1000-01-01 00:00:00 +0000"),
        ("9999-12-31T23:59:59Z", "9999-12-31 23:59:59 +0000"),
        ("2024-05-01T14:00:00+02:00", "2024-05-01 12:00:00 +0000"),
        ("2024-05-01 12:00:00 -0130", "2024-05-01 13:30:00 +0000"),
        ("2024-05-01 12:00:00", "2024-05-01 12:00:00 +0000"),
    ])
    func datesInsideTheRangeRoundTrip(text: String, printed: String) throws {
        let fixture = try DefaultsFixture()
        defer { fixture.remove() }
        #expect(fixture.run(["write", fixture.identifier, "d", "-date", text]).status == 0)
        #expect(fixture.run(["read", fixture.identifier, "d"]).output == printed + "\n")
    }

    @Test(arguments: ["2024-13-01", "2023-02-29", "20240501", "24-05-01", "2024-05-01T25:00:00Z"])
    func malformedDatesAreUsageErrors(text: String) throws {
        let fixture = try DefaultsFixture()
        defer { fixture.remove() }
        let result = fixture.run(["write", fixture.identifier, "d", "-date", text])
        #expect(result.status == 2)
        #expect(result.error.contains("'\(text)' is not a date"))
    }

    /// Issue 15: a read never changes a file, even one it cannot parse.
    @Test func readingACorruptFileIsAnErrorAndChangesNothing() throws {
        let fixture = try DefaultsFixture()
        defer { fixture.remove() }
        _ = fixture.run(["write", fixture.identifier, "a", "1"])
        let folder = fixture.plist.deletingLastPathComponent()
        try FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("<?xml version=\"1.0\"?><plist><dict><key>a".utf8).write(to: fixture.plist)
        func snapshot() throws -> [String: Data] {
            var contents: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                contents[name] = try Data(contentsOf: folder.appendingPathComponent(name))
            }
            return contents
        }
        let before = try snapshot()
        for arguments in [
            ["read"], ["read", "a"], ["read-type", "a"], ["delete", "a"], ["delete"],
        ] {
            let result = fixture.run([arguments[0], fixture.identifier] + arguments.dropFirst())
            #expect(result.status == 2, "\(arguments)")
            #expect(result.error.contains("cannot be read"), "\(arguments)")
            #expect(result.error.contains(fixture.plist.path), "\(arguments)")
        }
        #expect(try snapshot() == before)
    }

    @Test(.enabled(if: objectgraphBinary != nil, "the objectgraph executable is not built"))
    func changesAreSavedAtExit() throws {
        let fixture = try DefaultsFixture()
        defer { fixture.remove() }
        let binary = try #require(objectgraphBinary)
        let process = Process()
        process.executableURL = binary
        process.arguments = [
            "defaults", "write", fixture.identifier, "saved", "-int", "5",
            "--exit-without-synchronize",
        ]
        process.environment = fixture.environment
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try fixture.stored()["saved"] as? Int == 5)
    }
}
