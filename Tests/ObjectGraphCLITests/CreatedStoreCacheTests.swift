import Foundation
import ObjectGraph
import ObjectGraphCLI
import Testing

/// A store ObjectGraph created carries its model (`Z_MODELCACHE`), so `dump` needs no model.
@Suite("objectgraph dump of a store ObjectGraph created, without its model")
struct CreatedStoreCacheTests {
    @Test("dump without --model reads the model the store carries: the same rows as with it")
    func dumpWithoutModel() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (model, store) = try DumpCommandTests.makeStore(in: folder)
        let withModel = BufferIO()
        #expect(
            CommandLineTool.run(["dump", "--model", model.path, store.path], io: withModel) == 0)
        let without = BufferIO()
        #expect(
            CommandLineTool.run(["dump", store.path], io: without) == 0, "\(without.errorOutput)")
        #expect(without.output == withModel.output)
        #expect(without.output.split(separator: "\n").count == 2)
    }
}
