import Foundation
import Testing

@testable import ObjectGraph

/// The `objectgraph` tool, run as a process, with PostgreSQL URLs where it takes a store
/// (`convert`, `dump`, `query`, `migrate`, `history`). Here rather than in the CLI tests: these
/// need the test server of ``TestPostgresServer``.
@Suite("objectgraph with PostgreSQL URLs")
struct PostgresCommandLineTests {
    /// The built `objectgraph` beside this test runner, or in `.build/debug`.
    static func tool() throws -> URL {
        let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let candidates = [
            runner.deletingLastPathComponent().appendingPathComponent("objectgraph"),
            TestSupport.packageRoot.appendingPathComponent(".build/debug/objectgraph"),
        ]
        return try #require(
            candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) },
            "objectgraph is not built (swift build --product objectgraph)")
    }

    /// Runs `objectgraph arguments`: its status, standard output and standard error.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String)
    {
        let process = Process()
        process.executableURL = try tool()
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaints = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: printed, as: UTF8.self),
            String(decoding: complaints, as: UTF8.self)
        )
    }

    /// A URL of a fresh schema on the test server carrying the password `password` (the
    /// server trusts local connections: the password is only there to be hidden).
    static func urlWithPassword(_ password: String) throws -> String {
        let server = try TestPostgresServer.require()
        return "postgresql:///\(server.database)?host=\(server.folder.path)&user=\(server.user)"
            + "&password=\(password)&schema=" + TestPostgresServer.freshSchema()
    }

    /// `dump`'s lines with store UUIDs replaced.
    static func normalized(_ dump: String) -> String {
        dump.replacing(/x-coredata:\/\/[0-9A-Fa-f-]+\//, with: "x-coredata://STORE/")
    }

    @Test("convert into PostgreSQL and back, dump and query a URL: the same objects, no password")
    func convertDumpQuery() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let bundle = try MigrationFlowSupport.writeBundle(
            named: "Moods", versions: [MigrationFlowSupport.moodVersions[0]], in: folder)
        let model = try ModelBundle(contentsOf: bundle).model(named: "Moods")
        let phone = folder.appendingPathComponent("Phone.sqlite")
        try MigrationFlowSupport.writeMoods(.sqlite, at: phone, model: model)
        let secret = "pw-\(UUID().uuidString.prefix(8))"
        let url = try Self.urlWithPassword(secret)

        let into = try Self.run([
            "convert", "--quiet", "--model", bundle.path, "--to", "postgres", phone.path, url,
        ])
        #expect(into.status == 0, "\(into.errors)")
        #expect(into.output.contains("(PostgreSQL)") && into.output.contains("5 objects"))
        #expect(into.output.contains("***") && !(into.output + into.errors).contains(secret))

        let original = try Self.run(["dump", "--quiet", "--model", bundle.path, phone.path])
        let server = try Self.run(["dump", "--quiet", "--model", bundle.path, url])
        #expect(server.status == 0, "\(server.errors)")
        #expect(server.output.split(separator: "\n").count == 5)
        #expect(Self.normalized(server.output) == Self.normalized(original.output))

        let query = try Self.run([
            "query", "--model", bundle.path, "--entity", "Mood", "--sort", "score:desc", url,
            "score > 1",
        ])
        #expect(query.status == 0, "\(query.errors)")
        let names = query.output.split(separator: "\n").map {
            $0.contains("\"calm\"") ? "calm" : $0.contains("\"happy\"") ? "happy" : "?"
        }
        #expect(names == ["calm", "happy"])

        let back = folder.appendingPathComponent("Back.sqlite")
        let out = try Self.run(["convert", "--quiet", "--model", bundle.path, url, back.path])
        #expect(out.status == 0, "\(out.errors)")
        #expect(!(out.output + out.errors).contains(secret))
        let returned = try Self.run(["dump", "--quiet", "--model", bundle.path, back.path])
        #expect(Self.normalized(returned.output) == Self.normalized(original.output))

        // The schema holds a store now: converting into it again is refused.
        let again = try Self.run([
            "convert", "--quiet", "--model", bundle.path, phone.path, url,
        ])
        #expect(again.status == 2)
        #expect(
            again.errors.contains("already there") && !again.errors.contains(secret),
            "\(again.errors)")
    }

    @Test("migrate and history take a URL; a store's password never shows")
    func migrateAndHistory() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let bundle = try MigrationFlowSupport.writeBundle(
            named: "Moods", versions: MigrationFlowSupport.moodVersions, in: folder)
        let models = try ModelBundle(contentsOf: bundle)
        let secret = "pw-\(UUID().uuidString.prefix(8))"
        let text = try Self.urlWithPassword(secret)
        let url = try #require(URL(string: text))
        try MigrationFlowSupport.writeMoods(.postgres, at: url, model: models.model(named: "Moods"))

        let plan = try Self.run(["migrate", "--dry-run", "--model", bundle.path, text])
        #expect(plan.status == 0, "\(plan.errors)")
        #expect(plan.output.contains("Moods → Moods 2"))
        let migrated = try Self.run(["migrate", "--quiet", "--model", bundle.path, text])
        #expect(migrated.status == 0, "\(migrated.errors)")
        #expect(migrated.output.contains("migrated to Moods 3 in 2 steps"))
        #expect(migrated.output.contains("***") && !migrated.output.contains(secret))
        let done = try Self.run(["migrate", "--model", bundle.path, text])
        #expect(done.output.contains("already at Moods 3"), "\(done.output) \(done.errors)")

        let coordinator = StoreCoordinator(model: try models.model(named: "Moods 3"))
        try coordinator.addStore(type: .postgres, at: url, options: StoreOptions(isReadOnly: true))
        let contents = try MigrationFlowSupport.contents(coordinator)
        #expect(contents.people == ["Ann": ["calm", "happy", "tired"], "Bob": []])
        #expect(contents.moods == ["happy": [3, 0], "calm": [5, 0], "tired": [1, 0]])

        // Whatever history the store keeps comes out as transactions, and no password.
        let history = try Self.run(["history", "--model", bundle.path, text])
        #expect(history.status == 0, "\(history.errors)")
        for line in history.output.split(separator: "\n") {
            #expect(line.contains("\"type\":\"transaction\""))
        }
        #expect(!(history.output + history.errors).contains(secret))

        // Without --model: a PostgreSQL store keeps no model to fall back on.
        let bare = try Self.run(["dump", text])
        #expect(bare.status == 2)
        #expect(bare.errors.contains("--model") && !bare.errors.contains(secret), "\(bare.errors)")
    }
}
