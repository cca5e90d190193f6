import Foundation
import SQLiteDatabase
import Testing

@testable import ObjectGraph

/// Counts the statements a store runs.
final class QueryCounter: @unchecked Sendable {
    // Only touched on the test's thread.
    var count = 0
}

@Suite("Faulting and prefetching on SQLite")
struct PrefetchTests {
    static func league(_ folder: URL, teams: Int, members: Int) throws -> URL {
        let url = folder.appendingPathComponent("League.sqlite")
        let context = try SQLiteStoreTests.open(url)
        for t in 0..<teams {
            let team = try context.insert("Team")
            try team.set("T\(t)", for: "name")
            for m in 0..<members {
                let person = try context.insert("Person")
                try person.set("P\(t)-\(m)", for: "name")
                try person.setObject(team, for: "team")
            }
        }
        try context.save()
        return url
    }

    static func counting(_ context: ManagedContext) throws -> QueryCounter {
        let counter = QueryCounter()
        try context.coordinator.withStoresLocked { stores in
            for case let store as SQLiteStore in stores {
                try store.database.trace { _ in counter.count += 1 }
            }
        }
        return counter
    }

    func walk(_ teams: [ManagedObject]) throws -> Int {
        var names = 0
        for team in teams {
            for member in try team.objects(for: "members") where member["name"] as String? != nil {
                names += 1
            }
        }
        return names
    }

    @Test("prefetching members of 60 teams takes a few queries, not one per team")
    func prefetch() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try Self.league(folder, teams: 60, members: 5)

        let plain = try SQLiteStoreTests.open(url)
        let plainCounter = try Self.counting(plain)
        #expect(try walk(try plain.fetch(FetchRequest(entityName: "Team"))) == 300)
        #expect(plainCounter.count >= 60)

        let context = try SQLiteStoreTests.open(url)
        let counter = try Self.counting(context)
        var request = FetchRequest(entityName: "Team")
        request.relationshipKeyPathsForPrefetching = ["members"]
        let teams = try context.fetch(request)
        #expect(try walk(teams) == 300)
        #expect(counter.count <= 4, "\(counter.count) queries")
    }

    @Test("a two-step key path loads every object on it; members faulted before load too")
    func keyPathSteps() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try Self.league(folder, teams: 20, members: 5)

        let context = try SQLiteStoreTests.open(url)
        var people = FetchRequest(entityName: "Person")
        people.predicate = try Predicate(format: "name BEGINSWITH 'P1-'")
        people.relationshipKeyPathsForPrefetching = ["team.members"]
        let fetched = try context.fetch(people)
        #expect(fetched.count == 5)
        #expect(context.registeredObjects.count == 6)
        // Loaded (faults still, as Core Data's prefetched objects are, until used).
        #expect(context.registeredObjects.allSatisfy { $0.state == .loaded })
        let counter = try Self.counting(context)
        let team = try #require(try fetched[0].object(for: "team"))
        #expect(try team.objects(for: "members").count == 5)
        #expect(counter.count == 0)

        // Members known before as faults (the list was loaded, its objects not) are loaded by
        // the prefetch as well.
        let other = try SQLiteStoreTests.open(url)
        let teams = try other.fetch(FetchRequest(entityName: "Team"))
        let members = try teams[0].objects(for: "members")
        #expect(members.allSatisfy { $0.isFault })
        var request = FetchRequest(entityName: "Team")
        request.relationshipKeyPathsForPrefetching = ["members"]
        _ = try other.fetch(request)
        #expect(members.allSatisfy { $0.state == .loaded })
        #expect(try walk(teams) == 100)
    }

    @Test("to-many relationships stay faults until touched")
    func relationshipFaults() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try Self.league(folder, teams: 3, members: 2)
        let context = try SQLiteStoreTests.open(url)
        let teams = try context.fetch(FetchRequest(entityName: "Team"))
        let counter = try Self.counting(context)
        #expect(teams.count == 3)
        #expect(counter.count == 0)
        _ = try teams[0].objects(for: "members")
        #expect(counter.count == 1)
        #expect(!context.hasChanges)
    }

    @Test("object(with:) gives a fault that loads on first use")
    func objectFaults() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try Self.league(folder, teams: 1, members: 1)
        let ids = try SQLiteStoreTests.open(url).fetchObjectIDs(FetchRequest(entityName: "Person"))
        let context = try SQLiteStoreTests.open(url)
        let person = try context.object(with: try #require(ids.first))
        #expect(person.isFault)
        #expect(person["name"] as String? == "P0-0")
        #expect(!person.isFault)
    }

    @Test("fetchBatchSize loads objects a batch at a time")
    func batches() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try Self.league(folder, teams: 25, members: 0)
        let context = try SQLiteStoreTests.open(url)
        let counter = try Self.counting(context)
        var request = FetchRequest(entityName: "Team")
        request.fetchBatchSize = 10
        request.sortDescriptors = [SortDescriptor("name")]
        let teams = try context.fetch(request)
        #expect(teams.count == 25)
        #expect(teams.allSatisfy { $0.isFault })
        #expect(counter.count == 1)
        #expect(teams[0]["name"] as String? == "T0")
        #expect(counter.count == 2)
        #expect(teams[1...9].allSatisfy { $0.state == .loaded })
        #expect(teams[10].isFault)
        #expect(teams[10]["name"] as String? == "T18")
        #expect(counter.count == 3)
    }
}
