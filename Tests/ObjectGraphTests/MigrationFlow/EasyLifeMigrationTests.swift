import Foundation
import ObjectGraph
import Testing

/// The proof on stores written by a real app: EasyLife's stores
/// (`coredata-stores/12-easylife-migration-fixtures`, copied to a temporary folder; the corpus is
/// never modified) migrate to the bundle's current version (`EasyLife 1.5.0`) keeping what Core
/// Data's lightweight migration keeps.
@Suite(
    "EasyLife stores migrate to the current version",
    .enabled(if: MigrationFlowSupport.corpus != nil, "the shared corpus is absent"))
struct EasyLifeMigrationTests {
    static var fixtures: URL? {
        MigrationFlowSupport.corpus?.appendingPathComponent(
            "coredata-stores/12-easylife-migration-fixtures")
    }

    /// A temporary folder with a copy of the bundle and of `store`.
    static func copy(_ store: String, into folder: URL) throws -> (bundle: ModelBundle, store: URL)
    {
        let source = try #require(fixtures)
        let bundle = folder.appendingPathComponent("EasyLife.xcdatamodeld")
        try FileManager.default.copyItem(
            at: source.appendingPathComponent("EasyLife.xcdatamodeld"), to: bundle)
        let copy = folder.appendingPathComponent(store)
        try FileManager.default.copyItem(at: source.appendingPathComponent(store), to: copy)
        // The copies are writable (the corpus files are read-only).
        for path in [copy.path, bundle.path] {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path)
        return (try ModelBundle(contentsOf: bundle), copy)
    }

    /// The model the app's `EasyLife.sqlite` and `EasyLife 1.3.0.sqlite` were written with: no
    /// version of the shipped bundle matches them (their `ZTODOITEM` has no `ZPROJECT`
    /// column). It is `EasyLife 1.3.0` without the Project ↔ TodoItem relationship, rebuilt by
    /// hand from the store's tables; the model the store carries in `Z_MODELCACHE` hashes the same.
    static func carriedModel(_ bundle: ModelBundle) throws -> EntityModel {
        let model = try bundle.model(named: "EasyLife 1.3.0")
        return EntityModel(
            entities: model.entities.map { entity in
                var copy = entity
                copy.relationships = []
                return copy
            }, versionIdentifier: model.versionIdentifier)
    }

    /// Every todo item's values, by Z_PK order (name, notes, done, repeats, date).
    static func items(_ coordinator: StoreCoordinator) throws -> [[String]] {
        let context = ManagedContext(coordinator: coordinator)
        var request = FetchRequest(entityName: "TodoItem")
        request.sortDescriptors = [SortDescriptor("name"), SortDescriptor("date")]
        return try context.fetch(request).map { item in
            [
                item["name"] as String? ?? "nil", item["notes"] as String? ?? "nil",
                "\(item["done"] as Bool? ?? false)", "\(item["repeats"] as Int16? ?? -1)",
                "\((item["date"] as Date?)?.timeIntervalSinceReferenceDate ?? 0)",
            ]
        }
    }

    @Test("the 1.5.0 store matches the current version and opens without migrating")
    func current() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let (bundle, store) = try Self.copy("EasyLife 1.5.0.sqlite", into: folder)
        let coordinator = try StoreCoordinator(bundle: bundle)
        #expect(try coordinator.migrationPlan(forStoreAt: store, type: .sqlite).isEmpty)
        try coordinator.addStore(type: .sqlite, at: store)
        #expect(try Self.items(coordinator).count == 6)
    }

    @Test(
        "the stores of the version before 1.3.0 migrate to 1.5.0 keeping every item",
        arguments: ["EasyLife.sqlite", "EasyLife 1.3.0.sqlite"])
    func carried(file: String) throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let (bundle, store) = try Self.copy(file, into: folder)
        let carried = try Self.carriedModel(bundle)
        let coordinator = try StoreCoordinator(bundle: bundle)

        // No version of the bundle matches: refused the model the store carries, the error
        // names the entities that differ.
        var refusing = MigrationOptions()
        refusing.storeModel = { _, _ in nil }
        #expect(
            throws: MigrationError.noSourceModel(
                store: store.path, entities: ["Project", "TodoItem"])
        ) {
            try coordinator.migrationPlan(forStoreAt: store, type: .sqlite, options: refusing)
        }
        // The model the store carries (Z_MODELCACHE) is the one that wrote it: the same hashes
        // as the model rebuilt by hand from the store's tables.
        let cached = try #require(try StoreCoordinator.cachedModel(ofStoreAt: store))
        #expect(cached.entityVersionHashes == carried.entityVersionHashes)
        let before = StoreCoordinator(model: carried)
        try before.addStore(type: .sqlite, at: store, options: StoreOptions(isReadOnly: true))
        let expected = try Self.items(before)
        #expect(expected.count == (file == "EasyLife.sqlite" ? 158 : 0))

        // By default the migration starts from the model in the store, as Core Data's does.
        let steps = try coordinator.migrationPlan(forStoreAt: store, type: .sqlite)
        #expect(steps.map(\.source.name) == ["the model in the store"])
        #expect(steps.map(\.destination.name) == ["EasyLife 1.5.0"])
        try coordinator.addStore(type: .sqlite, at: store)
        #expect(try Self.items(coordinator) == expected)
        let context = ManagedContext(coordinator: coordinator)
        for item in try context.fetch(FetchRequest(entityName: "TodoItem")) {
            #expect(try item.objects(for: "blocking").isEmpty)
            #expect(try item.object(for: "project") == nil)
        }
        #expect(try context.count(for: FetchRequest(entityName: "Project")) == 0)
    }

    @Test("a store of the first version migrates through 1.3.0 to 1.5.0")
    func chain() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let (bundle, _) = try Self.copy("EasyLife 1.5.0.sqlite", into: folder)
        let store = folder.appendingPathComponent("First.sqlite")
        let first = StoreCoordinator(model: try bundle.model(named: "EasyLife"))
        try first.addStore(type: .sqlite, at: store)
        let context = ManagedContext(coordinator: first)
        for index in 0..<5 {
            let item = try context.insert("TodoItem")
            try item.set("item \(index)", for: "name")
            try item.set(Int16(index), for: "repeats")
            try item.set(index % 2 == 0, for: "done")
        }
        try context.save()
        let expected = try Self.items(first)

        let coordinator = try StoreCoordinator(bundle: bundle)
        let steps = try coordinator.migrationPlan(forStoreAt: store, type: .sqlite)
        #expect(
            steps.map(\.label) == [
                "EasyLife → EasyLife 1.3.0 (inferred)",
                "EasyLife 1.3.0 → EasyLife 1.5.0 (inferred)",
            ])
        try coordinator.addStore(type: .sqlite, at: store)
        #expect(try Self.items(coordinator) == expected)
    }
}
