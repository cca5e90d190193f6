import Foundation
import ObjectGraph
import ObjectGraphCLI
import Testing

/// `objectgraph dump` shows a Transformable attribute's `NSKeyedArchiver` archive decoded.
@Suite("objectgraph dump: archived values")
struct DumpArchivedValueTests {
    @Test("an archived dictionary prints as {\"$archived\": …} with the usual value forms")
    func archivedValue() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var thing = Entity("Thing")
        thing.attributes = [
            Attribute("blob", type: .transformable), Attribute("raw", type: .transformable),
        ]
        let model = EntityModel(entities: [thing])
        let modelURL = folder.appendingPathComponent("Things.xcdatamodel")
        try model.write(to: modelURL)
        let storeURL = folder.appendingPathComponent("Things.sqlite")
        let coordinator = StoreCoordinator(model: model)
        try coordinator.addStore(type: .sqlite, at: storeURL)
        let context = ManagedContext(coordinator: coordinator)
        let object = try context.insert("Thing")
        try object.setArchivedValue(
            .dictionary([
                .init(key: .string("name"), value: .string("Ada")),
                .init(key: .string("when"), value: .date(Date(timeIntervalSince1970: 86_400))),
                .init(key: .string("tags"), value: .set([.number(.integer(1))])),
                .init(
                    key: .string("site"), value: .url(relative: "https://example.com", base: .null)),
            ]), for: "blob")
        try object.set(Data([1, 2]), for: "raw")
        try context.save()
        let io = BufferIO()
        #expect(
            CommandLineTool.run(["dump", "--model", modelURL.path, storeURL.path], io: io) == 0)
        let line = try #require(io.output.split(separator: "\n").first)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let attributes = try #require(json["attributes"] as? [String: Any])
        let blob = try #require(attributes["blob"] as? [String: Any])
        let archived = try #require(blob["$archived"] as? [String: Any])
        #expect(archived["name"] as? String == "Ada")
        #expect((archived["when"] as? [String: Any])?["$date"] as? Double == 86_400)
        #expect((archived["tags"] as? [String: Any])?["$set"] as? [Int] == [1])
        #expect((archived["site"] as? [String: Any])?["$url"] as? String == "https://example.com")
        #expect((attributes["raw"] as? [String: Any])?["$data"] as? String == "AQI=")
    }
}
