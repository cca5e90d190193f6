import Foundation
import PostgresClient
import Testing

@testable import ObjectGraph

@Suite("PostgreSQL store")
struct PostgresStoreTests {
    /// A fresh schema's URL on the test server.
    static func freshURL() throws -> URL {
        try TestPostgresServer.require().url(schema: TestPostgresServer.freshSchema())
    }

    static func open(
        _ url: URL, model: EntityModel = TestModels.league(),
        options: StoreOptions = StoreOptions()
    ) throws -> ManagedContext {
        let coordinator = StoreCoordinator(model: model)
        try coordinator.addStore(type: .postgres, at: url, options: options)
        return ManagedContext(coordinator: coordinator)
    }

    /// A plain connection to the schema of `url`.
    static func inspect(_ url: URL) throws -> (PostgresConnection, schema: String) {
        let address = try PostgresURL(url)
        return (try PostgresConnection(url: address), address.schema ?? "objectgraph")
    }

    @Test("a new store has Core Data's tables, PostgreSQL types, indexes and metadata")
    func creation() throws {
        let url = try Self.freshURL()
        let coordinator = StoreCoordinator(model: TestModels.league())
        let description = try coordinator.addStore(type: .postgres, at: url)
        #expect(description.type == .postgres)
        #expect(description.metadata.storeType == "PostgreSQL")
        let (connection, schema) = try Self.inspect(url)
        let tables = try connection.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = $1::text"
                + " ORDER BY 1", [.text(schema)]
        ).rows.compactMap { $0.string(0) }
        let layout = try StoreLayout(model: TestModels.league())
        let expected =
            ["Z_METADATA", "Z_PRIMARYKEY"] + layout.tables.map(\.name)
            + layout.joinTables.map(\.name)
        #expect(tables == expected.sorted())
        let types = Dictionary(
            uniqueKeysWithValues: try connection.execute(
                "SELECT column_name, data_type FROM information_schema.columns"
                    + " WHERE table_schema = $1::text AND table_name = 'ZPERSON'", [.text(schema)]
            ).rows.compactMap { row in row.string(0).map { ($0, row.string(1) ?? "") } })
        #expect(types["Z_PK"] == "bigint")
        #expect(types["Z_ENT"] == "integer")
        #expect(types["Z_OPT"] == "bigint")
        #expect(types["ZAGE"] == "smallint")
        #expect(types["ZBORN"] == "double precision")
        #expect(types["ZNAME"] == "text")
        #expect(types["ZNUMBER"] == "integer")
        #expect(types["ZTEAM"] == "bigint")
        #expect(types["ZMEMO"] == nil)
        let indexes = try connection.execute(
            "SELECT indexname FROM pg_indexes WHERE schemaname = $1::text", [.text(schema)]
        ).rows.compactMap { $0.string(0) }
        for index in layout.indexes where !index.isUnique {
            #expect(indexes.contains(index.name), "missing index \(index.name)")
        }
        let unique = try connection.execute(
            "SELECT conname FROM pg_constraint JOIN pg_namespace n ON n.oid = connamespace"
                + " WHERE nspname = $1::text AND contype = 'u'", [.text(schema)]
        ).rows.compactMap { $0.string(0) }
        #expect(unique == ["Z_Person_UNIQUE_email"])
        let keys = try connection.execute(
            "SELECT \"Z_NAME\", \"Z_SUPER\", \"Z_MAX\" FROM \(PostgresIdentifier.quoted(schema))"
                + ".\"Z_PRIMARYKEY\" ORDER BY \"Z_ENT\"")
        #expect(keys.rows.compactMap { $0.string(0) } == layout.entities.map(\.name))
        let metadata = try connection.execute(
            "SELECT \"Z_UUID\", \"Z_PLIST\" FROM \(PostgresIdentifier.quoted(schema))"
                + ".\"Z_METADATA\"")
        let row = try #require(metadata.rows.first)
        #expect(row.string(0) == description.identifier)
        let stored = try StoreMetadata(
            storeUUID: row.string(0) ?? "", propertyList: try #require(try row.bytes(1)))
        #expect(stored.versionHashes == StoreMetadata(model: TestModels.league()).versionHashes)
    }

    @Test("values of every type and every relationship shape survive a reopen")
    func roundTrip() throws {
        let url = try Self.freshURL()
        var all = Entity("All")
        all.attributes = [
            Attribute("i16", type: .integer16), Attribute("i32", type: .integer32),
            Attribute("i64", type: .integer64), Attribute("dec", type: .decimal),
            Attribute("dbl", type: .double), Attribute("flt", type: .float),
            Attribute("str", type: .string), Attribute("flag", type: .boolean),
            Attribute("when", type: .date), Attribute("bytes", type: .binary),
            Attribute("id", type: .uuid), Attribute("link", type: .uri),
            Attribute("blob", type: .transformable),
        ]
        let model = EntityModel(entities: TestModels.league().entities + [all])
        let uuid = UUID()
        let date = Date(timeIntervalSinceReferenceDate: 123_456.000_001_5)
        let exact = Decimal(string: "12345678901234567890.123456789") ?? 0
        do {
            let context = try Self.open(url, model: model)
            let object = try context.insert("All")
            let values: [(String, any ValueConvertible)] = [
                ("i16", Int16(-7)), ("i32", Int32(1 << 30)), ("i64", Int64.min),
                ("dec", exact), ("dbl", 0.1), ("flt", Float(1.1)),
                ("str", "héllo \"world\" '; --"), ("flag", true), ("when", date),
                ("bytes", Data([0, 1, 2, 0x5C])), ("id", uuid),
                ("link", URL(string: "https://example.com/a?b=c") ?? URL(fileURLWithPath: "/")),
                ("blob", Data("x".utf8)),
            ]
            for (key, value) in values { try object.set(value, for: key) }
            let red = try context.insert("Team")
            try red.set("Red", for: "name")
            var people: [ManagedObject] = []
            for name in ["A", "B", "C"] {
                let person = try context.insert(name == "C" ? "Player" : "Person")
                try person.set(name, for: "name")
                try person.set("\(name)@x", for: "email")
                people.append(person)
            }
            try red.setObjects(people, for: "members")
            try red.setObjects([people[2], people[0], people[1]], for: "roster")
            try red.setObject(people[1], for: "captain")
            try people[0].setObject(people[1], for: "spouse")
            let chess = try context.insert("Club")
            try chess.setObjects([people[0], people[2]], for: "members")
            try context.save()
        }
        let context = try Self.open(url, model: model)
        let object = try #require(try context.fetch(FetchRequest(entityName: "All")).first)
        #expect(object["i16"] as Int? == -7)
        #expect(object["i32"] as Int? == 1 << 30)
        #expect(object["i64"] as Int64? == Int64.min)
        #expect(object["dec"] == .decimal(exact))
        #expect(object["dbl"] as Double? == 0.1)
        #expect(object["flt"] as Double? == Double(Float(1.1)))
        #expect(object["str"] as String? == "héllo \"world\" '; --")
        #expect(object["flag"] as Bool? == true)
        #expect(object["when"] as Date? == date)
        #expect(object["bytes"] as Data? == Data([0, 1, 2, 0x5C]))
        #expect(object["id"] as UUID? == uuid)
        #expect(object["link"] as URL? == URL(string: "https://example.com/a?b=c"))
        #expect(object["blob"] as Data? == Data("x".utf8))
        var byName = FetchRequest(entityName: "Team")
        byName.predicate = try Predicate(format: "name == 'Red'")
        let red = try #require(try context.fetch(byName).first)
        let members = try red.objects(for: "members").compactMap { $0["name"] as String? }
        #expect(Set(members) == ["A", "B", "C"])
        #expect(
            try red.objects(for: "roster").compactMap { $0["name"] as String? } == ["C", "A", "B"])
        #expect(try red.object(for: "captain")?["name"] as String? == "B")
        let c = try #require(try red.objects(for: "members").first { $0["name"] as String? == "C" })
        #expect(c.entity.name == "Player")
        let a = try #require(try red.objects(for: "members").first { $0["name"] as String? == "A" })
        #expect(try a.object(for: "spouse")?["name"] as String? == "B")
        #expect(Set(try a.objects(for: "clubs").compactMap { $0.entity.name }) == ["Club"])
        #expect(try c.objects(for: "clubs").count == 1)
        let club = try #require(try context.fetch(FetchRequest(entityName: "Club")).first)
        #expect(
            Set(try club.objects(for: "members").compactMap { $0["name"] as String? }) == [
                "A", "C",
            ])
    }

    @Test("fetches sort, limit and filter; updates and deletes reach the tables")
    func fetchUpdateDelete() throws {
        let url = try Self.freshURL()
        let context = try Self.open(url)
        for (index, name) in ["Dan", "ann", "Bob", "Cy"].enumerated() {
            let person = try context.insert(index == 3 ? "Player" : "Person")
            try person.set(name, for: "name")
            try person.set(Int16(20 + index), for: "age")
        }
        try context.save()
        let other = try Self.open(url)
        var request = FetchRequest(entityName: "Person")
        request.sortDescriptors = [SortDescriptor("name")]
        request.predicate = try Predicate(format: "age >= 21")
        request.fetchLimit = 2
        #expect(try other.fetch(request).compactMap { $0["name"] as String? } == ["Bob", "Cy"])
        var players = FetchRequest(entityName: "Player")
        players.includesSubentities = false
        #expect(try other.fetch(players).compactMap { $0["name"] as String? } == ["Cy"])
        #expect(try other.count(for: FetchRequest(entityName: "Person")) == 4)
        let bob = try #require(
            try other.fetch(request).first { $0["name"] as String? == "Bob" })
        try bob.set(Int16(99), for: "age")
        let dan = try #require(
            try other.fetch(FetchRequest(entityName: "Person")).first {
                $0["name"] as String? == "Dan"
            })
        other.delete(dan)
        try other.save()
        let third = try Self.open(url)
        let all = try third.fetch(FetchRequest(entityName: "Person"))
        #expect(Set(all.compactMap { $0["name"] as String? }) == ["ann", "Bob", "Cy"])
        #expect(all.first { $0["name"] as String? == "Bob" }?["age"] as Int? == 99)
        let (connection, schema) = try Self.inspect(url)
        let bobRow = try connection.execute(
            "SELECT \"Z_OPT\" FROM \(PostgresIdentifier.quoted(schema)).\"ZPERSON\""
                + " WHERE \"ZNAME\" = $1", [.text("Bob")])
        #expect(try bobRow.rows.first?.int64(0) == 2)
    }

    @Test("optimistic locking: a row changed by another coordinator makes the save fail")
    func conflicts() throws {
        let url = try Self.freshURL()
        let first = try Self.open(url)
        let team = try first.insert("Team")
        try team.set("Red", for: "name")
        try first.save()
        let second = try Self.open(url)
        let copy = try second.existingObject(with: team.objectID)
        try copy.set("Blue", for: "name")
        try second.save()
        try team.set("Green", for: "name")
        do {
            try first.save()
            Issue.record("expected a conflict")
        } catch SaveError.conflicts(let conflicts) {
            #expect(conflicts.first?.objectID == team.objectID)
            #expect(conflicts.first?.expectedVersion == 1)
            #expect(conflicts.first?.storeVersion == 2)
        }
        let third = try Self.open(url)
        #expect(try third.existingObject(with: team.objectID)["name"] as String? == "Blue")
        // Deleted elsewhere: store version 0.
        third.delete(try third.existingObject(with: team.objectID))
        try third.save()
        let copyAgain = try second.existingObject(with: team.objectID)
        try copyAgain.set("Teal", for: "name")
        do {
            try second.save()
            Issue.record("expected a conflict")
        } catch SaveError.conflicts(let conflicts) {
            #expect(conflicts.first?.storeVersion == 0)
        }
    }

    @Test("keys from two coordinators never collide")
    func keysFromTwoWriters() throws {
        let url = try Self.freshURL()
        let first = try Self.open(url)
        let second = try Self.open(url)
        var ids: Set<ObjectID> = []
        for round in 0..<3 {
            for context in [first, second] {
                let team = try context.insert("Team")
                try team.set("T\(round)", for: "name")
                try context.save()
                ids.insert(team.objectID)
            }
        }
        #expect(ids.count == 6)
        #expect(try Self.open(url).count(for: FetchRequest(entityName: "Team")) == 6)
    }

    @Test("a uniqueness constraint another writer broke first is the model's constraint error")
    func uniquenessAcrossWriters() throws {
        let url = try Self.freshURL()
        let first = try Self.open(url)
        let second = try Self.open(url)
        let mine = try first.insert("Person")
        try mine.set("A", for: "name")
        try mine.set("a@x", for: "email")
        try first.save()
        let theirs = try second.insert("Person")
        try theirs.set("B", for: "name")
        try theirs.set("a@x", for: "email")
        #expect(throws: (any Error).self) { try second.save() }
        #expect(try Self.open(url).count(for: FetchRequest(entityName: "Person")) == 1)
    }

    @Test(
        "reopening keeps the store UUID; another model is refused; a read-only store refuses saves")
    func reopenAndMetadata() throws {
        let url = try Self.freshURL()
        let identifier = try StoreCoordinator(model: TestModels.league())
            .addStore(type: .postgres, at: url).identifier
        let again = try StoreCoordinator(model: TestModels.league())
            .addStore(type: .postgres, at: url)
        #expect(again.identifier == identifier)
        var entities = TestModels.league().entities
        entities[0].attributes.append(Attribute("nickname", type: .string))
        var options = StoreOptions()
        options.migration.migratesAutomatically = false
        do {
            try StoreCoordinator(model: EntityModel(entities: entities))
                .addStore(type: .postgres, at: url, options: options)
            Issue.record("expected an incompatible-model error")
        } catch let StoreError.incompatibleModel(_, compatibility) {
            #expect(compatibility.changedEntities.contains("Person"))
        }
        let readOnly = try Self.open(url, options: StoreOptions(isReadOnly: true))
        try readOnly.insert("Team").set("X", for: "name")
        #expect(throws: (any Error).self) { try readOnly.save() }
        let missing = try TestPostgresServer.require().url(schema: TestPostgresServer.freshSchema())
        #expect(throws: StoreError.self) {
            try StoreCoordinator(model: TestModels.league()).addStore(
                type: .postgres, at: missing, options: StoreOptions(createIfMissing: false))
        }
    }

    @Test("the description and errors show the URL without its password")
    func passwordNeverShown() throws {
        let server = try TestPostgresServer.require()
        let schema = TestPostgresServer.freshSchema()
        let url = try #require(
            URL(
                string: "postgresql://\(server.user):letmein@localhost/\(server.database)?host="
                    + "\(server.folder.path)&schema=\(schema)"))
        // The server trusts socket connections: the password is sent and not needed.
        let description = try StoreCoordinator(model: TestModels.league())
            .addStore(type: .postgres, at: url)
        #expect(description.url?.absoluteString.contains("letmein") == false)
        #expect(description.url?.absoluteString.contains("***") == true)
        let wrong = try #require(
            URL(string: "postgresql://nobody:letmein@localhost/nodb?host=\(server.folder.path)"))
        do {
            try StoreCoordinator(model: TestModels.league()).addStore(type: .postgres, at: wrong)
            Issue.record("opened")
        } catch {
            #expect(!"\(error)".contains("letmein"))
        }
    }
}
