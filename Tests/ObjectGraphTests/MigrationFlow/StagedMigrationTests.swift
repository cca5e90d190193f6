import Foundation
import ObjectGraph
import Testing

/// Declared stages (Core Data's staged migration): custom stages whose handlers run with the
/// store open at the old and the new version, lightweight stages, and failures that leave the
/// store as it was.
@Suite("Staged migration")
struct StagedMigrationTests {
    typealias Support = MigrationFlowSupport

    @Test(
        "custom handlers run on the old and the new version; their saves are kept",
        arguments: [StoreType.sqlite, .xml, .binary])
    func handlers(type: StoreType) throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let bundle = try Support.moodsBundle(in: folder)
        let store = folder.appendingPathComponent(Support.fileName(type))
        try Support.writeMoods(type, at: store, model: try bundle.model(named: "Moods"))
        let seen = LockedLog<String>()  // the attributes each handler's model has
        var options = StoreOptions()
        options.migration.stages = [
            .custom(
                from: "Moods", to: "Moods 2",
                willMigrate: { old in
                    let mood = try #require(old.model.entity(named: "Mood"))
                    seen.append("will: \(mood.attributes.map(\.name).sorted())")
                    let context = ManagedContext(coordinator: old)
                    for mood in try context.fetch(FetchRequest(entityName: "Mood")) {
                        try mood.set((mood["name"] as String? ?? "").uppercased(), for: "name")
                    }
                    try context.save()
                },
                didMigrate: { new in
                    let mood = try #require(new.model.entity(named: "Mood"))
                    seen.append("did: \(mood.attributes.map(\.name).sorted())")
                    let context = ManagedContext(coordinator: new)
                    for mood in try context.fetch(FetchRequest(entityName: "Mood")) {
                        try mood.set(Int16(7), for: "rating")
                    }
                    try context.save()
                }),
            .lightweight(from: "Moods 2", to: "Moods 3"),
        ]
        let coordinator = try StoreCoordinator(bundle: bundle)
        try coordinator.addStore(type: type, at: store, options: options)
        #expect(
            seen.all == ["will: [\"name\", \"score\"]", "did: [\"name\", \"rating\", \"score\"]"])
        let contents = try Support.contents(coordinator)
        #expect(contents.people == ["Ann": ["CALM", "HAPPY", "TIRED"], "Bob": []])
        #expect(contents.moods == ["HAPPY": [3, 7], "CALM": [5, 7], "TIRED": [1, 7]])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "staging files left: \(leftovers)")
    }

    @Test(
        "a handler that throws fails the migration and leaves the store at its old version",
        arguments: [StoreType.sqlite, .binary])
    func failingHandler(type: StoreType) throws {
        struct Refused: Error {}
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let bundle = try Support.moodsBundle(in: folder)
        let store = folder.appendingPathComponent(Support.fileName(type))
        let old = try bundle.model(named: "Moods")
        try Support.writeMoods(type, at: store, model: old)
        var options = StoreOptions()
        options.migration.stages = [
            .custom(
                from: "Moods", to: "Moods 2",
                willMigrate: { old in
                    let context = ManagedContext(coordinator: old)
                    for mood in try context.fetch(FetchRequest(entityName: "Mood")) {
                        context.delete(mood)
                    }
                    try context.save()
                }),
            .custom(from: "Moods 2", to: "Moods 3", didMigrate: { _ in throw Refused() }),
        ]
        let coordinator = try StoreCoordinator(bundle: bundle)
        #expect {
            try coordinator.addStore(type: type, at: store, options: options)
        } throws: { error in
            guard case MigrationError.stageFailed(let stage, _) = error else { return false }
            return stage == "Moods 2 → Moods 3 (inferred)"
        }
        let before = StoreCoordinator(model: old)
        try before.addStore(type: type, at: store, options: StoreOptions(isReadOnly: true))
        #expect(try Support.contents(before).moods.count == 3)
    }

    @Test("a stage naming a version the bundle lacks is refused")
    func unknownVersion() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let bundle = try Support.moodsBundle(in: folder)
        let store = folder.appendingPathComponent("Moods.xml")
        try Support.writeMoods(.xml, at: store, model: try bundle.model(named: "Moods"))
        var options = StoreOptions()
        options.migration.stages = [.lightweight(from: "Moods", to: "Moods 9")]
        #expect {
            try StoreCoordinator(bundle: bundle).addStore(type: .xml, at: store, options: options)
        } throws: { error in
            guard case MigrationError.stageFailed(let stage, let reason) = error else {
                return false
            }
            return stage == "Moods → Moods 9" && reason.contains("Moods 9")
        }
    }
}
