import Foundation
import Testing

@testable import ObjectGraph

/// The context's row cache: rows of objects it let go are not decoded again when fetched at
/// the same version, and what the cache gives back is what the store holds.
@Suite("Row cache")
struct RowCacheTests {
    /// A league (``RedTeamLeague``) with `extra` more people in team Red, opened.
    private static func league(in folder: URL, extra: Int) throws -> (URL, ManagedContext) {
        let url = try ContextHoldingTests.league(in: folder, extra: extra)
        return (url, try SQLiteStoreTests.open(url))
    }

    /// The names of every person, fetched in `context` by objects let go on return.
    private static func names(_ context: ManagedContext) throws -> Set<String> {
        let people = try context.fetch(FetchRequest(entityName: "Person"))
        return Set(people.compactMap { $0["name"] as String? })
    }

    @Test("rows of objects let go are not decoded again, and read the same")
    func refetchTakesCachedRows() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let (_, context) = try Self.league(in: folder, extra: 200)
        let first = try Self.names(context)
        #expect(first.count == 202)
        #expect(context.registeredObjects.isEmpty)
        // Only the runs of the last blocks are kept (at most two blocks), and a few rows
        // whose keys share their places may be dropped.
        let cached = context.rowCache.count
        #expect(cached > 50)
        let second = try Self.names(context)
        #expect(second == first)
        #expect(context.rowCache.hits == cached)
        #expect(context.registeredObjects.isEmpty)
    }

    @Test("a row changed by another context's save is read again, not taken from the cache")
    func changedRowIsNotStale() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let (url, context) = try Self.league(in: folder, extra: 0)
        #expect(try Self.names(context) == ["Ann", "Bob"])
        let other = try SQLiteStoreTests.open(url)
        try RedTeamLeague.one(other, "Person", "Ann").set("Eve", for: "name")
        try other.save()  // not merged into `context`
        #expect(try Self.names(context) == ["Eve", "Bob"])
        #expect(context.rowCache.hits == 1)  // Bob's row, unchanged
    }

    @Test("a cached row holds no related object and no transient value")
    func cachedRowHoldsNoObjects() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let (_, context) = try Self.league(in: folder, extra: 0)
        weak var team: ManagedObject?
        do {
            let ann = try RedTeamLeague.one(context, "Person", "Ann")
            team = try ann.object(for: "team")
            #expect(team != nil)
            try ann.set("kept in memory only", for: "memo")
            try context.save()
        }
        #expect(team == nil)  // Ann's cached row does not hold her team
        #expect(context.registeredObjects.isEmpty)
        #expect(context.rowCache.count >= 1)
        let ann = try RedTeamLeague.one(context, "Person", "Ann")
        #expect(context.rowCache.hits >= 1)
        #expect(ann["memo"] as String? == nil)
        #expect(try ann.object(for: "team")?["name"] as String? == "Red")
    }

    @Test("reset empties the cache")
    func resetEmptiesCache() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let (_, context) = try Self.league(in: folder, extra: 10)
        _ = try Self.names(context)
        #expect(context.rowCache.count > 0)
        context.reset()
        #expect(context.rowCache.count == 0)
    }
}
