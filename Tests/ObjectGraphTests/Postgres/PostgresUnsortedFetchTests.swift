import Foundation
import PostgresClient
import Testing

@testable import ObjectGraph

/// A PostgreSQL fetch with no sort descriptors, no offset and no limit runs without `ORDER BY`
/// (its order unspecified, as Core Data's): it still returns exactly the saved objects with
/// their values, while a limited or offset one, and one limited over pending changes, keeps
/// key order; batched fetches still fault their objects in. The fixture's table is not in key
/// order on disk (updated rows moved to its end), so an unsorted scan differs from key order.
@Suite("PostgreSQL unsorted fetches")
struct PostgresUnsortedFetchTests {
    /// How many people the fixture saves.
    static let count = 12

    /// A store with one team and ``count`` people `P00`… (age `index`), of which the first
    /// three were saved again (age `index + 50`), which moves their rows to the table's end.
    /// Returns its URL and every person's key in key order.
    static func seed() throws -> (url: URL, keys: [Int64]) {
        let url = try PostgresStoreTests.freshURL()
        let context = try PostgresStoreTests.open(url)
        let team = try context.insert("Team")
        try team.set("Red", for: "name")
        for index in 0..<count {
            let person = try context.insert("Person")
            try person.set(name(index), for: "name")
            try person.set(Int64(index), for: "age")
            try person.setObject(team, for: "team")
        }
        try context.save()
        let editor = try PostgresStoreTests.open(url)
        for person in try editor.fetch(FetchRequest(entityName: "Person")) {
            guard let name: String = person["name"], let index = Int(name.dropFirst()),
                index < 3
            else { continue }
            try person.set(Int64(index + 50), for: "age")
        }
        try editor.save()
        let keys = try editor.fetchObjectIDs(FetchRequest(entityName: "Person")).map(key).sorted()
        return (url, keys)
    }

    static func name(_ index: Int) -> String { index < 10 ? "P0\(index)" : "P\(index)" }

    /// The age saved for person `index`.
    static func age(_ index: Int) -> Int64 { Int64(index < 3 ? index + 50 : index) }

    static func key(_ id: ObjectID) -> Int64 {
        if case .permanent(let key) = id.key { return key }
        return -1
    }

    /// The keys of `ZPERSON` in the order a plain scan reads them.
    static func scanOrder(_ url: URL) throws -> [Int64] {
        let (connection, schema) = try PostgresStoreTests.inspect(url)
        return try connection.execute(
            "SELECT \"Z_PK\" FROM \(PostgresIdentifier.quoted(schema)).\"ZPERSON\""
        ).rows.map { try $0.int64(0) }
    }

    @Test("an unsorted fetch runs without ORDER BY and returns every object with its values")
    func everyObject() throws {
        let (url, keys) = try Self.seed()
        #expect(try Self.scanOrder(url) != keys, "the fixture's scan is in key order")
        let log = PostgresBatchingTests.StatementLog()
        let context = try PostgresStoreTests.open(url, options: log.options)
        _ = log.takeSelects()
        let people = try context.fetch(FetchRequest(entityName: "Person"))
        let selects = log.takeSelects()
        #expect(selects.count == 1, "\(selects)")
        #expect(selects.allSatisfy { !$0.contains("ORDER BY") }, "\(selects)")
        #expect(Set(people.map { Self.key($0.objectID) }) == Set(keys))
        #expect(people.count == Self.count)
        for person in people {
            let name: String? = person["name"]
            let index = try #require(name.flatMap { Int($0.dropFirst()) })
            #expect(name == Self.name(index))
            #expect(person["age"] == Self.age(index), "\(name ?? "")")
            #expect(try person.object(for: "team")?["name"] == "Red")
        }
        let ids = try context.fetchObjectIDs(FetchRequest(entityName: "Person"))
        #expect(Set(ids.map(Self.key)) == Set(keys))
        #expect(ids.count == Self.count)
    }

    @Test("an unsorted fetch with a limit or an offset is in key order")
    func pagesInKeyOrder() throws {
        let (url, keys) = try Self.seed()
        let context = try PostgresStoreTests.open(url)
        for (offset, limit) in [(0, 4), (3, 4), (9, 0), (0, Self.count)] {
            var request = FetchRequest(entityName: "Person")
            request.fetchOffset = offset
            request.fetchLimit = limit
            let expected = Array(keys.dropFirst(offset).prefix(limit > 0 ? limit : keys.count))
            #expect(try context.fetch(request).map { Self.key($0.objectID) } == expected)
            #expect(try context.fetchObjectIDs(request).map(Self.key) == expected)
        }
    }

    @Test("an unsorted fetch limited over pending changes takes the saved objects in key order")
    func limitedOverPendingChanges() throws {
        let (url, keys) = try Self.seed()
        let context = try PostgresStoreTests.open(url)
        let added = try context.insert("Person")
        try added.set("New", for: "name")
        var request = FetchRequest(entityName: "Person")
        request.fetchLimit = 4
        #expect(try context.fetch(request).map { Self.key($0.objectID) } == Array(keys.prefix(4)))
        request.fetchLimit = 0
        request.fetchOffset = Self.count - 1
        let tail = try context.fetch(request)
        #expect(tail.count == 2)
        #expect(tail.first.map { Self.key($0.objectID) } == keys.last)
        #expect(tail.last === added)
        // A child context limiting over its own pending insert asks its parent in key order.
        let child = ManagedContext(parent: context)
        _ = try child.insert("Person")
        request.fetchOffset = 0
        request.fetchLimit = 4
        let page = try child.fetch(request)
        #expect(page.prefix(4).map { Self.key($0.objectID) } == Array(keys.prefix(4)))
    }

    @Test("an unsorted dictionary fetch with a limit reads the saved rows in key order")
    func dictionariesInKeyOrder() throws {
        let (url, keys) = try Self.seed()
        let context = try PostgresStoreTests.open(url)
        var names: [Int64: String] = [:]
        for person in try context.fetch(FetchRequest(entityName: "Person")) {
            names[Self.key(person.objectID)] = person["name"]
        }
        var request = FetchRequest(entityName: "Person")
        request.propertiesToFetch = [.key("name")]
        request.fetchLimit = 4
        let rows = try context.fetchDictionaries(request)
        #expect(rows.map { $0["name"] } == keys.prefix(4).map { names[$0].map(Value.string) })
    }

    @Test("a batched unsorted fetch returns every object, each reading its saved values")
    func batched() throws {
        let (url, keys) = try Self.seed()
        let context = try PostgresStoreTests.open(url)
        var request = FetchRequest(entityName: "Person")
        request.fetchBatchSize = 5
        let people = try context.fetch(request)
        #expect(people.count == Self.count)
        #expect(Set(people.map { Self.key($0.objectID) }) == Set(keys))
        for person in people {
            let name: String? = person["name"]
            let index = try #require(name.flatMap { Int($0.dropFirst()) })
            #expect(person["age"] == Self.age(index), "\(name ?? "")")
        }
    }
}
