import Foundation
import ObjectGraph
import ObjectGraphCLI
import Testing

@Suite("objectgraph dump")
struct DumpCommandTests {
    static func makeStore(in folder: URL) throws -> (model: URL, store: URL) {
        var person = Entity("Person")
        person.attributes = [
            Attribute("name", type: .string), Attribute("born", type: .date),
            Attribute("id", type: .uuid), Attribute("photo", type: .binary),
        ]
        person.relationships = [Relationship("team", destination: "Team", inverse: "members")]
        var team = Entity("Team")
        team.attributes = [Attribute("name", type: .string)]
        team.relationships = [
            Relationship("members", destination: "Person", toMany: true, inverse: "team")
        ]
        let model = EntityModel(entities: [person, team])
        let modelURL = folder.appendingPathComponent("League.xcdatamodel")
        try model.write(to: modelURL)
        let storeURL = folder.appendingPathComponent("League.sqlite")
        let coordinator = StoreCoordinator(model: model)
        try coordinator.addStore(type: .sqlite, at: storeURL)
        let context = ManagedContext(coordinator: coordinator)
        let red = try context.insert("Team")
        try red.set("Red", for: "name")
        let ann = try context.insert("Person")
        try ann.set("Ann", for: "name")
        try ann.set(Date(timeIntervalSince1970: 86_400), for: "born")
        try ann.set(UUID(uuidString: "0A7F5C63-1B43-4D2B-9C55-7A1B2C3D4E5F"), for: "id")
        try ann.set(Data([1, 2]), for: "photo")
        try ann.setObject(red, for: "team")
        try context.save()
        return (modelURL, storeURL)
    }

    @Test("every object as one JSON line with the predicate tool's value conventions")
    func dump() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (model, store) = try Self.makeStore(in: folder)
        let before = try Data(contentsOf: store)
        let io = BufferIO()
        #expect(CommandLineTool.run(["dump", "--model", model.path, store.path], io: io) == 0)
        let lines = io.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        let objects = try lines.map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let ann = try #require(objects.first { $0["entity"] as? String == "Person" })
        let attributes = try #require(ann["attributes"] as? [String: Any])
        #expect(attributes["name"] as? String == "Ann")
        #expect((attributes["born"] as? [String: Any])?["$date"] as? Double == 86_400)
        #expect(
            (attributes["id"] as? [String: Any])?["$uuid"] as? String
                == "0A7F5C63-1B43-4D2B-9C55-7A1B2C3D4E5F")
        #expect((attributes["photo"] as? [String: Any])?["$data"] as? String == "AQI=")
        let team = try #require((ann["relationships"] as? [String: Any])?["team"] as? [String])
        #expect(team.first?.hasPrefix("x-coredata://") == true)
        #expect(team.first?.hasSuffix("/Team/p1") == true)
        #expect(try Data(contentsOf: store) == before)

        let only = BufferIO()
        #expect(
            CommandLineTool.run(
                ["dump", "--model", model.path, "--entity", "Team", store.path], io: only) == 0)
        #expect(only.output.split(separator: "\n").count == 1)
    }

    @Test("usage errors and unreadable stores exit 2")
    func errors() {
        let io = BufferIO()
        #expect(CommandLineTool.run(["dump", "nope.sqlite"], io: io) == 2)
        #expect(io.errorOutput.contains("no such file"))
        #expect(
            CommandLineTool.run(["dump", "--model", "/nope", "/nope.sqlite"], io: BufferIO()) == 2)
        let help = BufferIO()
        #expect(CommandLineTool.run(["dump", "--help"], io: help) == 0)
        #expect(help.output.contains("USAGE"))
    }
}

@Suite("objectgraph query")
struct QueryCommandTests {
    @Test("matching objects, sorted and limited; --sql shows the SQL with bound values")
    func query() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (model, store) = try DumpCommandTests.makeStore(in: folder)
        let io = BufferIO()
        let arguments = [
            "query", "--model", model.path, "--entity", "Person", "--sort", "name:desc",
        ]
        #expect(CommandLineTool.run(arguments + [store.path, "name BEGINSWITH 'A'"], io: io) == 0)
        #expect(io.output.split(separator: "\n").count == 1)
        #expect(io.output.contains("\"Ann\""))
        let none = BufferIO()
        #expect(CommandLineTool.run(arguments + [store.path, "name == 'Zed'"], io: none) == 0)
        #expect(none.output.isEmpty)
        let sql = BufferIO()
        #expect(
            CommandLineTool.run(arguments + ["--sql", store.path, "name BEGINSWITH 'A'"], io: sql)
                == 0)
        #expect(sql.output.hasPrefix("SELECT"))
        #expect(sql.output.contains("\"ZPERSON\""))
        #expect(
            sql.output.contains("'A'") || sql.output.contains("\"A\"") || sql.output.contains("A"))
        #expect(!sql.output.contains("BEGINSWITH"))
        let bad = BufferIO()
        #expect(CommandLineTool.run(arguments + [store.path, "name =="], io: bad) == 1)
        #expect(CommandLineTool.run(["query", store.path], io: BufferIO()) == 2)
    }
}
