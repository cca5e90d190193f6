import Foundation
import Testing

@testable import ObjectGraph

/// Fetches of more rows than a PostgreSQL store receives whole
/// (``PostgresStore/wholeResultRows``: they are streamed) return every object once, in the
/// order asked for, as fetches of a few rows do; relationships and deletes of that many work.
@Suite("PostgreSQL large fetches")
struct PostgresLargeFetchTests {
    /// How many people the store holds: more than one whole result.
    static let people = PostgresStore.wholeResultRows * 2 + 500

    /// Person `index`'s name and age.
    static func person(_ index: Int) -> (name: String, age: Int) {
        ("p" + String(index + 100_000), index * 7 % 151)
    }

    @Test("a fetch larger than a whole result returns every row once, in the requested order")
    func largeFetches() throws {
        let url = try PostgresStoreTests.freshURL()
        let writer = try PostgresStoreTests.open(url)
        let team = try writer.insert("Team")
        try team.set("all", for: "name")
        for index in 0..<Self.people {
            let person = try writer.insert("Person")
            try person.set(Self.person(index).name, for: "name")
            try person.set(Int16(Self.person(index).age), for: "age")
            try person.setObject(team, for: "team")
        }
        try writer.save()
        let expected = (0..<Self.people).map(Self.person)
        let context = try PostgresStoreTests.open(url)
        var byName = FetchRequest(entityName: "Person")
        byName.sortDescriptors = [SortDescriptor("name", ascending: false)]
        let names = try context.fetch(byName).compactMap { $0["name"] as String? }
        #expect(names == expected.map(\.name).sorted(by: >))
        var byAge = FetchRequest(entityName: "Person")
        byAge.sortDescriptors = [SortDescriptor("age"), SortDescriptor("name")]
        byAge.predicate = try Predicate(format: "age >= 10")
        let sorted = expected.filter { $0.age >= 10 }.sorted {
            ($0.age, $0.name) < ($1.age, $1.name)
        }
        for (offset, limit) in [(0, 0), (100, PostgresStore.wholeResultRows + 200), (7, 20)] {
            byAge.fetchOffset = offset
            byAge.fetchLimit = limit
            let fetched = try context.fetch(byAge).map {
                ($0["name"] as String? ?? "", $0["age"] as Int? ?? -1)
            }
            let slice = sorted.dropFirst(offset).prefix(limit > 0 ? limit : sorted.count)
            #expect(fetched.map(\.0) == slice.map(\.name), "offset \(offset) limit \(limit)")
            #expect(fetched.map(\.1) == slice.map(\.age), "offset \(offset) limit \(limit)")
        }
        var teams = FetchRequest(entityName: "Team")
        teams.relationshipKeyPathsForPrefetching = ["members"]
        let prefetching = try PostgresStoreTests.open(url)
        let fetchedTeam = try #require(try prefetching.fetch(teams).first)
        let members = try fetchedTeam.objects(for: "members").compactMap { $0["name"] as String? }
        #expect(members.count == Self.people)
        #expect(Set(members) == Set(expected.map(\.name)))
    }

    @Test("deleting every object of a large store, as fetched, leaves none")
    func deleteAll() throws {
        let url = try PostgresStoreTests.freshURL()
        let writer = try PostgresStoreTests.open(url)
        for index in 0..<Self.people {
            let person = try writer.insert("Person")
            try person.set(Self.person(index).name, for: "name")
        }
        try writer.save()
        let context = try PostgresStoreTests.open(url)
        let people = try context.fetch(FetchRequest(entityName: "Person"))
        #expect(people.count == Self.people)
        for person in people { context.delete(person) }
        try context.save()
        #expect(
            try PostgresStoreTests.open(url).count(for: FetchRequest(entityName: "Person")) == 0)
    }
}
