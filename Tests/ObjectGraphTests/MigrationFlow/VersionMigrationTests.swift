import Foundation
import ObjectGraph
import Testing

/// Adding a store written with an earlier version of a bundle: found by its hashes, migrated
/// along a chain of steps in place, for every store type; the options that turn it off.
@Suite("Migrating stores when they are added")
struct VersionMigrationTests {
    typealias Support = MigrationFlowSupport

    /// The expected contents after migrating the Moods store to `Moods 3`.
    static let migrated = Support.Contents(
        people: ["Ann": ["calm", "happy", "tired"], "Bob": []],
        moods: ["happy": [3, 0], "calm": [5, 0], "tired": [1, 0]])

    @Test(
        "a store of the first version migrates through two steps to the current one",
        arguments: [StoreType.sqlite, .xml, .binary])
    func chain(type: StoreType) throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let bundle = try Support.moodsBundle(in: folder)
        let store = folder.appendingPathComponent(Support.fileName(type))
        try Support.writeMoods(type, at: store, model: try bundle.model(named: "Moods"))

        let coordinator = try StoreCoordinator(bundle: bundle)
        #expect(coordinator.modelVersions.map(\.name) == ["Moods", "Moods 2", "Moods 3"])
        let steps = try coordinator.migrationPlan(forStoreAt: store, type: type)
        #expect(
            steps.map(\.label) == ["Moods → Moods 2 (inferred)", "Moods 2 → Moods 3 (inferred)"])
        let description = try coordinator.addStore(type: type, at: store)
        #expect(description.metadata.versionHashes == coordinator.model.entityVersionHashes)
        #expect(try Support.contents(coordinator) == Self.migrated)

        // The file now matches the current version: it opens without any version known.
        let plain = StoreCoordinator(model: coordinator.model)
        try plain.addStore(
            type: type, at: store,
            options: StoreOptions(migration: MigrationOptions(migratesAutomatically: false)))
        #expect(try Support.contents(plain) == Self.migrated)
        #expect(try plain.migrationPlan(forStoreAt: store, type: type).isEmpty)
    }

    @Test("object URIs stay valid: objects keep their keys and the store its UUID")
    func urisStay() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let bundle = try Support.moodsBundle(in: folder)
        for type in [StoreType.xml, .binary] {
            let store = folder.appendingPathComponent(Support.fileName(type))
            let old = try bundle.model(named: "Moods")
            try Support.writeMoods(type, at: store, model: old)
            let before = StoreCoordinator(model: old)
            try before.addStore(type: type, at: store, options: StoreOptions(isReadOnly: true))
            let uris = try ManagedContext(coordinator: before)
                .fetch(FetchRequest(entityName: "Mood")).map {
                    ($0.objectID.uriRepresentation, $0["name"] as String?)
                }

            let coordinator = try StoreCoordinator(bundle: bundle)
            try coordinator.addStore(type: type, at: store)
            let context = ManagedContext(coordinator: coordinator)
            for (uri, name) in uris {
                let object = try context.object(with: try coordinator.objectID(forURI: uri))
                #expect(object["name"] as String? == name)
            }
        }
    }

    @Test("with automatic migration off, the store is refused and left as it was")
    func automaticOff() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let bundle = try Support.moodsBundle(in: folder)
        let store = folder.appendingPathComponent("Moods.sqlite")
        try Support.writeMoods(.sqlite, at: store, model: try bundle.model(named: "Moods"))
        let bytes = try Data(contentsOf: store)
        let coordinator = try StoreCoordinator(bundle: bundle)
        var options = StoreOptions()
        options.migration.migratesAutomatically = false
        #expect {
            try coordinator.addStore(type: .sqlite, at: store, options: options)
        } throws: { error in
            guard case StoreError.incompatibleModel(let path, let check) = error else {
                return false
            }
            return path == store.path && check.changedEntities == ["Mood", "Person"]
        }
        #expect(try Data(contentsOf: store) == bytes)
        // A read-only store is never migrated either.
        #expect(throws: StoreError.self) {
            try coordinator.addStore(
                type: .sqlite, at: store, options: StoreOptions(isReadOnly: true))
        }
    }

    @Test("with inference off and no mapping model, no path leads to the current version")
    func inferenceOff() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let bundle = try Support.moodsBundle(in: folder)
        let store = folder.appendingPathComponent("Moods.xml")
        try Support.writeMoods(.xml, at: store, model: try bundle.model(named: "Moods"))
        let bytes = try Data(contentsOf: store)
        let coordinator = try StoreCoordinator(bundle: bundle)
        var options = StoreOptions()
        options.migration.infersMappingAutomatically = false
        #expect(throws: MigrationError.noMigrationPath(from: "Moods", to: "Moods 3")) {
            try coordinator.addStore(type: .xml, at: store, options: options)
        }
        #expect(try Data(contentsOf: store) == bytes)
        // Declared lightweight stages are inferred even so: with one per step, it migrates.
        options.migration.stages = [.lightweight(from: "Moods", to: "Moods 2")]
        #expect(throws: MigrationError.noMigrationPath(from: "Moods", to: "Moods 3")) {
            try coordinator.addStore(type: .xml, at: store, options: options)
        }
        #expect(try Data(contentsOf: store) == bytes)
        options.migration.stages.append(.lightweight(from: "Moods 2", to: "Moods 3"))
        try coordinator.addStore(type: .xml, at: store, options: options)
        #expect(try Support.contents(coordinator) == Self.migrated)
    }

    @Test("a store no version matches is refused naming the entities that differ")
    func noSourceModel() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let bundle = try Support.moodsBundle(in: folder)
        let other = Support.moodsBody(
            moodExtra: "<attribute name=\"color\" optional=\"YES\" attributeType=\"String\"/>",
            personExtra: "")
        let otherBundle = try Support.writeBundle(
            named: "Other", versions: [("Other", other)], in: folder)
        let oldModel = try EntityModel(contentsOf: otherBundle)
        let store = folder.appendingPathComponent("Moods.binary")
        try Support.writeMoods(.binary, at: store, model: oldModel)
        let coordinator = try StoreCoordinator(bundle: bundle)
        #expect(
            throws: MigrationError.noSourceModel(store: store.path, entities: ["Mood", "Person"])
        ) {
            try coordinator.addStore(type: .binary, at: store)
        }

        // The hook for the model the store carries: given it, the store migrates.
        var options = StoreOptions()
        options.migration.storeModel = { _, metadata in
            metadata.versionHashes == oldModel.entityVersionHashes
                ? ModelVersion(name: "Other", model: oldModel) : nil
        }
        try coordinator.addStore(type: .binary, at: store, options: options)
        #expect(try Support.contents(coordinator) == Self.migrated)
    }

    @Test("progress goes to the callback and to every async sequence, ending at 1")
    func progress() async throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let bundle = try Support.moodsBundle(in: folder)
        let store = folder.appendingPathComponent("Moods.sqlite")
        try Support.writeMoods(.sqlite, at: store, model: try bundle.model(named: "Moods"))
        let reports = LockedLog<MigrationProgress>()
        var options = StoreOptions()
        options.migration.progress = { reports.append($0) }
        let first = options.migration.progressUpdates()
        let second = options.migration.progressUpdates()
        let coordinator = try StoreCoordinator(bundle: bundle)
        try coordinator.addStore(type: .sqlite, at: store, options: options)

        var streamed: [MigrationProgress] = []
        for await report in first { streamed.append(report) }
        var again = 0
        for await _ in second { again += 1 }
        let called = reports.all
        #expect(!called.isEmpty)
        #expect(streamed == called)
        #expect(again == called.count)
        #expect(called.last?.fractionCompleted == 1)
        #expect(Set(called.map(\.stageCount)) == [2])
        #expect(Set(called.map(\.stageIndex)) == [0, 1])
        let fractions = called.map(\.fractionCompleted)
        #expect(fractions == fractions.sorted())

        // No migration: the sequence ends at once, empty.
        var none = StoreOptions()
        let empty = none.migration.progressUpdates()
        try StoreCoordinator(bundle: bundle).addStore(type: .sqlite, at: store, options: none)
        var count = 0
        for await _ in empty { count += 1 }
        #expect(count == 0)
    }

    @Test("a container loading a bundle migrates its store")
    func container() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let bundle = try Support.moodsBundle(in: folder)
        let store = folder.appendingPathComponent("Moods.sqlite")
        try Support.writeMoods(.sqlite, at: store, model: try bundle.model(named: "Moods"))
        let container = try PersistentContainer(
            name: "Moods", modelURL: bundle.url, directory: folder)
        #expect(container.coordinator.modelVersions.count == 3)
        #expect(try Support.contents(container.coordinator) == Self.migrated)
    }
}

/// Values collected from any thread (progress reports, what stage handlers saw).
final class LockedLog<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Element] = []

    func append(_ value: Element) { lock.withLock { values.append(value) } }
    var all: [Element] { lock.withLock { values } }
}
