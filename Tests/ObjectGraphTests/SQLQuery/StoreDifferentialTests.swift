import Foundation
import SQLiteDatabase
import Testing

@testable import ObjectGraph

/// The same generated fetches through a context on the SQLite store (SQL, row decoding,
/// registration, the in-memory fallback for untranslatable predicates) and through the
/// evaluator: the same objects in the same order.
@Suite("SQLite store: fetches agree with the evaluator")
struct StoreDifferentialTests {
    /// Writes the data set into a store file that ObjectGraph opens (metadata and keys added).
    static func makeStore(_ data: DifferentialDataSet, at url: URL) throws {
        let db = try Database(url: url)
        try data.populate(db)
        let metadata = StoreMetadata(model: data.model, storeUUID: "STORE")
        try db.execute(
            sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
            arguments: [metadata.storeUUID, try metadata.propertyListData()])
        let maxKey = data.objects.map(\.primaryKey).max() ?? 0
        for entity in data.layout.entities {
            try db.execute(
                sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)",
                arguments: [entity.entityNumber, entity.name, entity.superNumber, maxKey])
        }
        try db.close()
    }

    /// A read-only coordinator on a new store file in `folder` holding the data set.
    static func openStore(_ data: DifferentialDataSet, in folder: URL) throws -> StoreCoordinator {
        let url = folder.appendingPathComponent("Differential.sqlite")
        try makeStore(data, at: url)
        let coordinator = StoreCoordinator(model: data.model)
        try coordinator.addStore(type: .sqlite, at: url, options: StoreOptions(isReadOnly: true))
        return coordinator
    }

    @Test("1,000 generated fetches through the store equal the evaluator's answers")
    func differential() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let data = try DifferentialDataSet(seed: 20_261_130)
        let coordinator = try Self.openStore(data, in: folder)
        let (compared, inSQL) = try Self.compareFetches(
            coordinator, data, total: 1_000, counts: false)
        #expect(compared >= 900)
        #expect(inSQL >= 800)
    }

    /// Runs `total` generated fetches (generator seed 7) through contexts on `coordinator`,
    /// expecting the evaluator's objects in its order (and with `counts`, its count too;
    /// without `keyOrdered`, a fetch with no sort, offset or limit in any order, as a store
    /// that leaves it unsorted answers it);
    /// returns how many were compared and how many the store answered in SQL.
    static func compareFetches(
        _ coordinator: StoreCoordinator, _ data: DifferentialDataSet, total: Int, counts: Bool,
        keyOrdered: Bool = true
    ) throws -> (compared: Int, inSQL: Int) {
        var generator = DifferentialPredicateGenerator(seed: 7, data: data)
        var compared = 0
        var inSQL = 0
        for _ in 0..<total {
            let fetch = generator.fetch()
            guard let expected = try? DifferentialHarness.expected(fetch, in: data) else {
                continue
            }
            let context = ManagedContext(coordinator: coordinator)
            var request = FetchRequest(entityName: fetch.entity)
            request.predicate = fetch.predicate
            request.sortDescriptors = fetch.sort
            request.includesSubentities = fetch.includesSubentities
            request.fetchOffset = fetch.offset
            request.fetchLimit = fetch.limit
            let sql = try context.sql(for: request)
            if sql != nil { inSQL += 1 }
            var keys = try context.fetchObjectIDs(request).map { id -> Int64 in
                if case .permanent(let key) = id.key { return key }
                return -1
            }
            if !keyOrdered && fetch.sort.isEmpty && fetch.offset == 0 && fetch.limit == 0 {
                keys.sort()  // no order is promised: compared as a set
            }
            let label = "SQL=\(sql ?? "none") \(fetch.entity) \(fetch.predicate) \(fetch.sort)"
            #expect(keys == expected, "\(label)")
            if counts {
                #expect(try context.count(for: request) == expected.count, "COUNT \(label)")
            }
            compared += 1
        }
        return (compared, inSQL)
    }
}
