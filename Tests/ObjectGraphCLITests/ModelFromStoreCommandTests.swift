import Foundation
import ObjectGraph
import ObjectGraphCLI
import SQLiteDatabase
import Testing

/// `dump` and `query` without `--model` on stores that keep their model, and
/// `model-from-store`. The corpus cases skip when the corpus is absent.
@Suite("objectgraph without a model file")
struct ModelFromStoreCommandTests {
    static let stores: URL? = GeneratedCodeCorpusTests.corpus?.appendingPathComponent(
        "coredata-stores")

    /// Corpus stores paired with their model file, when the corpus has it.
    static let paired: [(store: String, model: String)] = [
        (
            "12-easylife-migration-fixtures/EasyLife 1.5.0.sqlite",
            "12-easylife-migration-fixtures/EasyLife.xcdatamodeld"
        ),
        (
            "13-bnr-coredatastack-testmodel/TestModel.sqlite",
            "13-bnr-coredatastack-testmodel/Sample.xcdatamodeld"
        ),
        (
            "15-appcoda-preload-wal/CoreDataPreloadDemo.sqlite",
            "15-appcoda-preload-wal/CoreDataPreloadDemo.xcdatamodeld"
        ),
    ]

    /// Every corpus store with a cache.
    static let cached = [
        "09-plaso-ios-accounts3/Accounts3.sqlite",
        "10-plaso-macos-knowledgec-10.13/knowledgec-10.13.db",
        "12-easylife-migration-fixtures/EasyLife 1.3.0.sqlite",
        "12-easylife-migration-fixtures/EasyLife 1.5.0.sqlite",
        "12-easylife-migration-fixtures/EasyLife.sqlite",
        "13-bnr-coredatastack-testmodel/TestModel.sqlite",
        "15-appcoda-preload-wal/CoreDataPreloadDemo.sqlite",
        "16-plaso-ios-datausage/DataUsage.sqlite",
    ]

    static func dump(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        let io = BufferIO()
        let status = CommandLineTool.run(["dump"] + arguments, io: io)
        return (status, io.output, io.errorOutput)
    }

    @Test("a store's cached model dumps the same rows as its model file")
    func dumpWithoutModel() throws {
        guard let stores = Self.stores else { return }
        var rows = 0
        for (store, model) in Self.paired {
            let storePath = stores.appendingPathComponent(store).path
            let withModel = Self.dump([
                "--model", stores.appendingPathComponent(model).path, storePath,
            ])
            let without = Self.dump([storePath])
            #expect(withModel.status == 0 && without.status == 0, "\(store): \(without.error)")
            #expect(without.output == withModel.output, "\(store)")
            rows += without.output.split(separator: "\n").count
        }
        // TestModel.sqlite holds no rows; the other two hold 6 and 24.
        #expect(rows == 30)
        for store in Self.cached {
            let result = Self.dump([stores.appendingPathComponent(store).path])
            #expect(result.status == 0, "\(store): \(result.error)")
        }
    }

    @Test("query runs on the cached model")
    func queryWithoutModel() throws {
        guard let stores = Self.stores else { return }
        let store = stores.appendingPathComponent(Self.paired[0].store).path
        let model = stores.appendingPathComponent(Self.paired[0].model).path
        let entity = try #require(
            try StoreCoordinator.cachedModel(ofStoreAt: URL(fileURLWithPath: store))
        )
        .entities.first { $0.parentName == nil }?.name
        let name = try #require(entity)
        let without = BufferIO()
        let with = BufferIO()
        #expect(
            CommandLineTool.run(["query", "--entity", name, store, "TRUEPREDICATE"], io: without)
                == 0)
        #expect(
            CommandLineTool.run(
                ["query", "--model", model, "--entity", name, store, "TRUEPREDICATE"], io: with)
                == 0)
        #expect(without.output == with.output)
    }

    @Test("model-from-store writes a model that validates and hashes as the store")
    func modelFromStore() throws {
        guard let stores = Self.stores else { return }
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("objectgraph-model-from-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (offset, store) in Self.cached.enumerated() {
            let url = stores.appendingPathComponent(store)
            let output = folder.appendingPathComponent("Model\(offset).xcdatamodel")
            let io = BufferIO()
            #expect(
                CommandLineTool.run(
                    ["model-from-store", url.path, "--output", output.path], io: io) == 0)
            let validate = BufferIO()
            #expect(
                CommandLineTool.run(["validate", output.path], io: validate) == 0,
                "\(store): \(validate.output)")
            let written = try EntityModel(contentsOf: output)
            let cached = try #require(try StoreCoordinator.cachedModel(ofStoreAt: url))
            #expect(written.entityVersionHashes == cached.entityVersionHashes, "\(store)")
        }
    }

    @Test("a store without a cache and no --model says so")
    func noCache() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("objectgraph-no-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = EntityModel(entities: [
            Entity("Note", attributes: [Attribute("title", type: .string)])
        ])
        let store = folder.appendingPathComponent("Notes.sqlite")
        do {
            let coordinator = StoreCoordinator(model: model)
            try coordinator.addStore(type: .sqlite, at: store)
        }
        // ObjectGraph writes a cache; an empty one is what Core Data before 2010 left.
        let database = try Database(url: store)
        try database.execute(sql: "DELETE FROM Z_MODELCACHE")
        try database.close()
        let result = Self.dump([store.path])
        #expect(result.status == 2)
        #expect(result.error.contains("keeps no model"))
        let io = BufferIO()
        #expect(
            CommandLineTool.run(
                [
                    "model-from-store", store.path, "--output",
                    folder.appendingPathComponent("X.xcdatamodel").path,
                ], io: io) == 2)
        #expect(CommandLineTool.run(["model-from-store", store.path], io: BufferIO()) == 2)
    }
}
