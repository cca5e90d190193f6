import Foundation
import Testing

@testable import ObjectGraph

/// Which family each failure around the stores belongs to, and what it names: misuse is an
/// `ObjectGraphError`; a store that cannot do its work is a `StoreError` naming its file (or,
/// without a file, its type and identifier).
@Suite("Store errors name what went wrong")
struct StoreErrorTests {
    @Test("asking for what the coordinator does not have is misuse, named")
    func misuse() throws {
        let coordinator = StoreCoordinator(model: TestModels.league())
        #expect(throws: ObjectGraphError.unknownConfiguration("Nope")) {
            try coordinator.addStore(type: .inMemory, configuration: "Nope")
        }
        #expect(throws: ObjectGraphError.storeNeedsURL(type: "SQLite")) {
            try coordinator.addStore(type: .sqlite)
        }
        #expect(throws: ObjectGraphError.storeNeedsURL(type: "Binary")) {
            try coordinator.addStore(type: .binary)
        }
    }

    @Test("moving a store onto an existing file names the file")
    func migrationTarget() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let coordinator = StoreCoordinator(model: TestModels.league())
        let store = try coordinator.addStore(type: .inMemory)
        let target = folder.appendingPathComponent("taken.xml")
        try Data("keep".utf8).write(to: target)
        #expect(throws: ObjectGraphError.fileExists(path: target.path)) {
            try coordinator.migrateStore(store, to: target, type: .xml)
        }
    }

    @Test("a read-only store without a file refuses a save naming its type and identifier")
    func readOnlyInMemory() throws {
        let coordinator = StoreCoordinator(model: TestModels.league())
        let store = try coordinator.addStore(options: StoreOptions(isReadOnly: true))
        let context = ManagedContext(coordinator: coordinator)
        try context.insert("Team").set("Red", for: "name")
        do {
            try context.save()
            Issue.record("expected the save to be refused")
        } catch SaveError.store(let error) {
            #expect(error == .readOnly(path: "InMemory store \(store.identifier)"))
        }
    }

    @Test("an atomic store that cannot write a value says which file and why")
    func cannotWrite() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.xml")
        let context = try XMLStoreTests.open(url)
        try context.insert("Team").set("bell \u{7}", for: "name")
        do {
            try context.save()
            Issue.record("expected the save to fail")
        } catch let error as StoreError {
            guard case .cannotWrite(let path, let reason) = error else {
                Issue.record("expected cannotWrite, got \(error)")
                return
            }
            #expect(path == url.path)
            #expect(reason.contains("U+0007"))
        }
    }
}
