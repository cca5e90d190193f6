import Foundation
import SQLiteDatabase
import Testing

@testable import ObjectGraph

@Suite("SQLite store")
struct SQLiteStoreTests {
    static func open(
        _ url: URL, model: EntityModel = TestModels.league(), readOnly: Bool = false,
        classes: ManagedObjectClasses = .shared
    ) throws -> ManagedContext {
        let coordinator = StoreCoordinator(model: model)
        try coordinator.addStore(
            type: .sqlite, at: url, options: StoreOptions(isReadOnly: readOnly))
        return ManagedContext(coordinator: coordinator, classes: classes)
    }

    @Test("values of every type and every relationship shape survive a reopen")
    func roundTrip() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.sqlite")
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
        var external = Attribute("big", type: .binary)
        external.allowsExternalBinaryDataStorage = true
        all.attributes.append(external)
        var model = TestModels.league()
        model = EntityModel(entities: model.entities + [all])
        let uuid = UUID()
        let date = Date(timeIntervalSinceReferenceDate: 123_456.5)
        do {
            let context = try Self.open(url, model: model)
            let object = try context.insert("All")
            let values: [(String, any ValueConvertible)] = [
                ("i16", Int16(-7)), ("i32", Int32(1 << 30)), ("i64", Int64.max),
                ("dec", Decimal(string: "12.5") ?? 0), ("dbl", 2.25), ("flt", Float(1.5)),
                ("str", "héllo \"world\""), ("flag", true), ("when", date),
                ("bytes", Data([0, 1, 2])), ("id", uuid),
                ("link", URL(string: "https://example.com/a?b=c") ?? URL(fileURLWithPath: "/")),
                ("blob", Data("x".utf8)), ("big", Data([9, 8, 7])),
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
        #expect(object["i64"] as Int64? == Int64.max)
        #expect(object["dec"] == .decimal(Decimal(string: "12.5") ?? 0))
        #expect(object["dbl"] as Double? == 2.25)
        #expect(object["flt"] as Double? == 1.5)
        #expect(object["str"] as String? == "héllo \"world\"")
        #expect(object["flag"] as Bool? == true)
        #expect(object["when"] as Date? == date)
        #expect(object["bytes"] as Data? == Data([0, 1, 2]))
        #expect(object["id"] as UUID? == uuid)
        #expect(object["link"] as URL? == URL(string: "https://example.com/a?b=c"))
        #expect(object["big"] as Data? == Data([9, 8, 7]))
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
    }

    @Test("the file has Core Data's layout and metadata")
    func layout() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.sqlite")
        let context = try Self.open(url)
        let team = try context.insert("Team")
        try team.set("Red", for: "name")
        for index in 0..<3 {
            let person = try context.insert("Person")
            try person.set("P\(index)", for: "name")
            try person.setObject(team, for: "team")
        }
        try context.save()
        let db = try Database(url: url, mode: .readOnly)
        #expect(try db.tableExists("ZPERSON"))
        #expect(try db.tableExists("ZTEAM"))
        #expect(try db.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM ZPERSON") == 3)
        let max = try db.fetchValue(
            Int.self, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Person'")
        #expect(max == 3)
        let metadata = try SQLiteStore.readMetadata(db, path: url.path)
        #expect(metadata.versionHashes == TestModels.league().entityVersionHashes)
        #expect(metadata.storeType == "SQLite")
        let fks = try db.fetchValue(
            Int.self, sql: "SELECT COUNT(*) FROM ZPERSON WHERE ZTEAM IS NOT NULL")
        #expect(fks == 3)
    }

    @Test("a store written with another model is refused, naming the entities")
    func incompatible() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.sqlite")
        _ = try Self.open(url)
        var entities = TestModels.league().entities
        entities[0].attributes.append(Attribute("nickname", type: .string))
        // The store carries the model that wrote it (Z_MODELCACHE), so by default it would
        // migrate; refused when automatic migration is off.
        var options = StoreOptions()
        options.migration.migratesAutomatically = false
        do {
            try StoreCoordinator(model: EntityModel(entities: entities))
                .addStore(type: .sqlite, at: url, options: options)
            Issue.record("expected an incompatible-model error")
        } catch let StoreError.incompatibleModel(path, compatibility) {
            #expect(path == url.path)
            #expect(compatibility.changedEntities.contains("Person"))
        }
    }

    @Test("optimistic locking: a row changed elsewhere makes the save fail with both versions")
    func conflicts() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.sqlite")
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
    }

    @Test("a read-only store is never modified and refuses saves")
    func readOnly() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.sqlite")
        do {
            let context = try Self.open(url)
            try context.insert("Team").set("Red", for: "name")
            try context.save()
        }
        let before = try Data(contentsOf: url)
        let context = try Self.open(url, readOnly: true)
        let team = try #require(try context.fetch(FetchRequest(entityName: "Team")).first)
        try team.set("Blue", for: "name")
        #expect(throws: (any Error).self) { try context.save() }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test("deleting removes rows and join rows; Z_MAX keeps growing")
    func deletes() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.sqlite")
        let context = try Self.open(url)
        let club = try context.insert("Club")
        let person = try context.insert("Person")
        try person.set("P", for: "name")
        try person.add(club, to: "clubs")
        try context.save()
        context.delete(person)
        try context.save()
        let reopened = try Self.open(url)
        let clubs = try reopened.fetch(FetchRequest(entityName: "Club"))
        #expect(try clubs.first?.objects(for: "members").isEmpty == true)
        #expect(try reopened.count(for: FetchRequest(entityName: "Person")) == 0)
        let next = try reopened.insert("Person")
        try next.set("Q", for: "name")
        try reopened.save()
        if case .permanent(let key) = next.objectID.key { #expect(key == 2) }
    }

    @Test("uniqueness is checked against the file with a query, naming the values")
    func uniqueness() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.sqlite")
        let first = try Self.open(url)
        let ann = try first.insert("Person")
        try ann.set("Ann", for: "name")
        try ann.set("ann@x", for: "email")
        try first.save()
        let second = try Self.open(url)
        let copy = try second.insert("Player")
        try copy.set("Ann 2", for: "name")
        try copy.set("ann@x", for: "email")
        do {
            try second.save()
            Issue.record("expected a uniqueness problem")
        } catch SaveError.constraintConflicts(let conflicts) {
            let conflict = try #require(conflicts.first)
            #expect(conflict.values == ["ann@x"])
            #expect(conflict.conflictingIDs == [ann.objectID])
        }
        try copy.set("ann2@x", for: "email")
        try second.save()
        let existing = try second.existingObject(with: ann.objectID)
        try existing.set("ann2@x", for: "email")
        try copy.set("ann@x", for: "email")
        try second.save()
    }
}
