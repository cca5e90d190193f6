import Foundation
import SQLiteDatabase
import Testing

@testable import ObjectGraph

/// Real stores written by Apple's Core Data open with their models and read back completely.
@Suite("Core Data stores from the corpus")
struct CorpusStoreTests {
    /// The corpus stores whose model `expected-version-hashes.json` names.
    static func storesWithModels() throws -> [(store: URL, model: URL)] {
        guard let corpus = TestSupport.corpus else { return [] }
        let base = corpus.appendingPathComponent("coredata-stores")
        let data = try Data(contentsOf: base.appendingPathComponent("expected-version-hashes.json"))
        let root = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let stores = try #require(root["stores"] as? [String: Any])
        return stores.keys.sorted().compactMap { key in
            guard let entry = stores[key] as? [String: Any], let model = entry["model"] as? String
            else { return nil }
            return (base.appendingPathComponent(key), base.appendingPathComponent(model))
        }
    }

    /// Copies a store and its `-wal`/`-shm` files into `folder` (the corpus is read-only).
    static func copy(_ store: URL, to folder: URL) throws -> URL {
        let target = folder.appendingPathComponent(store.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] {
            let source = URL(fileURLWithPath: store.path + suffix)
            if FileManager.default.fileExists(atPath: source.path) {
                try FileManager.default.copyItem(
                    at: source, to: URL(fileURLWithPath: target.path + suffix))
            }
        }
        return target
    }

    @Test(
        "every store that names its model opens and reads every object and relationship",
        .enabled(if: TestSupport.hasCorpus))
    func readEverything() throws {
        let stores = try Self.storesWithModels()
        #expect(stores.count >= 3)
        for (storeURL, modelURL) in stores {
            let folder = try TestSupport.makeTemporaryFolder()
            defer { TestSupport.removeTemporaryFolder(folder) }
            let copy = try Self.copy(storeURL, to: folder)
            let before = try Data(contentsOf: copy)
            let model = try EntityModel(contentsOf: modelURL)
            let coordinator = StoreCoordinator(model: model)
            try coordinator.addStore(
                type: .sqlite, at: copy, options: StoreOptions(isReadOnly: true))
            let context = ManagedContext(coordinator: coordinator)
            let layout = try StoreLayout(model: model)
            let raw = try Database(url: copy, mode: .readOnly)
            var total = 0
            for entity in model.entities where !entity.isAbstract {
                var request = FetchRequest(entityName: entity.name)
                request.includesSubentities = false
                let objects = try context.fetch(request)
                let entityLayout = try #require(layout.entity(named: entity.name))
                let expected = try raw.fetchValue(
                    Int.self,
                    sql:
                        "SELECT COUNT(*) FROM \(quoteIdentifier(entityLayout.tableName)) WHERE Z_ENT = ?",
                    arguments: [entityLayout.entityNumber])
                #expect(objects.count == expected, "\(storeURL.lastPathComponent) \(entity.name)")
                total += objects.count
                for object in objects {
                    for attribute in model.allAttributes(of: entity) where !attribute.isTransient {
                        _ = try object.value(for: attribute.name)
                    }
                    for relationship in model.allRelationships(of: entity)
                    where !relationship.isTransient {
                        if relationship.isToMany {
                            for target in try object.objects(for: relationship.name) {
                                try target.fulfill()
                            }
                        } else {
                            try object.object(for: relationship.name)?.fulfill()
                        }
                    }
                }
            }
            try raw.close()
            #expect(try Data(contentsOf: copy) == before, "\(storeURL.lastPathComponent) changed")
            if storeURL.lastPathComponent == "CoreDataPreloadDemo.sqlite" {
                #expect(total == 24, "the rows that live only in the -wal file")
            }
        }
    }

    @Test(
        "a many-to-many pair reads the same from both sides",
        .enabled(if: TestSupport.hasCorpus))
    func manyToMany() throws {
        let stores = try Self.storesWithModels()
        for (storeURL, modelURL) in stores {
            let folder = try TestSupport.makeTemporaryFolder()
            defer { TestSupport.removeTemporaryFolder(folder) }
            let model = try EntityModel(contentsOf: modelURL)
            let coordinator = StoreCoordinator(model: model)
            try coordinator.addStore(
                type: .sqlite, at: try Self.copy(storeURL, to: folder),
                options: StoreOptions(isReadOnly: true))
            let context = ManagedContext(coordinator: coordinator)
            for entity in model.entities {
                for relationship in entity.relationships where relationship.isToMany {
                    guard let inverse = relationship.inverseName,
                        model.entity(named: relationship.destinationEntityName)?
                            .relationship(named: inverse)?.isToMany == true
                    else { continue }
                    for object in try context.fetch(FetchRequest(entityName: entity.name)) {
                        for target in try object.objects(for: relationship.name) {
                            #expect(try target.objects(for: inverse).contains { $0 === object })
                        }
                    }
                }
            }
        }
    }
}
