import Foundation
import SQLiteDatabase
import Testing

@testable import ObjectGraph

/// Reads that scale with the objects involved are batched: a save resolving many conflicts and
/// a refreshing fetch of many held objects read their rows in a few queries, not one per
/// object (counted with the SQLite store's statement trace).
@Suite("Batched reads of conflicting and refetched rows")
struct ConflictReadCountTests {
    static let people = 60

    /// A SQLite store holding `people` people (unique emails), and two contexts on it.
    static func fixture(_ folder: URL) throws -> (ManagedContext, ManagedContext) {
        let coordinator = StoreCoordinator(model: MergePolicyTests.Fixture.model())
        try coordinator.addStore(type: .sqlite, at: folder.appendingPathComponent("P.sqlite"))
        let seed = ManagedContext(coordinator: coordinator)
        for index in 0..<people {
            try MergePolicyTests.insert(seed, "p\(index)@x", name: "P", age: 1, city: "Oslo")
        }
        try seed.save()
        return (ManagedContext(coordinator: coordinator), ManagedContext(coordinator: coordinator))
    }

    /// Counts the SELECT statements the store runs while `body` runs.
    static func selects(_ context: ManagedContext, _ body: () throws -> Void) throws -> Int {
        let counter = QueryCounter()
        try context.coordinator.withStoresLocked { stores in
            for case let store as SQLiteStore in stores {
                try store.database.trace { sql in
                    if sql.uppercased().hasPrefix("SELECT") { counter.count += 1 }
                }
            }
        }
        defer {
            try? context.coordinator.withStoresLocked { stores in
                for case let store as SQLiteStore in stores { try store.database.trace(nil) }
            }
        }
        try body()
        return counter.count
    }

    @Test("a save merging 60 conflicting objects reads them in a few queries")
    func conflicts() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let (mine, theirs) = try Self.fixture(folder)
        let request = FetchRequest(entityName: "Person")
        let everyone = try mine.fetch(request)
        for person in try theirs.fetch(request) { try person.set(2, for: "age") }
        try theirs.save()
        for person in everyone { try person.set("Rome", for: "city") }
        mine.mergePolicy = .mergeByPropertyObjectTrump
        let count = try Self.selects(mine) { try mine.save() }
        #expect(count <= 4, "\(count) SELECTs for \(Self.people) conflicts")
        let stored = try ManagedContext(coordinator: mine.coordinator).fetch(request)
        #expect(stored.allSatisfy { $0["age"] as Int? == 2 && $0["city"] as String? == "Rome" })
    }

    @Test("a refreshing fetch of 60 held objects reads them again in a few queries")
    func refetch() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let (mine, theirs) = try Self.fixture(folder)
        var request = FetchRequest(entityName: "Person")
        let held = try mine.fetch(request)
        for person in held { _ = person["age"] as Int? }
        for person in try theirs.fetch(request) { try person.set(3, for: "age") }
        try theirs.save()
        try held[0].set("Rome", for: "city")
        request.shouldRefreshRefetchedObjects = true
        var again: [ManagedObject] = []
        let count = try Self.selects(mine) { again = try mine.fetch(request) }
        #expect(count <= 4, "\(count) SELECTs for \(Self.people) refetched objects")
        #expect(again.count == Self.people)
        #expect(held.allSatisfy { $0["age"] as Int? == 3 })
        #expect(held[0]["city"] as String? == "Rome", "unsaved changes kept")

        // refreshAllObjects reads the changed objects together too.
        for person in held { try person.set(4, for: "age") }
        let all = try Self.selects(mine) { try mine.refreshAllObjects() }
        #expect(all <= 4, "\(all) SELECTs for refreshAllObjects")
    }
}
