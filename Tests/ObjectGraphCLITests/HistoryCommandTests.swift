import Foundation
import ObjectGraph
import ObjectGraphCLI
import Testing

@Suite("objectgraph history")
struct HistoryCommandTests {
    /// A store with history: two transactions (an insert, then a rename by "editor").
    static func makeStore(in folder: URL) throws -> (model: URL, store: URL) {
        var note = Entity("Note")
        note.attributes = [Attribute("title", type: .string)]
        let model = EntityModel(entities: [note])
        let modelURL = folder.appendingPathComponent("Notes.xcdatamodel")
        try model.write(to: modelURL)
        let storeURL = folder.appendingPathComponent("Notes.sqlite")
        let coordinator = StoreCoordinator(model: model)
        var options = StoreOptions()
        options.tracksHistory = true
        try coordinator.addStore(type: .sqlite, at: storeURL, options: options)
        let context = ManagedContext(coordinator: coordinator)
        context.transactionAuthor = "app"
        let note1 = try context.insert("Note")
        try note1.set("a", for: "title")
        try context.save()
        context.transactionAuthor = "editor"
        try note1.set("b", for: "title")
        try context.save()
        return (modelURL, storeURL)
    }

    static func objects(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test("transactions, their changes, and the history after a token")
    func history() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (model, store) = try Self.makeStore(in: folder)
        var io = BufferIO()
        #expect(CommandLineTool.run(["history", "--model", model.path, store.path], io: io) == 0)
        let transactions = try Self.objects(io.output)
        #expect(transactions.map { $0["author"] as? String } == ["app", "editor"])
        #expect(transactions.map { $0["changeCount"] as? Int } == [1, 1])
        let token = try #require(transactions.first?["token"] as? String)
        io = BufferIO()
        #expect(
            CommandLineTool.run(["history", store.path, "--after", token, "--changes"], io: io)
                == 0)
        let lines = try Self.objects(io.output)
        #expect(lines.map { $0["type"] as? String } == ["transaction", "change"])
        #expect(lines.last?["changeType"] as? String == "update")
        #expect(lines.last?["updatedProperties"] as? [String] == ["title"])
        #expect(lines.last?["entity"] as? String == "Note")
        io = BufferIO()
        #expect(CommandLineTool.run(["history", store.path, "--after", "x:y"], io: io) == 2)
        #expect(io.errorOutput.contains("--after"))
    }

    @Test("a macOS store's history", .enabled(if: ModelFromStoreCommandTests.stores != nil))
    func appleStore() throws {
        let stores = try #require(ModelFromStoreCommandTests.stores)
        let store = stores.appendingPathComponent(
            "10-plaso-macos-knowledgec-10.13/knowledgec-10.13.db")
        let io = BufferIO()
        #expect(CommandLineTool.run(["history", store.path, "--changes"], io: io) == 0)
        let lines = try Self.objects(io.output)
        #expect(lines.filter { $0["type"] as? String == "transaction" }.count == 536)
        #expect(lines.filter { $0["type"] as? String == "change" }.count == 1115)
    }
}
