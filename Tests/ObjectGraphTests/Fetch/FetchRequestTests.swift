import Foundation
import Testing

@testable import ObjectGraph

@Suite("Fetch requests on the in-memory store")
struct FetchRequestTests {
    /// A saved league: teams Red and Blue; people Ann(30, Red), bob(25, Red), Cy(40, Blue),
    /// Dee(35, none) and the player Eve(22, Blue, #7).
    static func league() throws -> ManagedContext {
        let context = try TestModels.context()
        let blue = try insertTeamsAndPeople(in: context)
        let eve = try context.insert("Player")
        try eve.set("Eve", for: "name")
        try eve.set(22, for: "age")
        try eve.set(7, for: "number")
        try eve.setObject(blue, for: "team")
        try context.save()
        return context
    }

    /// Inserts (unsaved) teams Red and Blue and people Ann(30, Red), bob(25, Red), Cy(40, Blue)
    /// and Dee(35, none); returns Blue.
    static func insertTeamsAndPeople(in context: ManagedContext) throws -> ManagedObject {
        let red = try context.insert("Team")
        try red.set("Red", for: "name")
        let blue = try context.insert("Team")
        try blue.set("Blue", for: "name")
        let people: [(String, Int, ManagedObject?)] = [
            ("Ann", 30, red), ("bob", 25, red), ("Cy", 40, blue), ("Dee", 35, nil),
        ]
        for (name, age, team) in people {
            let person = try context.insert("Person")
            try person.set(name, for: "name")
            try person.set(age, for: "age")
            try person.setObject(team, for: "team")
        }
        return blue
    }

    func names(_ objects: [ManagedObject]) -> [String] {
        objects.map { $0["name"] as String? ?? "?" }
    }

    @Test("predicate, sort, offset and limit")
    func basics() throws {
        let context = try Self.league()
        var request = FetchRequest(entityName: "Person")
        request.predicate = try Predicate(format: "age >= %@", 25)
        request.sortDescriptors = [SortDescriptor("age", ascending: false)]
        #expect(names(try context.fetch(request)) == ["Cy", "Dee", "Ann", "bob"])
        request.fetchOffset = 1
        request.fetchLimit = 2
        #expect(names(try context.fetch(request)) == ["Dee", "Ann"])
        #expect(try context.count(for: request) == 2)
        #expect(try context.fetchObjectIDs(request).count == 2)
    }

    @Test("key paths through to-one relationships in predicates and sorts")
    func keyPaths() throws {
        let context = try Self.league()
        var request = FetchRequest(entityName: "Person")
        request.predicate = try Predicate(format: "team.name == 'Red'")
        request.sortDescriptors = [SortDescriptor("name", comparison: .caseInsensitive)]
        #expect(names(try context.fetch(request)) == ["Ann", "bob"])
        var teams = FetchRequest(entityName: "Team")
        teams.predicate = try Predicate(format: "ANY members.age > 35")
        #expect(names(try context.fetch(teams)) == ["Blue"])
        teams.predicate = try Predicate(format: "members.@count == 2")
        #expect(Set(names(try context.fetch(teams))) == ["Red", "Blue"])
    }

    @Test("subentities are included unless asked not to")
    func subentities() throws {
        let context = try Self.league()
        var request = FetchRequest(entityName: "Person")
        #expect(try context.count(for: request) == 5)
        request.includesSubentities = false
        #expect(try context.count(for: request) == 4)
        #expect(try context.count(for: FetchRequest(entityName: "Player")) == 1)
    }

    @Test("pending changes: unsaved inserts appear, deletes vanish, edits match by new values")
    func pendingChanges() throws {
        let context = try Self.league()
        var request = FetchRequest(entityName: "Person")
        request.predicate = try Predicate(format: "age < 30")
        request.sortDescriptors = [SortDescriptor("name")]
        #expect(names(try context.fetch(request)) == ["Eve", "bob"])
        let zed = try context.insert("Person")
        try zed.set("Zed", for: "name")
        try zed.set(5, for: "age")
        let ann = try #require(
            try context.fetch(
                FetchRequest(
                    entityName: "Person", predicate: try Predicate(format: "name == 'Ann'"))
            ).first)
        try ann.set(20, for: "age")
        let bob = try #require(
            try context.fetch(
                FetchRequest(
                    entityName: "Person", predicate: try Predicate(format: "name == 'bob'"))
            ).first)
        context.delete(bob)
        #expect(names(try context.fetch(request)) == ["Ann", "Eve", "Zed"])
        request.includesPendingChanges = false
        #expect(names(try context.fetch(request)) == ["Eve", "bob"])
    }

    @Test("dictionary results with grouping, aggregates and having")
    func dictionaries() throws {
        let context = try Self.league()
        var request = FetchRequest(entityName: "Person")
        request.predicate = try Predicate(format: "team != nil")
        request.propertiesToFetch = [
            .key("team.name"), .aggregate(.count, of: "age", as: "people"),
            .aggregate(.average, of: "age", as: "meanAge"),
            .aggregate(.max, of: "age", as: "oldest"),
            .aggregate(.sum, of: "age", as: "total"),
        ]
        request.propertiesToGroupBy = ["team.name"]
        request.sortDescriptors = [SortDescriptor("team.name")]
        let rows = try context.fetchDictionaries(request)
        #expect(rows.count == 2)
        let blue = try #require(rows.first { $0["team.name"] == "Blue" })
        #expect(blue["people"] == .integer(2))
        #expect(blue["meanAge"] == .double(31))
        #expect(blue["oldest"] == .integer(40))
        #expect(blue["total"] == .integer(62))
        request.havingPredicate = try Predicate(format: "meanAge < 30")
        #expect(try context.fetchDictionaries(request).map { $0["team.name"] } == [.string("Red")])

        var plain = FetchRequest(entityName: "Team")
        plain.propertiesToFetch = [.key("name")]
        plain.sortDescriptors = [SortDescriptor("name")]
        #expect(try context.fetchDictionaries(plain) == [["name": "Blue"], ["name": "Red"]])
    }

    @Test("fetch request templates with substitution variables")
    func templates() throws {
        var model = TestModels.league()
        model = EntityModel(
            entities: model.entities,
            fetchTemplates: [
                FetchTemplate("byPrefix", entity: "Person", predicate: "name BEGINSWITH[c] $P")
            ])
        let context = try TestModels.context(model)
        for name in ["Ann", "Abe", "Bo"] {
            let person = try context.insert("Person")
            try person.set(name, for: "name")
        }
        var request = try model.fetchRequest(fromTemplate: "byPrefix", variables: ["P": "a"])
        request.sortDescriptors = [SortDescriptor("name")]
        #expect(names(try context.fetch(request)) == ["Abe", "Ann"])
        #expect(throws: ObjectGraphError.self) { try model.fetchRequest(fromTemplate: "nope") }
    }

    @Test("typed results for a registered subclass")
    func typed() throws {
        final class Player: ManagedObject {
            var number: Int? { self["number"] }
        }
        let classes = ManagedObjectClasses()
        classes.register(Player.self, forEntity: "Player")
        let coordinator = StoreCoordinator(model: TestModels.league())
        try coordinator.addStore()
        let context = ManagedContext(coordinator: coordinator, classes: classes)
        let eve = try context.insert(Player.self)
        try eve.set("Eve", for: "name")
        try eve.set(7, for: "number")
        let players = try context.fetch(FetchRequest<Player>())
        #expect(players.first?.number == 7)
    }

    @Test("Codable values in a Transformable attribute")
    func codable() throws {
        var thing = Entity("Thing")
        thing.attributes = [
            Attribute("tags", type: .transformable), Attribute("n", type: .integer16),
        ]
        let context = try TestModels.context(EntityModel(entities: [thing]))
        let object = try context.insert("Thing")
        try object.setCodable(["a", "b"], for: "tags")
        #expect(try object.codable([String].self, for: "tags") == ["a", "b"])
        #expect(throws: (any Error).self) { try object.codable(Int.self, for: "tags") }
        #expect(throws: ObjectGraphError.self) { try object.setCodable([1], for: "n") }
    }
}
