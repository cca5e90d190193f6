import Foundation
import PostgresClient
import Testing

@testable import ObjectGraph

/// Moving stores between SQLite and PostgreSQL (`migrateStore`), and migrating a PostgreSQL
/// store to another model version in one transaction.
@Suite("PostgreSQL migration and conversion")
struct PostgresMigrationTests {
    /// Whether the staging schema of the store `url` names is there (other tests' stores
    /// have staging schemas of their own).
    static func hasStaging(_ url: URL) throws -> Bool {
        let (connection, _) = try PostgresStoreTests.inspect(url)
        return try connection.execute(
            "SELECT count(*) FROM pg_namespace WHERE nspname = $1::text",
            [.text(try PostgresStoreInstaller(url: url).staging)]
        ).rows.first?.int64(0) != 0
    }

    @Test("SQLite → PostgreSQL → SQLite keeps every value type and relationship shape")
    func roundTrip() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try AtomicStoreTestSupport.open(
            .sqlite, at: folder.appendingPathComponent("Phone.sqlite"))
        try AtomicStoreTestSupport.populate(context, size: 60, seed: 7)
        let expected = try AtomicStoreTestSupport.dump(context)
        #expect(expected.count > 60)
        let coordinator = context.coordinator
        let person = try #require(try context.fetch(FetchRequest(entityName: "Person")).first)
        let uri = person.objectID.uriRepresentation

        let url = try PostgresStoreTests.freshURL()
        let sqlite = try #require(coordinator.storeDescriptions.first)
        let server = try coordinator.migrateStore(sqlite, to: url, type: .postgres)
        #expect(server.type == .postgres)
        #expect(
            try AtomicStoreTestSupport.dump(ManagedContext(coordinator: coordinator)) == expected)
        let alone = try PostgresStoreTests.open(
            url, model: AtomicStoreTestSupport.model(), options: StoreOptions(isReadOnly: true))
        #expect(try AtomicStoreTestSupport.dump(alone) == expected)
        let id = try coordinator.objectID(forURI: uri)
        #expect(id.storeIdentifier == server.identifier)
        #expect(id.key == person.objectID.key)

        let back = folder.appendingPathComponent("Back.sqlite")
        let returned = try coordinator.migrateStore(server, to: back, type: .sqlite)
        #expect(returned.type == .sqlite)
        let reopened = try AtomicStoreTestSupport.open(
            .sqlite, at: back, options: StoreOptions(isReadOnly: true))
        #expect(try AtomicStoreTestSupport.dump(reopened) == expected)
        #expect(!(try Self.hasStaging(url)))
    }

    @Test("keys go on after the largest converted key, and a schema holding a store is refused")
    func convertedStoreWritesAndRefusesToReplace() throws {
        let context = try AtomicStoreTestSupport.open(.inMemory, at: nil)
        try AtomicStoreTestSupport.populate(context, size: 20, seed: 2)
        let coordinator = context.coordinator
        let url = try PostgresStoreTests.freshURL()
        let memory = try #require(coordinator.storeDescriptions.first)
        let server = try coordinator.migrateStore(memory, to: url, type: .postgres)
        let fresh = ManagedContext(coordinator: coordinator)
        let keys = try fresh.fetch(FetchRequest(entityName: "Team")).compactMap { team in
            if case .permanent(let key) = team.objectID.key { return key }
            return nil
        }
        let team = try fresh.insert("Team")
        try fresh.save()
        #expect(team.objectID.key == .permanent((keys.max() ?? 0) + 1))

        let other = try AtomicStoreTestSupport.open(.inMemory, at: nil)
        try AtomicStoreTestSupport.populate(other, size: 5, seed: 9)
        let source = try #require(other.coordinator.storeDescriptions.first)
        #expect(throws: ObjectGraphError.self) {
            try other.coordinator.migrateStore(source, to: url, type: .postgres)
        }
        let reopened = try PostgresStoreTests.open(
            url, model: AtomicStoreTestSupport.model(), options: StoreOptions(isReadOnly: true))
        #expect(reopened.coordinator.storeDescriptions.first?.identifier == server.identifier)
        #expect(try reopened.count(for: FetchRequest(entityName: "Team")) == keys.count + 1)
    }

    // MARK: - Migration

    /// Version 1: `Person(name, age, nick)` ↔ `Team(title)`, `Club` many-to-many with Person,
    /// and `Note`.
    static func version1() -> EntityModel {
        var person = Entity("Person")
        person.attributes = [
            Attribute("name", type: .string), Attribute("age", type: .integer16),
            Attribute("nick", type: .string),
        ]
        person.relationships = [
            Relationship("team", destination: "Team", inverse: "members"),
            Relationship("clubs", destination: "Club", toMany: true, inverse: "members"),
        ]
        var team = Entity("Team")
        team.attributes = [Attribute("title", type: .string)]
        team.relationships = [
            Relationship(
                "members", destination: "Person", toMany: true, inverse: "team",
                isOrdered: true)
        ]
        var club = Entity("Club")
        club.attributes = [Attribute("label", type: .string)]
        club.relationships = [
            Relationship("members", destination: "Person", toMany: true, inverse: "clubs")
        ]
        var note = Entity("Note")
        note.attributes = [Attribute("text", type: .string)]
        return EntityModel(entities: [person, team, club, note])
    }

    /// Version 2: `Person.nick` renamed `nickname`, `age` removed, `email` added (default
    /// `none`); `Note` removed, `Tag` added.
    static func version2() -> EntityModel {
        var model = version1()
        var entities = model.entities.filter { $0.name != "Note" }
        if let index = entities.firstIndex(where: { $0.name == "Person" }) {
            var nickname = Attribute("nickname", type: .string)
            nickname.renamingIdentifier = "nick"
            entities[index].attributes = [
                Attribute("name", type: .string), nickname,
                Attribute("email", type: .string, defaultValueString: "none"),
            ]
        }
        var tag = Entity("Tag")
        tag.attributes = [Attribute("word", type: .string)]
        entities.append(tag)
        model = EntityModel(entities: entities)
        return model
    }

    static func versions() -> [ModelVersion] {
        [ModelVersion(name: "V1", model: version1()), ModelVersion(name: "V2", model: version2())]
    }

    /// A version-1 store at `url`: three people in a team (ordered), two in a club, a note.
    @discardableResult
    static func makeVersion1Store(_ url: URL) throws -> StoreDescription {
        let coordinator = StoreCoordinator(model: version1())
        let description = try coordinator.addStore(type: .postgres, at: url)
        let context = ManagedContext(coordinator: coordinator)
        let team = try context.insert("Team")
        try team.set("Red", for: "title")
        var people: [ManagedObject] = []
        for (name, nick) in [("Ada", "ada"), ("Bo", "b"), ("Cy", "c")] {
            let person = try context.insert("Person")
            try person.set(name, for: "name")
            try person.set(nick, for: "nick")
            try person.set(Int16(30), for: "age")
            people.append(person)
        }
        try team.setObjects([people[2], people[0], people[1]], for: "members")
        let club = try context.insert("Club")
        try club.set("Chess", for: "label")
        try club.setObjects([people[0], people[1]], for: "members")
        let note = try context.insert("Note")
        try note.set("gone", for: "text")
        try context.save()
        return description
    }

    @Test("a PostgreSQL store migrates: attributes added, removed, renamed; entities too")
    func lightweightMigration() throws {
        let url = try PostgresStoreTests.freshURL()
        let old = try Self.makeVersion1Store(url)
        let coordinator = StoreCoordinator(model: Self.version2(), versions: Self.versions())
        let plan = try coordinator.migrationPlan(forStoreAt: url, type: .postgres)
        #expect(plan.map(\.label) == ["V1 → V2 (inferred)"])
        let description = try coordinator.addStore(type: .postgres, at: url)
        #expect(description.identifier == old.identifier)
        #expect(description.metadata.versionHashes == Self.version2().entityVersionHashes)
        let context = ManagedContext(coordinator: coordinator)
        var byName = FetchRequest(entityName: "Person")
        byName.sortDescriptors = [SortDescriptor("name")]
        let people = try context.fetch(byName)
        #expect(people.map { $0["name"] as String? } == ["Ada", "Bo", "Cy"])
        #expect(people.map { $0["nickname"] as String? } == ["ada", "b", "c"])
        #expect(people.map { $0["email"] as String? } == ["none", "none", "none"])
        let team = try #require(try context.fetch(FetchRequest(entityName: "Team")).first)
        #expect(
            try team.objects(for: "members").map { $0["name"] as String? } == ["Cy", "Ada", "Bo"])
        let club = try #require(try context.fetch(FetchRequest(entityName: "Club")).first)
        #expect(
            Set(try club.objects(for: "members").compactMap { $0["name"] as String? }) == [
                "Ada", "Bo",
            ])
        let tag = try context.insert("Tag")
        try tag.set("new", for: "word")
        try context.save()

        let (connection, schema) = try PostgresStoreTests.inspect(url)
        let tables = Set(
            try connection.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = $1::text",
                [.text(schema)]
            ).rows.compactMap { $0.string(0) })
        #expect(tables.contains("ZTAG") && !tables.contains("ZNOTE"))
        #expect(!(try Self.hasStaging(url)))
        // A second coordinator of version 2 opens it as it is.
        let again = try PostgresStoreTests.open(url, model: Self.version2())
        #expect(try again.count(for: FetchRequest(entityName: "Person")) == 3)
    }

    @Test("a migration that fails halfway leaves the old schema, rows and metadata intact")
    func failedMigrationRollsBack() throws {
        let url = try PostgresStoreTests.freshURL()
        let old = try Self.makeVersion1Store(url)
        let (connection, schema) = try PostgresStoreTests.inspect(url)
        // A view of the application on the table version 2 drops: dropping it fails after
        // the metadata and key tables are gone, inside the migration's transaction.
        try connection.run(
            "CREATE VIEW \(PostgresIdentifier.qualified(schema, "notes_view")) AS SELECT * FROM "
                + PostgresIdentifier.qualified(schema, "ZNOTE"))
        let coordinator = StoreCoordinator(model: Self.version2(), versions: Self.versions())
        #expect(throws: StoreError.self) { try coordinator.addStore(type: .postgres, at: url) }
        #expect(!(try Self.hasStaging(url)))

        let reopened = try PostgresStoreTests.open(
            url, model: Self.version1(), options: StoreOptions(isReadOnly: true))
        #expect(reopened.coordinator.storeDescriptions.first?.identifier == old.identifier)
        var byName = FetchRequest(entityName: "Person")
        byName.sortDescriptors = [SortDescriptor("name")]
        let people = try reopened.fetch(byName)
        #expect(people.map { $0["nick"] as String? } == ["ada", "b", "c"])
        #expect(people.map { $0["age"] as Int16? } == [30, 30, 30])
        #expect(try reopened.count(for: FetchRequest(entityName: "Note")) == 1)
        let team = try #require(try reopened.fetch(FetchRequest(entityName: "Team")).first)
        #expect(
            try team.objects(for: "members").map { $0["name"] as String? } == ["Cy", "Ada", "Bo"])

        // Without the view the same migration goes through.
        try connection.run("DROP VIEW \(PostgresIdentifier.qualified(schema, "notes_view"))")
        let description = try coordinator.addStore(type: .postgres, at: url)
        #expect(description.identifier == old.identifier)
    }

    @Test("errors about a PostgreSQL store never show its password")
    func passwordsStayHidden() throws {
        let server = try TestPostgresServer.require()
        let text =
            "postgresql:///\(server.database)?host=\(server.folder.path)&user=\(server.user)"
            + "&password=s3cret-pw&schema=" + TestPostgresServer.freshSchema()
        let url = try #require(URL(string: text))
        try Self.makeVersion1Store(url)
        let coordinator = StoreCoordinator(model: Self.version2())
        do {
            try coordinator.addStore(type: .postgres, at: url)
            Issue.record("a store of another version opened without versions to migrate from")
        } catch {
            #expect(!"\(error)".contains("s3cret-pw"), "\(error)")
            #expect("\(error)".contains("***"), "\(error)")
        }
    }
}
