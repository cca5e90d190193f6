import Foundation
import ObjectGraph
import SQLiteDatabase
import Testing

/// Stores ObjectGraph creates or migrates keep their model in `Z_MODELCACHE`, as Core Data's
/// do, so the store opens without its model file and Core Data can migrate it.
@Suite("Z_MODELCACHE of created and migrated stores")
struct ModelCacheStoreTests {
    static func rowCount(_ url: URL) throws -> Int {
        let database = try Database(url: url, mode: .readOnlyUntouched)
        return try database.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM Z_MODELCACHE") ?? -1
    }

    @Test("a created store keeps its model in Core Data's format")
    func createdStoreKeepsItsModel() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let model = try EntityModel(
            contentsOf: TestSupport.models.appendingPathComponent("School.xcdatamodeld"))
        let url = folder.appendingPathComponent("School.sqlite")
        let coordinator = StoreCoordinator(model: model)
        try coordinator.addStore(type: .sqlite, at: url)
        let context = ManagedContext(coordinator: coordinator)
        try context.save()
        #expect(try Self.rowCount(url) == 1)
        let cached = try #require(try StoreCoordinator.cachedModel(ofStoreAt: url))
        ModelCacheComparison.expectEquivalent(model, cached, "School.sqlite")
        // The store opens with nothing but the model it carries.
        let reopened = StoreCoordinator(model: cached)
        try reopened.addStore(type: .sqlite, at: url)
    }

    @Test("a migrated store keeps the new model, not the old one or none")
    func migratedStoreKeepsTheNewModel() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        var note = Entity("Note")
        note.attributes = [Attribute("title", type: .string)]
        let v1 = EntityModel(entities: [note])
        note.attributes.append(Attribute("pinned", type: .boolean, defaultValueString: "NO"))
        note.attributes[0].minValueString = "1"
        let v2 = EntityModel(entities: [note])
        let url = folder.appendingPathComponent("Notes.sqlite")
        do {
            let coordinator = StoreCoordinator(model: v1)
            try coordinator.addStore(type: .sqlite, at: url)
            let context = ManagedContext(coordinator: coordinator)
            try context.insert("Note").set("First", for: "title")
            try context.save()
        }
        #expect(
            try StoreCoordinator.cachedModel(ofStoreAt: url)?.entityVersionHashes
                == v1.entityVersionHashes)
        let step = MigrationStep(
            source: ModelVersion(name: "V1", model: v1),
            destination: ModelVersion(name: "V2", model: v2),
            mapping: try MappingModel.inferred(from: v1, to: v2))
        try SQLiteStoreMigration.migrate(storeAt: url, steps: [step])
        #expect(try Self.rowCount(url) == 1)
        let cached = try #require(try StoreCoordinator.cachedModel(ofStoreAt: url))
        ModelCacheComparison.expectEquivalent(v2, cached, "Notes.sqlite after migration")
        #expect(
            cached.entity(named: "Note")?.attributes.first { $0.name == "title" }?.minValueString
                == "1")
    }

    @Test("a store opened by an app that no longer ships its model migrates from the cache")
    func migratesWithoutTheOldModel() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        var note = Entity("Note")
        note.attributes = [Attribute("title", type: .string)]
        let v1 = EntityModel(entities: [note])
        note.attributes.append(Attribute("pinned", type: .boolean, defaultValueString: "NO"))
        let v2 = EntityModel(entities: [note])
        let url = folder.appendingPathComponent("Notes.sqlite")
        do {
            let coordinator = StoreCoordinator(model: v1)
            try coordinator.addStore(type: .sqlite, at: url)
            let context = ManagedContext(coordinator: coordinator)
            try context.insert("Note").set("Kept", for: "title")
            try context.save()
        }
        // Only v2 is known: the source model is the one the store carries.
        let coordinator = StoreCoordinator(model: v2)
        try coordinator.addStore(type: .sqlite, at: url)
        let titles = try ManagedContext(coordinator: coordinator).fetch(
            FetchRequest(entityName: "Note")
        )
        .map { try $0.value(for: "title") }
        #expect(titles == [.string("Kept")])
        #expect(
            try StoreCoordinator.cachedModel(ofStoreAt: url)?.entityVersionHashes
                == v2.entityVersionHashes)
    }

    @Test("a store without the table gets it when migrated")
    func migrationAddsTheTable() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        var item = Entity("Item")
        item.attributes = [Attribute("name", type: .string)]
        let v1 = EntityModel(entities: [item])
        item.attributes.append(Attribute("count", type: .integer32, defaultValueString: "0"))
        let v2 = EntityModel(entities: [item])
        let url = folder.appendingPathComponent("Items.sqlite")
        do {
            let coordinator = StoreCoordinator(model: v1)
            try coordinator.addStore(type: .sqlite, at: url)
        }
        do {
            let database = try Database(url: url)
            try database.execute(sql: "DROP TABLE Z_MODELCACHE")
            try database.close()
        }
        #expect(try StoreCoordinator.cachedModel(ofStoreAt: url) == nil)
        let step = MigrationStep(
            source: ModelVersion(name: "V1", model: v1),
            destination: ModelVersion(name: "V2", model: v2),
            mapping: try MappingModel.inferred(from: v1, to: v2))
        try SQLiteStoreMigration.migrate(storeAt: url, steps: [step])
        #expect(
            try StoreCoordinator.cachedModel(ofStoreAt: url)?.entityVersionHashes
                == v2.entityVersionHashes)
    }
}
