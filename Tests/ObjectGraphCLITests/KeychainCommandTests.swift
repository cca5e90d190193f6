import Foundation
import ObjectGraphCLI
import Testing

/// A keychain under a temporary `XDG_DATA_HOME`, driven through `CommandLineTool.run`.
private struct KeychainCommandFixture {
    let root: URL
    static let passphrase = "cli passphrase"

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("KeychainCommandTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    var environment: [String: String] {
        [
            "XDG_DATA_HOME": root.appendingPathComponent("data").path, "HOME": root.path,
            "OBJECTGRAPH_KEYCHAIN_PASSPHRASE": Self.passphrase,
            "OBJECTGRAPH_KEYCHAIN_SCRYPT_LOG2N": "10",
        ]
    }

    var databasePath: String {
        root.appendingPathComponent("data/objectgraph/keychain/keychain.sqlite").path
    }

    func run(
        _ arguments: [String], environment: [String: String]? = nil, input: [String] = []
    ) -> (status: Int32, output: String, error: String) {
        let io = BufferIO(input: input, environment: environment ?? self.environment)
        let status = CommandLineTool.run(["keychain"] + arguments, io: io)
        return (status, io.output, io.errorOutput)
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }
}

@Suite struct KeychainCommandTests {
    @Test func helpIsListed() {
        let io = BufferIO()
        #expect(CommandLineTool.run(["--help"], io: io) == 0)
        #expect(io.output.contains("keychain"))
        let help = BufferIO()
        #expect(CommandLineTool.run(["keychain", "--help"], io: help) == 0)
        #expect(help.output.contains("add-generic-password -s <service>"))
        #expect(help.output.contains("OBJECTGRAPH_KEYCHAIN_PASSPHRASE"))
    }

    @Test func addFindUpdateDelete() throws {
        let fixture = try KeychainCommandFixture()
        defer { fixture.remove() }
        let add = fixture.run([
            "add-generic-password", "-s", "com.example.mail", "-a", "ada", "-w", "pa55word",
            "-l", "Mail", "-j", "work account",
        ])
        #expect(add.status == 0)
        #expect(add.error.contains("created the keychain"))
        #expect(FileManager.default.fileExists(atPath: fixture.databasePath))

        let password = fixture.run(["find-generic-password", "-s", "com.example.mail", "-w"])
        #expect(password.status == 0)
        #expect(password.output == "pa55word\n")

        let attributes = fixture.run([
            "find-generic-password", "-s", "com.example.mail", "-a", "ada",
        ])
        #expect(attributes.status == 0)
        #expect(attributes.output.contains("\"acct\"<blob>=\"ada\""))
        #expect(attributes.output.contains("\"svce\"<blob>=\"com.example.mail\""))
        #expect(attributes.output.contains("\"labl\"<blob>=\"Mail\""))
        #expect(attributes.output.contains("\"icmt\"<blob>=\"work account\""))
        #expect(!attributes.output.contains("pa55word"))

        let duplicate = fixture.run([
            "add-generic-password", "-s", "com.example.mail", "-a", "ada", "-w", "other",
        ])
        #expect(duplicate.status == 1)
        #expect(duplicate.error.contains("duplicateItem"))
        #expect(!duplicate.error.contains("other"))

        let update = fixture.run([
            "add-generic-password", "-s", "com.example.mail", "-a", "ada", "-w", "n3w", "-U",
        ])
        #expect(update.status == 0)
        #expect(
            fixture.run(["find-generic-password", "-s", "com.example.mail", "-a", "ada", "-w"])
                .output == "n3w\n")

        let delete = fixture.run([
            "delete-generic-password", "-s", "com.example.mail", "-a", "ada",
        ])
        #expect(delete.status == 0)
        #expect(delete.output.contains("password has been deleted."))
        let missing = fixture.run(["find-generic-password", "-s", "com.example.mail"])
        #expect(missing.status == 1)
        #expect(missing.error.contains("itemNotFound"))
        #expect(
            fixture.run(["delete-generic-password", "-s", "com.example.mail"]).status == 1)
    }

    @Test func dumpShowsAttributesOnly() throws {
        let fixture = try KeychainCommandFixture()
        defer { fixture.remove() }
        for (service, secret) in [("one", "first-secret"), ("two", "second-secret")] {
            #expect(
                fixture.run(["add-generic-password", "-s", service, "-a", "ada", "-w", secret])
                    .status == 0)
        }
        let dump = fixture.run(["dump"])
        #expect(dump.status == 0)
        #expect(dump.output.components(separatedBy: "class: \"genp\"").count == 3)
        #expect(dump.output.contains("\"svce\"<blob>=\"one\""))
        #expect(dump.output.contains("\"svce\"<blob>=\"two\""))
        #expect(!dump.output.contains("first-secret"))
        #expect(!dump.output.contains("second-secret"))
    }

    @Test func wrongOrMissingPassphrase() throws {
        let fixture = try KeychainCommandFixture()
        defer { fixture.remove() }
        #expect(
            fixture.run(["add-generic-password", "-s", "s", "-a", "a", "-w", "secret-value"])
                .status == 0)
        var wrong = fixture.environment
        wrong["OBJECTGRAPH_KEYCHAIN_PASSPHRASE"] = "not the passphrase"
        let denied = fixture.run(["find-generic-password", "-s", "s", "-w"], environment: wrong)
        #expect(denied.status == 2)
        #expect(denied.error.contains("authFailed"))
        #expect(denied.output.isEmpty)
        #expect(!denied.error.contains("not the passphrase"))

        var none = fixture.environment
        none["OBJECTGRAPH_KEYCHAIN_PASSPHRASE"] = nil
        let noPassphrase = fixture.run(
            ["find-generic-password", "-s", "s", "-w"], environment: none)
        #expect(noPassphrase.status == 2)
        #expect(noPassphrase.error.contains("hint: set OBJECTGRAPH_KEYCHAIN_PASSPHRASE"))
    }

    @Test func keyFileReadsAfterFirstUnlockItemsUnattended() throws {
        let fixture = try KeychainCommandFixture()
        defer { fixture.remove() }
        #expect(
            fixture.run([
                "add-generic-password", "-s", "daemon", "-a", "svc", "-w", "bg-secret",
                "--after-first-unlock",
            ]).status == 0)
        #expect(
            fixture.run(["add-generic-password", "-s", "user", "-a", "ada", "-w", "fg-secret"])
                .status == 0)
        let created = fixture.run(["create-key-file"])
        #expect(created.status == 0)
        #expect(created.output.contains("keychain.key"))
        var unattended = fixture.environment
        unattended["OBJECTGRAPH_KEYCHAIN_PASSPHRASE"] = nil
        let background = fixture.run(
            ["find-generic-password", "-s", "daemon", "-w"], environment: unattended)
        #expect(background.status == 0)
        #expect(background.output == "bg-secret\n")
        let foreground = fixture.run(
            ["find-generic-password", "-s", "user", "-w"], environment: unattended)
        #expect(foreground.status == 2)
        #expect(foreground.error.contains("interactionNotAllowed"))
        #expect(foreground.output.isEmpty)
    }

    @Test func usageErrors() throws {
        let fixture = try KeychainCommandFixture()
        defer { fixture.remove() }
        #expect(fixture.run([]).status == 2)
        #expect(fixture.run(["frobnicate"]).status == 2)
        #expect(fixture.run(["add-generic-password", "-s", "s"]).status == 2)
        #expect(fixture.run(["add-generic-password", "-s", "s", "-a", "a"]).status == 2)
        #expect(fixture.run(["find-generic-password", "-s"]).status == 2)
        #expect(fixture.run(["find-generic-password", "--bogus"]).status == 2)
        #expect(fixture.run(["delete-generic-password"]).status == 2)
        let missing = fixture.run(["find-generic-password", "-s", "s"])
        #expect(missing.status == 1)
        #expect(missing.error.contains("noSuchKeychain"))
    }

    @Test func passwordAskedForWhenDashWComesLast() throws {
        let fixture = try KeychainCommandFixture()
        defer { fixture.remove() }
        // Not a terminal: the first line of standard input.
        let add = fixture.run(
            ["add-generic-password", "-s", "piped", "-a", "ada", "-w"], input: ["from stdin"])
        #expect(add.status == 0)
        let found = fixture.run(["find-generic-password", "-s", "piped", "-w"])
        #expect(found.output == "from stdin\n")
        // Nothing on standard input: a usage error, and nothing added.
        let empty = fixture.run(["add-generic-password", "-s", "none", "-a", "ada", "-w"])
        #expect(empty.status == 2)
        #expect(empty.error.contains("no password on standard input"))
        #expect(fixture.run(["find-generic-password", "-s", "none"]).status == 1)
        // `-w` followed by an argument still takes it as the password.
        let given = fixture.run(["add-generic-password", "-s", "given", "-a", "ada", "-w", "-U"])
        #expect(given.status == 0)
        #expect(fixture.run(["find-generic-password", "-s", "given", "-w"]).output == "-U\n")
        let missing = fixture.run(["add-generic-password", "-s", "x", "-a", "ada"])
        #expect(missing.status == 2)
        #expect(missing.error.contains("-w [<password>]"))
    }

    @Test func attributesAreQuotedAsLiterals() throws {
        let fixture = try KeychainCommandFixture()
        defer { fixture.remove() }
        let comment = "say \"hi\" \\ then\na new line"
        let add = fixture.run([
            "add-generic-password", "-s", "quoting", "-a", "ada", "-w", "pw", "-j", comment,
        ])
        #expect(add.status == 0)
        let found = fixture.run(["find-generic-password", "-s", "quoting"])
        #expect(found.status == 0)
        // One line per attribute: the backslash and the line feed are escaped too.
        #expect(found.output.contains(#"    "icmt"<blob>="say \"hi\" \\ then\na new line""# + "\n"))
    }
}
