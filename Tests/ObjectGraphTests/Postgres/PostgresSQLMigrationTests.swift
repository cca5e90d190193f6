import Foundation
import PostgresClient
import Testing

@testable import ObjectGraph

/// The SQL-only migration of a PostgreSQL store (``PostgresInferredMigrator``) against the
/// row-level path: the same store contents migrated both ways give the same tables, rows,
/// keys, metadata and fetch results, and steps SQL cannot copy exactly go row by row.
@Suite("PostgreSQL migration in SQL")
struct PostgresSQLMigrationTests {
    /// Version 1: `Person(name, age, email, score, born)`, its subentity `Player(number)`,
    /// `Team(title)` ↔ `Person.team`, `Club` many-to-many with `Person`.
    static func version1() -> EntityModel {
        var person = Entity("Person")
        person.attributes = [
            Attribute("name", type: .string, isOptional: false),
            Attribute("age", type: .integer16), Attribute("email", type: .string),
            Attribute("score", type: .double), Attribute("born", type: .date),
        ]
        person.relationships = [
            Relationship("team", destination: "Team", inverse: "members"),
            Relationship("clubs", destination: "Club", toMany: true, inverse: "members"),
        ]
        var player = Entity("Player")
        player.parentName = "Person"
        player.attributes = [Attribute("number", type: .integer32)]
        var team = Entity("Team")
        team.attributes = [Attribute("title", type: .string)]
        team.relationships = [
            Relationship("members", destination: "Person", toMany: true, inverse: "team")
        ]
        var club = Entity("Club")
        club.attributes = [Attribute("label", type: .string)]
        club.relationships = [
            Relationship("members", destination: "Person", toMany: true, inverse: "clubs")
        ]
        return EntityModel(entities: [person, player, team, club])
    }

    /// Version 1 with `change` applied to its `entity`.
    static func version2(_ entity: String, _ change: (inout Entity) -> Void) -> EntityModel {
        var entities = version1().entities
        if let index = entities.firstIndex(where: { $0.name == entity }) {
            change(&entities[index])
        }
        return EntityModel(entities: entities)
    }

    /// The changes each case makes.
    static let cases: [(String, EntityModel)] = [
        (
            "added optional attribute",
            version2("Person") { $0.attributes.append(Attribute("nick", type: .string)) }
        ),
        (
            "added non-optional attribute with a default",
            version2("Person") {
                $0.attributes.append(
                    Attribute(
                        "rating", type: .integer16, isOptional: false, defaultValueString: "7"))
            }
        ),
        (
            "attribute added to a subentity, with a default",
            version2("Player") {
                $0.attributes.append(
                    Attribute("rank", type: .string, defaultValueString: "rookie"))
            }
        ),
        (
            "removed attribute",
            version2("Person") { $0.attributes.removeAll { $0.name == "age" } }
        ),
        (
            "renamed attribute",
            version2("Person") { person in
                guard let index = person.attributes.firstIndex(where: { $0.name == "email" })
                else { return }
                var renamed = Attribute("emailAddress", type: .string)
                renamed.renamingIdentifier = "email"
                person.attributes[index] = renamed
            }
        ),
    ]

    /// A store of `model` at a fresh URL holding `size` people (every third a player) in
    /// teams and clubs.
    static func makeStore(_ model: EntityModel, size: Int) throws -> URL {
        let url = try PostgresStoreTests.freshURL()
        let coordinator = StoreCoordinator(model: model)
        try coordinator.addStore(type: .postgres, at: url)
        let context = ManagedContext(coordinator: coordinator)
        var teams: [ManagedObject] = []
        var clubs: [ManagedObject] = []
        for index in 0..<(size == 0 ? 0 : 3) {
            let team = try context.insert("Team")
            try team.set("Team \(index)", for: "title")
            teams.append(team)
            let club = try context.insert("Club")
            try club.set("Club \(index)", for: "label")
            clubs.append(club)
        }
        for index in 0..<size {
            let person = try context.insert(index % 3 == 0 ? "Player" : "Person")
            try person.set("P\(index)", for: "name")
            if index % 4 != 0 { try person.set(Int16(20 + index), for: "age") }
            if index % 5 != 0 { try person.set("p\(index)@example.org", for: "email") }
            try person.set(Double(index) / 4, for: "score")
            try person.set(Date(timeIntervalSinceReferenceDate: Double(index) * 1000), for: "born")
            if index % 3 == 0 { try person.set(Int32(index), for: "number") }
            if index % 7 != 0 { try person.setObject(teams[index % 3], for: "team") }
            if index % 2 == 0 { try person.setObjects([clubs[index % 3]], for: "clubs") }
        }
        try context.save()
        return url
    }

    /// Migrates the store at `url` from version 1 to `model`; whether rows went through the
    /// row-level mapper.
    static func migrate(_ url: URL, to model: EntityModel, inSQL: Bool) throws -> Bool {
        let step = MigrationStep(
            source: ModelVersion(name: "V1", model: version1()),
            destination: ModelVersion(name: "V2", model: model),
            mapping: try MappingModel.inferred(
                from: ModelVersion(name: "V1", model: version1()),
                to: ModelVersion(name: "V2", model: model)))
        var mapped = false
        try PostgresStore.migrate(
            at: url, steps: [step],
            rowMapper: { step, rows, source, destination in
                mapped = true
                return try MigrationRows.map(
                    step, rows: rows, source: source, destination: destination, progress: nil)
            }, inferredInSQL: inSQL)
        return mapped
    }

    /// Every table of the store at `url` but its metadata: each row as JSON, sorted.
    static func tables(_ url: URL) throws -> [String: [String]] {
        let (connection, schema) = try PostgresStoreTests.inspect(url)
        let names = try connection.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = $1::text",
            [.text(schema)]
        ).rows.compactMap { $0.string(0) }
        var result: [String: [String]] = [:]
        for name in names where name != "Z_METADATA" {
            result[name] = try connection.execute(
                "SELECT row_to_json(t)::text FROM \(PostgresIdentifier.qualified(schema, name))"
                    + " AS t ORDER BY 1"
            ).rows.compactMap { $0.string(0) }
        }
        return result
    }

    /// Migrates two identical stores to `model`, one in SQL and one row by row, and checks
    /// they agree; returns the SQL-migrated store's URL.
    @discardableResult
    static func compare(to model: EntityModel, size: Int, expectsSQL: Bool) throws -> URL {
        let bySQL = try makeStore(version1(), size: size)
        let byRows = try makeStore(version1(), size: size)
        let before = try #require(try PostgresStore.metadata(ofStoreAt: bySQL))
        #expect(try migrate(bySQL, to: model, inSQL: true) == !expectsSQL)
        #expect(try migrate(byRows, to: model, inSQL: false))
        #expect(try tables(bySQL) == tables(byRows))
        var migrated = try #require(try PostgresStore.metadata(ofStoreAt: bySQL))
        var reference = try #require(try PostgresStore.metadata(ofStoreAt: byRows))
        #expect(migrated.storeUUID == before.storeUUID)
        #expect(migrated.versionHashes == model.entityVersionHashes)
        migrated.storeUUID = ""
        reference.storeUUID = ""
        #expect(migrated == reference)
        let sqlContext = try PostgresStoreTests.open(bySQL, model: model)
        let rowContext = try PostgresStoreTests.open(byRows, model: model)
        let dumped = try AtomicStoreTestSupport.dump(sqlContext)
        #expect(dumped.count == (size == 0 ? 0 : size + 6))
        #expect(dumped == (try AtomicStoreTestSupport.dump(rowContext)))
        #expect(!(try PostgresMigrationTests.hasStaging(bySQL)))
        return bySQL
    }

    @Test(
        "added, removed and renamed attributes copy in SQL as the row path writes them",
        arguments: cases.indices)
    func attributeChange(_ index: Int) throws {
        try Self.compare(to: Self.cases[index].1, size: 40, expectsSQL: true)
    }

    @Test("all the changes at once, and an empty store")
    func combinedAndEmpty() throws {
        var entities = Self.version1().entities
        for (_, model) in Self.cases {
            for entity in model.entities {
                guard let index = entities.firstIndex(where: { $0.name == entity.name }) else {
                    continue
                }
                for attribute in entity.attributes
                where !entities[index].attributes.contains(where: { $0.name == attribute.name }) {
                    entities[index].attributes.append(attribute)
                }
            }
        }
        for index in entities.indices where entities[index].name == "Person" {
            entities[index].attributes.removeAll { $0.name == "age" || $0.name == "email" }
        }
        let model = EntityModel(entities: entities)
        let url = try Self.compare(to: model, size: 60, expectsSQL: true)
        try Self.compare(to: model, size: 0, expectsSQL: true)

        // The migrated store takes new objects after the largest key.
        let context = try PostgresStoreTests.open(url, model: model)
        let team = try context.insert("Team")
        try context.save()
        #expect(team.objectID.key == .permanent(4))
        var request = FetchRequest(entityName: "Person")
        request.predicate = try Predicate(format: "rating == 7 AND emailAddress == nil")
        #expect(try context.count(for: request) == 12)
    }

    @Test("a step SQL cannot copy exactly goes row by row, with the same result")
    func refusedStepsFallBack() throws {
        // A type change, a relationship that becomes ordered: not copied in SQL.
        let widened = Self.version2("Person") { person in
            if let index = person.attributes.firstIndex(where: { $0.name == "age" }) {
                person.attributes[index].type = .integer32
            }
        }
        try Self.compare(to: widened, size: 20, expectsSQL: false)
        let ordered = Self.version2("Team") { team in
            team.relationships[0].isOrdered = true
        }
        try Self.compare(to: ordered, size: 20, expectsSQL: false)

        // A required attribute a row leaves nil (written around the store): the row path's
        // error, not a copy.
        let url = try Self.makeStore(Self.version1(), size: 10)
        let (connection, schema) = try PostgresStoreTests.inspect(url)
        try connection.run(
            "UPDATE \(PostgresIdentifier.qualified(schema, "ZPERSON")) SET \"ZNAME\" = NULL"
                + " WHERE \"Z_PK\" = 2")
        let model = Self.cases[0].1
        #expect(throws: MigrationError.self) { try Self.migrate(url, to: model, inSQL: true) }
        let reopened = try PostgresStoreTests.open(
            url, model: Self.version1(), options: StoreOptions(isReadOnly: true))
        #expect(try reopened.count(for: FetchRequest(entityName: "Person")) == 10)
    }

    @Test("the coordinator migrates a PostgreSQL store in SQL and keeps object URIs")
    func throughTheCoordinator() throws {
        let url = try Self.makeStore(Self.version1(), size: 12)
        let model = Self.cases[4].1
        let old = try PostgresStoreTests.open(
            url, model: Self.version1(), options: StoreOptions(isReadOnly: true))
        var byName = FetchRequest(entityName: "Person")
        byName.sortDescriptors = [SortDescriptor("name")]
        let before = try old.fetch(byName)
        let coordinator = StoreCoordinator(
            model: model,
            versions: [
                ModelVersion(name: "V1", model: Self.version1()),
                ModelVersion(name: "V2", model: model),
            ])
        try coordinator.addStore(type: .postgres, at: url)
        let context = ManagedContext(coordinator: coordinator)
        let after = try context.fetch(byName)
        #expect(
            after.map { $0.objectID.uriRepresentation }
                == before.map { $0.objectID.uriRepresentation })
        #expect(
            after.map { $0["emailAddress"] as String? } == before.map { $0["email"] as String? })
    }
}
