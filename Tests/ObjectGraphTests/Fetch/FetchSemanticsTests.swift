import Foundation
import Testing

@testable import ObjectGraph

/// What a fetch returns, as Core Data documents it, on every store type: dictionary results
/// from the store only, the columns `propertiesToFetch` takes, a having-predicate naming
/// fetched columns, `includesPropertyValues` and `shouldRefreshRefetchedObjects`.
@Suite("What a fetch returns")
struct FetchSemanticsTests {
    static let storeTypes: [StoreType] = [.sqlite, .xml, .binary, .inMemory]

    /// A coordinator with one store of `type` (in a temporary folder for file stores) holding
    /// the saved league: Red (Ann 30, bob 25), Blue (Cy 40), and Dee 35 in no team.
    final class League {
        let folder: URL
        let coordinator: StoreCoordinator
        let context: ManagedContext

        init(_ type: StoreType) throws {
            folder = try TestSupport.makeTemporaryFolder()
            coordinator = StoreCoordinator(model: TestModels.league())
            let url = type == .inMemory ? nil : folder.appendingPathComponent("league.\(type)")
            try coordinator.addStore(type: type, at: url)
            context = ManagedContext(coordinator: coordinator)
            _ = try FetchRequestTests.insertTeamsAndPeople(in: context)
            try context.save()
        }

        deinit { TestSupport.removeTemporaryFolder(folder) }

        func person(_ name: String, in context: ManagedContext? = nil) throws -> ManagedObject {
            let request = FetchRequest(
                entityName: "Person", predicate: try Predicate(format: "name == %@", name))
            return try #require(try (context ?? self.context).fetch(request).first)
        }
    }

    @Test(
        "dictionary results reflect the store: no pending inserts, edits or deletions",
        arguments: storeTypes)
    func dictionariesIgnorePendingChanges(_ type: StoreType) throws {
        let league = try League(type)
        let context = league.context
        let zed = try context.insert("Person")
        try zed.set("Zed", for: "name")
        try zed.set(5, for: "age")
        try league.person("Ann").set(20, for: "age")
        context.delete(try league.person("bob"))
        let registered = context.registeredObjects.count

        var request = FetchRequest(entityName: "Person")
        request.propertiesToFetch = [.key("name"), .key("age")]
        request.sortDescriptors = [SortDescriptor("name")]
        let saved: [[String: Value]] = [
            ["name": "Ann", "age": 30], ["name": "Cy", "age": 40], ["name": "Dee", "age": 35],
            ["name": "bob", "age": 25],
        ]
        #expect(try context.fetchDictionaries(request) == saved)
        request.includesPendingChanges = false
        #expect(try context.fetchDictionaries(request) == saved)

        request.includesPendingChanges = true
        request.predicate = try Predicate(format: "age < 31")
        #expect(try context.fetchDictionaries(request).map { $0["name"] } == ["Ann", "bob"])

        var totals = FetchRequest(entityName: "Person")
        totals.propertiesToFetch = [
            .aggregate(.sum, of: "age", as: "total"), .aggregate(.count, of: "age", as: "people"),
        ]
        #expect(try context.fetchDictionaries(totals) == [["total": 130, "people": 4]])
        var saved30 = FetchRequest(entityName: "Person")
        saved30.predicate = try Predicate(format: "age >= 30")
        saved30.includesPendingChanges = false
        saved30.fetchLimit = 2
        #expect(try context.count(for: saved30) == 2)
        // A dictionary fetch makes no objects.
        #expect(context.registeredObjects.count == registered)
    }

    @Test(
        "objects ignoring pending changes are ordered by their saved values", arguments: storeTypes)
    func savedOrderWithoutPendingChanges(_ type: StoreType) throws {
        let league = try League(type)
        try league.person("Dee").set(10, for: "age")
        var request = FetchRequest(entityName: "Person")
        request.sortDescriptors = [SortDescriptor("age")]
        request.includesPendingChanges = false
        let names = try league.context.fetch(request).map { $0["name"] as String? }
        #expect(names == ["bob", "Ann", "Dee", "Cy"])
    }

    @Test(
        "propertiesToFetch: to-one relationships as IDs, the object ID, expression aggregates",
        arguments: storeTypes)
    func columns(_ type: StoreType) throws {
        let league = try League(type)
        let ann = try league.person("Ann")
        let red = try #require(try ann.object(for: "team"))
        var request = FetchRequest(entityName: "Person")
        request.predicate = try Predicate(format: "name == 'Ann'")
        request.propertiesToFetch = [.objectID(), .key("team"), .key("team.name")]
        #expect(
            try league.context.fetchDictionaries(request) == [
                [
                    "objectID": .objectID(ann.objectID), "team": .objectID(red.objectID),
                    "team.name": "Red",
                ]
            ])

        var sums = FetchRequest(entityName: "Person")
        sums.propertiesToFetch = [
            .key("team.name"),
            .expression(.function("sum:", [.keyPath(PredicateKeyPath("age"))]), as: "total"),
            .expression(.function("count:", [.keyPath(PredicateKeyPath("age"))]), as: "people"),
        ]
        sums.propertiesToGroupBy = ["team.name"]
        sums.sortDescriptors = [SortDescriptor("team.name")]
        let rows = try league.context.fetchDictionaries(sums)
        #expect(
            rows.first { $0["team.name"] == "Red" } == [
                "team.name": "Red", "total": 55, "people": 2,
            ])
        #expect(rows.count == 3)
    }

    @Test("a to-many relationship among the columns is an error naming it", arguments: storeTypes)
    func toManyColumn(_ type: StoreType) throws {
        let league = try League(type)
        var request = FetchRequest(entityName: "Person")
        for key in ["clubs", "team.members", "team.members.name"] {
            request.propertiesToFetch = [.key("name"), .key(key)]
            let error = #expect(throws: ObjectGraphError.self) {
                try league.context.fetchDictionaries(request)
            }
            let entity = key == "clubs" ? "Person" : "Team"
            let property = key == "clubs" ? "clubs" : "members"
            guard case .wrongPropertyKind(entity, property, _)? = error else {
                Issue.record("\(key): \(String(describing: error))")
                continue
            }
        }
        request.propertiesToFetch = [.aggregate(.count, of: "name", as: "n")]
        request.propertiesToGroupBy = ["clubs"]
        #expect(throws: ObjectGraphError.self) { try league.context.fetchDictionaries(request) }
    }

    @Test(
        "a having-predicate names fetched expressions by name, as $variables or keys",
        arguments: storeTypes)
    func havingNamesColumns(_ type: StoreType) throws {
        let league = try League(type)
        var request = FetchRequest(entityName: "Person")
        request.propertiesToFetch = [
            .key("team.name"),
            .expression(.function("count:", [.keyPath(PredicateKeyPath("age"))]), as: "count"),
            .aggregate(.average, of: "age", as: "mean"),
        ]
        request.propertiesToGroupBy = ["team.name"]
        request.sortDescriptors = [SortDescriptor("team.name")]
        for format in ["$count > 1", "count > 1", "$count > %@ AND $mean < 30"] {
            request.havingPredicate = try Predicate(format: format, 1)
            let rows = try league.context.fetchDictionaries(request)
            #expect(rows.map { $0["team.name"] } == ["Red"], "\(format)")
        }
        request.havingPredicate = try Predicate(format: "team.name == 'Red' OR $team.name == nil")
        #expect(
            Set(try league.context.fetchDictionaries(request).map { $0["team.name"] })
                == [.null, "Red"])
        request.havingPredicate = try Predicate(format: "$mean >= 35")
        #expect(
            Set(try league.context.fetchDictionaries(request).map { $0["team.name"] })
                == [.null, "Blue"])
    }

    @Test("includesPropertyValues false: IDs only, values load on first use", arguments: storeTypes)
    func withoutPropertyValues(_ type: StoreType) throws {
        let league = try League(type)
        let context = ManagedContext(coordinator: league.coordinator)
        var request = FetchRequest(entityName: "Person")
        request.sortDescriptors = [SortDescriptor("name")]
        request.includesPropertyValues = false
        #expect(FetchRequest<ManagedObject>(entityName: "Person").includesPropertyValues)
        let people = try context.fetch(request)
        #expect(people.allSatisfy { $0.state == .fault })
        #expect(people.map { $0["name"] as String? } == ["Ann", "Cy", "Dee", "bob"])
        #expect(people.allSatisfy { $0.state == .loaded })
    }

    @Test(
        "shouldRefreshRefetchedObjects: refetched objects take the store's values, unsaved changes kept",
        arguments: storeTypes)
    func refreshRefetched(_ type: StoreType) throws {
        let league = try League(type)
        let reader = ManagedContext(coordinator: league.coordinator)
        let ann = try league.person("Ann", in: reader)
        let cy = try league.person("Cy", in: reader)
        try cy.set("Cyrus", for: "name")
        #expect(ann["age"] as Int? == 30)
        let writer = ManagedContext(coordinator: league.coordinator)
        try league.person("Ann", in: writer).set(31, for: "age")
        try league.person("Cy", in: writer).set(41, for: "age")
        try writer.save()

        var ages = FetchRequest(entityName: "Person")
        ages.predicate = try Predicate(format: "name == 'Ann'")
        ages.propertiesToFetch = [.key("age")]
        #expect(try reader.fetchDictionaries(ages) == [["age": 31]])  // the store, not `ann`

        var request = FetchRequest(entityName: "Person")
        request.predicate = try Predicate(format: "age >= 31")
        #expect(
            FetchRequest<ManagedObject>(entityName: "Person").shouldRefreshRefetchedObjects == false
        )
        _ = try reader.fetch(request)
        #expect(ann["age"] as Int? == 30)  // kept: refetching does not refresh by default
        request.shouldRefreshRefetchedObjects = true
        let fetched = try reader.fetch(request)
        #expect(fetched.contains { $0 === ann })
        #expect(ann["age"] as Int? == 31)
        #expect(cy["age"] as Int? == 41)
        #expect(cy["name"] as String? == "Cyrus")  // the unsaved change stays on top
        #expect(cy.hasChanges && !ann.hasChanges)
    }
}
