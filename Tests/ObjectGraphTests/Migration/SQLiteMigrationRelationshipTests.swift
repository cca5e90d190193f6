import Foundation
import Testing

@testable import ObjectGraph

@Suite("SQLite migration: relationships and inheritance")
struct SQLiteMigrationRelationshipTests {
    typealias Support = SQLiteMigrationSupport
    typealias League = SQLiteMigrationTests

    /// Migrates a filled league store to `v2` and returns a context on it and the URIs.
    static func migrated(
        _ folder: URL, to v2: EntityModel, renames: [String: [String: String]] = [:]
    ) throws -> (ManagedContext, [String: URL]) {
        let url = folder.appendingPathComponent("League.sqlite")
        let uris = try League.fill(url)
        let v1 = League.league()
        let mapping = try Support.inferred(from: v1, to: v2, propertyRenames: renames)
        try SQLiteStoreMigration.migrate(storeAt: url, steps: [Support.step(v1, v2, mapping)])
        try Support.expectFreshSchema(url, v2, folder: folder)
        return (try Support.open(url, v2), uris)
    }

    static func object(_ context: ManagedContext, _ uri: URL?) throws -> ManagedObject {
        try context.existingObject(
            with: try context.coordinator.objectID(forURI: try #require(uri)))
    }

    @Test("to-one → to-many turns a foreign key into a join table, keeping every pair")
    func toOneToMany() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        var entities = League.league().entities
        entities[0].relationships[0].isToMany = true
        entities[0].relationships[0].maxCountString = nil
        let (context, uris) = try Self.migrated(folder, to: EntityModel(entities: entities))
        let ann = try Self.object(context, uris["Ann"])
        #expect(try ann.objects(for: "team").compactMap { $0["name"] as String? } == ["Red"])
        let red = try Self.object(context, uris["Red"])
        #expect(
            Set(try red.objects(for: "members").compactMap { $0["name"] as String? })
                == ["Ann", "Bob", "Dee"])
    }

    @Test("to-many → to-one keeps one target (the first by key); many-to-many → one-to-many")
    func toManyToOne() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        var entities = League.league().entities
        entities[0].relationships[1].isToMany = false
        entities[0].relationships[1].maxCountString = "1"
        let (context, uris) = try Self.migrated(folder, to: EntityModel(entities: entities))
        let cy = try Self.object(context, uris["Cy"])
        #expect(try cy.object(for: "clubs")?["title"] as String? == "Golf")
        let ann = try Self.object(context, uris["Ann"])
        #expect(try ann.object(for: "clubs")?["title"] as String? == "Chess")
        let golf = try Self.object(context, uris["Golf"])
        #expect(
            Set(try golf.objects(for: "members").compactMap { $0["name"] as String? })
                == ["Bob", "Cy"])
    }

    @Test("unordered → ordered fills the order column; ordered → unordered drops it")
    func orderedChanges() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        var entities = League.league().entities
        entities[2].relationships[0].isOrdered = true
        entities[3].relationships[0].isOrdered = true
        let ordered = EntityModel(entities: entities)
        let (context, uris) = try Self.migrated(folder, to: ordered)
        let red = try Self.object(context, uris["Red"])
        #expect(
            try red.objects(for: "members").compactMap { $0["name"] as String? }
                == ["Ann", "Bob", "Dee"])
        let golf = try Self.object(context, uris["Golf"])
        #expect(
            try golf.objects(for: "members").compactMap { $0["name"] as String? }
                == ["Ann", "Bob", "Cy"])
        // And back: ordered → unordered.
        let url = folder.appendingPathComponent("League.sqlite")
        let back = League.league()
        try SQLiteStoreMigration.migrate(
            storeAt: url,
            steps: [Support.step(ordered, back, try Support.inferred(from: ordered, to: back))])
        try Support.expectFreshSchema(url, back, folder: folder)
        let again = try Support.open(url, back)
        #expect(try Self.object(again, uris["Golf"]).objects(for: "members").count == 3)
    }

    /// Person (name) with subentity Player, and Coach (name; team) a root of its own.
    static func club(coachParent: String?, playerParent: String?) -> EntityModel {
        var person = Entity("Person")
        person.attributes = [Attribute("name", type: .string)]
        var player = Entity("Player", parent: playerParent)
        player.attributes = [Attribute("number", type: .integer32)]
        if playerParent == nil { player.attributes.append(Attribute("name", type: .string)) }
        var coach = Entity("Coach", parent: coachParent)
        coach.attributes = coachParent == nil ? [Attribute("name", type: .string)] : []
        coach.relationships = [Relationship("team", destination: "Team", inverse: "coaches")]
        var team = Entity("Team")
        team.attributes = [Attribute("title", type: .string)]
        team.relationships = [
            Relationship("coaches", destination: "Coach", toMany: true, inverse: "team"),
            Relationship("star", destination: "Person"),
        ]
        return EntityModel(entities: [person, player, coach, team])
    }

    @Test("entities moving into and out of a hierarchy: keys kept where the table is kept")
    func inheritanceMoves() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("Club.sqlite")
        let v1 = Self.club(coachParent: nil, playerParent: "Person")
        let v2 = Self.club(coachParent: "Person", playerParent: nil)
        var uris: [String: URL] = [:]
        do {
            let context = try Support.open(url, v1)
            let team = try context.insert("Team")
            try team.set("Lions", for: "title")
            for name in ["P1", "P2"] {
                try context.insert("Person").set(name, for: "name")
            }
            let player = try context.insert("Player")
            try player.set("Pl", for: "name")
            try player.set(7, for: "number")
            let coach = try context.insert("Coach")
            try coach.set("Co", for: "name")
            try coach.setObject(team, for: "team")
            try team.setObject(player, for: "star")
            try context.save()
            for object in try context.fetch(FetchRequest(entityName: "Person"))
                + [coach, team]
            {
                let key = (object["name"] as String?) ?? (object["title"] as String?) ?? ""
                uris[key] = object.objectID.uriRepresentation
            }
        }
        let mapping = try Support.inferred(from: v1, to: v2)
        try SQLiteStoreMigration.migrate(storeAt: url, steps: [Support.step(v1, v2, mapping)])
        try Support.expectFreshSchema(url, v2, folder: folder)
        let context = try Support.open(url, v2)
        let people = try context.fetch(FetchRequest(entityName: "Person"))
        #expect(Set(people.compactMap { $0["name"] as String? }) == ["P1", "P2", "Co"])
        for name in ["P1", "P2"] {
            #expect(try Self.object(context, uris[name])["name"] as String? == name)
        }
        let team = try Self.object(context, uris["Lions"])
        let coach = try #require(try team.objects(for: "coaches").first)
        #expect(coach["name"] as String? == "Co")
        #expect(coach.entity.name == "Coach")
        #expect(try coach.object(for: "team")?["title"] as String? == "Lions")
        // The player left the Person table and kept its key; the team's star follows it… no:
        // `star` points at Person, and a Player is no longer one, so it is cleared.
        let player = try Self.object(context, uris["Pl"])
        #expect(player["number"] as Int? == 7)
        #expect(try team.object(for: "star") == nil)
        // Keys in the Person table are unique and new ones come after them.
        let fresh = try context.insert("Person")
        try fresh.set("P3", for: "name")
        try context.save()
        let keys = try context.fetch(FetchRequest(entityName: "Person")).map(\.objectID.key)
        #expect(Set(keys).count == 4)
    }
}
