import Foundation
import SQLiteDatabase
import Testing

@testable import ObjectGraph

@Suite("SQLite migration: inferred, in place")
struct SQLiteMigrationTests {
    typealias Support = SQLiteMigrationSupport

    /// Person (name required, age, email, nick; team, clubs), Player (number) under Person,
    /// Team (name; members), Club (title; members).
    static func league() -> EntityModel {
        var person = Entity("Person")
        person.attributes = [
            Attribute("name", type: .string, isOptional: false), Attribute("age", type: .integer16),
            Attribute("email", type: .string), Attribute("nick", type: .string),
        ]
        person.relationships = [
            Relationship("team", destination: "Team", inverse: "members"),
            Relationship("clubs", destination: "Club", toMany: true, inverse: "members"),
        ]
        var player = Entity("Player", parent: "Person")
        player.attributes = [Attribute("number", type: .integer32)]
        var team = Entity("Team")
        team.attributes = [Attribute("name", type: .string)]
        team.relationships = [
            Relationship("members", destination: "Person", toMany: true, inverse: "team")
        ]
        var club = Entity("Club")
        club.attributes = [Attribute("title", type: .string)]
        club.relationships = [
            Relationship("members", destination: "Person", toMany: true, inverse: "clubs")
        ]
        return EntityModel(entities: [person, player, team, club])
    }

    /// Fills a league store: 2 teams, 2 clubs, 3 people and a player; returns each object's
    /// URI by its name.
    static func fill(_ url: URL) throws -> [String: URL] {
        let context = try Support.open(url, league())
        let red = try context.insert("Team")
        try red.set("Red", for: "name")
        let blue = try context.insert("Team")
        try blue.set("Blue", for: "name")
        let chess = try context.insert("Club")
        try chess.set("Chess", for: "title")
        let golf = try context.insert("Club")
        try golf.set("Golf", for: "title")
        var people: [ManagedObject] = []
        for (index, name) in ["Ann", "Bob", "Cy", "Dee"].enumerated() {
            let person = try context.insert(name == "Dee" ? "Player" : "Person")
            try person.set(name, for: "name")
            try person.set(20 + index, for: "age")
            try person.set("\(name.lowercased())@x", for: "email")
            try person.set("n-\(name)", for: "nick")
            people.append(person)
        }
        try people[3].set(9, for: "number")
        try red.setObjects([people[0], people[1], people[3]], for: "members")
        try blue.setObjects([people[2]], for: "members")
        try chess.setObjects([people[0], people[3]], for: "members")
        try golf.setObjects([people[0], people[1], people[2]], for: "members")
        try context.save()
        var uris: [String: URL] = [:]
        for object in people + [red, blue, chess, golf] {
            let key = (object["name"] as String?) ?? (object["title"] as String?) ?? ""
            uris[key] = object.objectID.uriRepresentation
        }
        return uris
    }

    /// The league with `name` renamed `fullName`, `nick` removed, `rating` (Integer 16,
    /// default 0) added, and an entity `Aardvark` sorting first (every Z_ENT moves up by one).
    static func leagueV2() -> EntityModel {
        var model = league()
        var entities = model.entities
        var person = entities[0]
        var fullName = Attribute("fullName", type: .string, isOptional: false)
        fullName.renamingIdentifier = "name"
        person.attributes = [
            fullName, Attribute("age", type: .integer16), Attribute("email", type: .string),
            Attribute("rating", type: .integer16, isOptional: false, defaultValueString: "0"),
        ]
        entities[0] = person
        var aardvark = Entity("Aardvark")
        aardvark.attributes = [Attribute("legs", type: .integer16)]
        entities.append(aardvark)
        model = EntityModel(entities: entities)
        return model
    }

    @Test("add with default, rename, drop and Z_ENT renumbering keep every object, key and link")
    func addRenameDropRenumber() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.sqlite")
        let uris = try Self.fill(url)
        let v1 = Self.league()
        let v2 = Self.leagueV2()
        let mapping = try Support.inferred(
            from: v1, to: v2,
            propertyRenames: ["Person": ["fullName": "name"], "Player": ["fullName": "name"]])
        var reports: [MigrationProgress] = []
        try SQLiteStoreMigration.migrate(storeAt: url, steps: [Support.step(v1, v2, mapping)]) {
            reports.append($0)
        }
        #expect(reports.last?.fractionCompleted == 1)
        #expect(reports.contains { $0.entityName == "Person" })

        try Support.expectFreshSchema(url, v2, folder: folder)
        let context = try Support.open(url, v2)
        let coordinator = context.coordinator
        let people = try context.fetch(FetchRequest(entityName: "Person"))
        #expect(people.count == 4)
        for person in people {
            let name = try #require(person["fullName"] as String?)
            #expect(person.objectID.uriRepresentation == uris[name])
            #expect(person["rating"] as Int? == 0)
            #expect(person["email"] as String? == name.lowercased() + "@x")
        }
        let ann = try context.existingObject(
            with: try coordinator.objectID(forURI: try #require(uris["Ann"])))
        #expect(ann["age"] as Int? == 20)
        #expect(try ann.object(for: "team")?["name"] as String? == "Red")
        #expect(
            Set(try ann.objects(for: "clubs").compactMap { $0["title"] as String? }) == [
                "Chess", "Golf",
            ])
        let dee = try context.existingObject(
            with: try coordinator.objectID(forURI: try #require(uris["Dee"])))
        #expect(dee.entity.name == "Player")
        #expect(dee["number"] as Int? == 9)
        let red = try context.existingObject(
            with: try coordinator.objectID(forURI: try #require(uris["Red"])))
        #expect(
            Set(try red.objects(for: "members").compactMap { $0["fullName"] as String? })
                == ["Ann", "Bob", "Dee"])
        let golf = try context.existingObject(
            with: try coordinator.objectID(forURI: try #require(uris["Golf"])))
        #expect(try golf.objects(for: "members").count == 3)
        // New objects get keys after the kept ones.
        let eve = try context.insert("Person")
        try eve.set("Eve", for: "fullName")
        try eve.setObject(red, for: "team")
        try context.save()
        let keys = people.compactMap { object -> Int64? in
            guard case .permanent(let key) = object.objectID.key else { return nil }
            return key
        }
        guard case .permanent(let eveKey) = eve.objectID.key else {
            Issue.record("Eve has no permanent key")
            return
        }
        #expect(eveKey > keys.max() ?? 0)
    }

    @Test("renaming an entity renames its table and keeps keys; removing one drops its table")
    func entityRenameAndRemove() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.sqlite")
        let uris = try Self.fill(url)
        let v1 = Self.league()
        var entities = v1.entities.filter { $0.name != "Club" }
        entities[0].relationships.removeAll { $0.name == "clubs" }
        entities[2].name = "Squad"
        entities[2].renamingIdentifier = "Team"
        entities[0].relationships[0].destinationEntityName = "Squad"
        entities[0].relationships[0].inverseEntityName = "Squad"
        let v2 = EntityModel(entities: entities)
        let mapping = try Support.inferred(from: v1, to: v2, entityRenames: ["Squad": "Team"])
        try SQLiteStoreMigration.migrate(storeAt: url, steps: [Support.step(v1, v2, mapping)])

        try Support.expectFreshSchema(url, v2, folder: folder)
        let context = try Support.open(url, v2)
        let squads = try context.fetch(FetchRequest(entityName: "Squad"))
        #expect(Set(squads.compactMap { $0["name"] as String? }) == ["Red", "Blue"])
        let red = try #require(squads.first { $0["name"] as String? == "Red" })
        #expect(red.objectID.uriRepresentation.lastPathComponent == uris["Red"]?.lastPathComponent)
        #expect(
            Set(try red.objects(for: "members").compactMap { $0["name"] as String? })
                == ["Ann", "Bob", "Dee"])
    }
}
