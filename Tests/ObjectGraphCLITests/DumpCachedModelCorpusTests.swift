import Foundation
import Testing

/// Issue 20's done-when, through the built `objectgraph` as a process: every corpus store
/// that keeps its model (`Z_MODELCACHE`) and has its model file beside it dumps the same rows
/// with `dump STORE` as with `dump --model MODEL STORE`. The stores are copies (with their
/// `-wal`/`-shm`) in a temporary folder. Skips when the corpus or the tool is absent.
@Suite(
    "dump without --model over the corpus, as a process",
    .enabled(if: objectgraphTool != nil, "the objectgraph executable is not built"),
    .enabled(if: ModelFromStoreCommandTests.stores != nil, "the corpus is absent"))
struct DumpCachedModelCorpusTests {
    /// Runs the tool with `arguments`; its status, output and errors.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String)
    {
        try runProcess(try #require(objectgraphTool), arguments)
    }

    /// The model bundle or file beside a corpus store, if its folder has one.
    static func model(beside store: URL) -> URL? {
        let folder = store.deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().first {
            $0.hasSuffix(".xcdatamodeld") || $0.hasSuffix(".xcdatamodel")
        }
        .map { folder.appendingPathComponent($0) }
    }

    @Test("every cached corpus store with a model file dumps the same rows without it")
    func sameRowsWithoutTheModel() throws {
        let stores = try #require(ModelFromStoreCommandTests.stores)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "DumpCachedModelCorpusTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var compared: [String] = []
        var rows = 0
        for (index, name) in ModelFromStoreCommandTests.cached.enumerated() {
            let original = stores.appendingPathComponent(name)
            guard let model = Self.model(beside: original) else { continue }
            let copy = folder.appendingPathComponent("\(index)-\(original.lastPathComponent)")
            for suffix in ["", "-wal", "-shm"] {
                let companion = URL(fileURLWithPath: original.path + suffix)
                guard FileManager.default.fileExists(atPath: companion.path) else { continue }
                try FileManager.default.copyItem(
                    at: companion, to: URL(fileURLWithPath: copy.path + suffix))
            }
            let withModel = try Self.run(["dump", "--model", model.path, copy.path])
            let without = try Self.run(["dump", copy.path])
            #expect(withModel.status == 0, "\(name) with its model: \(withModel.errors)")
            #expect(without.status == 0, "\(name) without a model: \(without.errors)")
            #expect(without.output == withModel.output, "\(name): the rows differ")
            rows += without.output.split(separator: "\n").count
            compared.append(name)
        }
        // The five stores of the corpus that have both: EasyLife 1.3.0, 1.5.0 and the current
        // one (EasyLife.xcdatamodeld), TestModel (Sample.xcdatamodeld), CoreDataPreloadDemo.
        #expect(compared.count == 5, "\(compared)")
        #expect(rows > 30, "\(rows) lines")
    }
}
