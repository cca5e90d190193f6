import Foundation
import ObjectGraphCLI
import Testing

@Suite("objectgraph query: predicates SQLite cannot take")
struct QueryFallbackTests {
    @Test("a predicate too deep for SQLite's parser is answered, and --sql says why")
    func deepPredicate() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (model, store) = try DumpCommandTests.makeStore(in: folder)
        // NOT (… OR NOT (… OR …)) alternates and cannot be flattened; 60 negations cancel.
        let deep =
            String(repeating: "NOT (name == 'Zed' OR ", count: 60) + "name BEGINSWITH 'A'"
            + String(repeating: ")", count: 60)
        let arguments = ["query", "--model", model.path, "--entity", "Person"]
        let io = BufferIO()
        #expect(CommandLineTool.run(arguments + [store.path, deep], io: io) == 0)
        #expect(io.output.split(separator: "\n").count == 1)
        #expect(io.output.contains("\"Ann\""))
        let sql = BufferIO()
        #expect(CommandLineTool.run(arguments + ["--sql", store.path, deep], io: sql) == 0)
        #expect(
            sql.output
                == "-- evaluated in memory: SQLite cannot prepare the statement "
                + "(parser stack overflow)\n")
    }
}
