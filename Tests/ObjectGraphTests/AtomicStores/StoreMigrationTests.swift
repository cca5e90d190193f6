import Foundation
import Testing

@testable import ObjectGraph

/// `StoreCoordinator.migrateStore(_:to:type:)`: any store to any type, identities kept.
@Suite("Moving stores between types")
struct StoreMigrationTests {
    /// The store types a graph travels through in the round-trip property, from SQLite.
    static let chain: [(type: StoreType, file: String)] = [
        (.xml, "step0.xml"), (.binary, "step1.objectgraph"), (.inMemory, "step2.memory"),
        (.sqlite, "step3.sqlite"), (.binary, "step4.objectgraph"),
    ]

    @Test("a binary store moved to SQLite keeps every object, value and relationship")
    func binaryToSQLite() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let source = folder.appendingPathComponent("League.objectgraph")
        let context = try AtomicStoreTestSupport.open(.binary, at: source)
        try AtomicStoreTestSupport.populate(context, size: 80, seed: 3)
        let before = try AtomicStoreTestSupport.dump(context)
        let coordinator = context.coordinator
        let old = try #require(coordinator.storeDescriptions.first)
        let team = try #require(try context.fetch(FetchRequest(entityName: "Team")).first)
        let oldURI = team.objectID.uriRepresentation

        let target = folder.appendingPathComponent("League.sqlite")
        let new = try coordinator.migrateStore(old, to: target, type: .sqlite)
        #expect(new.type == .sqlite)
        #expect(new.identifier != old.identifier)
        #expect(coordinator.storeDescriptions.map(\.identifier) == [new.identifier])
        let fresh = ManagedContext(coordinator: coordinator)
        #expect(try AtomicStoreTestSupport.dump(fresh) == before)

        let mapped = try coordinator.objectID(forURI: oldURI)
        #expect(mapped.storeIdentifier == new.identifier)
        #expect(mapped.key == team.objectID.key)
        #expect(try fresh.existingObject(with: mapped)["name"] == team["name"])

        let extra = try fresh.insert("Team")
        try fresh.save()
        let teams = try fresh.fetch(FetchRequest(entityName: "Team"))
        let largest =
            teams.compactMap { object -> Int64? in
                if case .permanent(let key) = object.objectID.key, object !== extra { return key }
                return nil
            }.max() ?? 0
        #expect(extra.objectID.key == .permanent(largest + 1))

        let reopened = try AtomicStoreTestSupport.open(.sqlite, at: target)
        var expected = before
        expected["Team/p\(largest + 1)"] = [
            "name": "nil", "members": "", "roster": "", "captain": "nil",
        ]
        #expect(try AtomicStoreTestSupport.dump(reopened) == expected)
        #expect(try Data(contentsOf: source).count > 0)
    }

    @Test(
        "round trip SQLite → XML → binary → in-memory → SQLite → binary: same graph, URIs map",
        arguments: [11, 12, 13] as [UInt64])
    func roundTripProperty(seed: UInt64) throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let start = folder.appendingPathComponent("start.sqlite")
        let context = try AtomicStoreTestSupport.open(.sqlite, at: start)
        try AtomicStoreTestSupport.populate(context, size: 40 + Int(seed) * 5, seed: seed)
        let expected = try AtomicStoreTestSupport.dump(context)
        #expect(expected.count > 40)
        let person = try #require(try context.fetch(FetchRequest(entityName: "Person")).first)
        let uri = person.objectID.uriRepresentation
        try Self.travel(context.coordinator, folder: folder, expected: expected)
        let coordinator = context.coordinator
        let id = try coordinator.objectID(forURI: uri)
        #expect(id.storeIdentifier == coordinator.storeDescriptions.first?.identifier)
        #expect(id.key == person.objectID.key)
        let moved = try ManagedContext(coordinator: coordinator).existingObject(with: id)
        #expect(moved["name"] == person["name"])
    }

    /// Moves the coordinator's store through ``chain``, comparing the dump at every step, and
    /// reopens the file-backed results on their own.
    static func travel(
        _ coordinator: StoreCoordinator, folder: URL, expected: [String: [String: String]],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        for step in chain {
            let current = try #require(coordinator.storeDescriptions.first)
            let url = folder.appendingPathComponent(step.file)
            let moved = try coordinator.migrateStore(current, to: url, type: step.type)
            #expect(moved.type == step.type, sourceLocation: sourceLocation)
            let dump = try AtomicStoreTestSupport.dump(ManagedContext(coordinator: coordinator))
            #expect(dump == expected, "after \(step.type)", sourceLocation: sourceLocation)
            if step.type != .inMemory {
                let alone = StoreCoordinator(model: coordinator.model)
                try alone.addStore(
                    type: step.type, at: url, options: StoreOptions(isReadOnly: true))
                let reopened = try AtomicStoreTestSupport.dump(ManagedContext(coordinator: alone))
                #expect(
                    reopened == expected, "\(step.file) reopened", sourceLocation: sourceLocation)
            }
        }
    }

    @Test(
        "corpus SQLite stores travel through every type and come back the same",
        .enabled(if: TestSupport.hasCorpus))
    func corpusRoundTrip() throws {
        let stores = try CorpusStoreTests.storesWithModels()
        #expect(!stores.isEmpty)
        for (storeURL, modelURL) in stores {
            let folder = try TestSupport.makeTemporaryFolder()
            defer { TestSupport.removeTemporaryFolder(folder) }
            let copy = try CorpusStoreTests.copy(storeURL, to: folder)
            let model = try EntityModel(contentsOf: modelURL)
            let coordinator = StoreCoordinator(model: model)
            try coordinator.addStore(
                type: .sqlite, at: copy, options: StoreOptions(isReadOnly: true))
            let expected = try AtomicStoreTestSupport.dump(ManagedContext(coordinator: coordinator))
            try Self.travel(coordinator, folder: folder, expected: expected)
        }
    }

    @Test("moving onto an existing file is refused and the old store stays in use")
    func existingTarget() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try AtomicStoreTestSupport.open(.inMemory, at: nil)
        try AtomicStoreTestSupport.populate(context, size: 10, seed: 4)
        let target = folder.appendingPathComponent("taken.objectgraph")
        try Data("keep me".utf8).write(to: target)
        let old = try #require(context.coordinator.storeDescriptions.first)
        #expect(throws: ObjectGraphError.self) {
            try context.coordinator.migrateStore(old, to: target, type: .binary)
        }
        #expect(try Data(contentsOf: target) == Data("keep me".utf8))
        #expect(context.coordinator.storeDescriptions.map(\.identifier) == [old.identifier])
        #expect(try context.fetch(FetchRequest(entityName: "Person")).count == 10)
    }
}
