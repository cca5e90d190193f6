import Foundation
import ObjectGraphCLI
import Testing

@Suite("objectgraph query --explain")
struct QueryExplainTests {
    /// Runs `query --explain` on the league store of ``DumpCommandTests/makeStore(in:)``.
    static func explain(_ predicate: String, extra: [String] = []) throws -> (Int32, BufferIO) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (model, store) = try DumpCommandTests.makeStore(in: folder)
        let io = BufferIO()
        let status = CommandLineTool.run(
            ["query", "--model", model.path, "--entity", "Person", "--explain"] + extra + [
                store.path, predicate,
            ], io: io)
        return (status, io)
    }

    @Test("the SQL, SQLite's plan as a tree, and nothing in memory")
    func plan() throws {
        let (status, io) = try Self.explain("name == 'Ann'", extra: ["--sort", "born"])
        #expect(status == 0)
        let lines = io.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "fetch Person from the SQLite store")
        #expect(
            lines.contains { $0.hasPrefix("sql (the fetch): SELECT ") && $0.contains("ZPERSON") })
        #expect(lines.contains("arguments: 'Ann'"))
        #expect(lines.contains("QUERY PLAN"))
        #expect(lines.contains { $0.hasPrefix("├─ SCAN ") || $0.hasPrefix("└─ SCAN ") })
        #expect(lines.contains { $0.contains("[every row is read]") })
        #expect(lines.contains { $0.contains("USE TEMP B-TREE FOR ORDER BY") })
        #expect(lines.last == "in memory: nothing")
    }

    @Test("a predicate without a SQL translation: what runs in memory, and why")
    func inMemory() throws {
        let (status, io) = try Self.explain("name.intValue > 0")
        #expect(status == 0)
        #expect(io.output.contains("sql (every row, for the in-memory evaluator): SELECT "))
        #expect(
            io.output.contains("in memory: the predicate `name.intValue > 0`: cannot translate"))
    }

    @Test("--sql and --explain together are a usage error")
    func both() throws {
        let (status, _) = try Self.explain("name == 'Ann'", extra: ["--sql"])
        #expect(status == 2)
    }
}
