import Foundation
import Testing

@testable import ObjectGraph

@Suite("SQLite migration: conversions and errors")
struct SQLiteMigrationErrorTests {
    typealias Support = SQLiteMigrationSupport
    typealias League = SQLiteMigrationTests

    /// Migrates the league store at `url` to `v2`, expecting `MigrationError`; checks the
    /// file is unchanged (same schema, opens with the old model, same people).
    static func expectRefused(_ url: URL, to v2: EntityModel) throws -> MigrationError? {
        let v1 = League.league()
        let before = try Support.schema(of: url)
        let mapping = try Support.inferred(from: v1, to: v2)
        var caught: MigrationError?
        do {
            try SQLiteStoreMigration.migrate(storeAt: url, steps: [Support.step(v1, v2, mapping)])
        } catch let error as MigrationError {
            caught = error
        }
        #expect(try Support.schema(of: url) == before)
        let context = try Support.open(url, v1)
        #expect(try context.count(for: FetchRequest(entityName: "Person")) == 4)
        return caught
    }

    @Test("a new required attribute without a default names every object, changes nothing")
    func requiredWithoutDefault() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.sqlite")
        let uris = try League.fill(url)
        var entities = League.league().entities
        entities[0].attributes.append(Attribute("code", type: .string, isOptional: false))
        let error = try Self.expectRefused(url, to: EntityModel(entities: entities))
        guard case .missingRequiredValues(let entity, let property, let objects)? = error else {
            Issue.record("expected missingRequiredValues, got \(String(describing: error))")
            return
        }
        #expect(entity == "Person")
        #expect(property == "code")
        #expect(
            Set(objects)
                == Set(["Ann", "Bob", "Cy"].compactMap { uris[$0]?.absoluteString }))
    }

    @Test("optional → required fills nils with the default")
    func optionalToRequiredWithDefault() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.sqlite")
        let uris = try League.fill(url)
        do {
            let context = try Support.open(url, League.league())
            let ann = try context.existingObject(
                with: try context.coordinator.objectID(forURI: try #require(uris["Ann"])))
            try ann.set(Value.null, for: "nick")
            try context.save()
        }
        let v1 = League.league()
        var entities = v1.entities
        entities[0].attributes[3] = Attribute(
            "nick", type: .string, isOptional: false, defaultValueString: "none")
        let v2 = EntityModel(entities: entities)
        try SQLiteStoreMigration.migrate(
            storeAt: url, steps: [Support.step(v1, v2, try Support.inferred(from: v1, to: v2))])
        let context = try Support.open(url, v2)
        let ann = try context.existingObject(
            with: try context.coordinator.objectID(forURI: try #require(uris["Ann"])))
        #expect(ann["nick"] as String? == "none")
        let bob = try context.existingObject(
            with: try context.coordinator.objectID(forURI: try #require(uris["Bob"])))
        #expect(bob["nick"] as String? == "n-Bob")
    }

    @Test("a new uniqueness constraint broken by existing objects names them, changes nothing")
    func uniquenessViolated() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.sqlite")
        let uris = try League.fill(url)
        var entities = League.league().entities
        entities[0].uniquenessConstraints = [["team"]]
        let error = try Self.expectRefused(url, to: EntityModel(entities: entities))
        guard case .uniquenessViolated(let entity, let properties, let objects)? = error else {
            Issue.record("expected uniquenessViolated, got \(String(describing: error))")
            return
        }
        #expect(entity == "Person")
        #expect(properties == ["team"])
        #expect(
            Set(objects)
                == Set(["Ann", "Bob", "Dee"].compactMap { uris[$0]?.absoluteString }))
    }

    @Test("a new uniqueness constraint the objects keep gets its unique index")
    func uniquenessKept() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.sqlite")
        _ = try League.fill(url)
        let v1 = League.league()
        var entities = v1.entities
        entities[0].uniquenessConstraints = [["email"]]
        entities[0].attributes[1].isIndexed = true
        let v2 = EntityModel(entities: entities)
        try SQLiteStoreMigration.migrate(
            storeAt: url, steps: [Support.step(v1, v2, try Support.inferred(from: v1, to: v2))])
        try Support.expectFreshSchema(url, v2, folder: folder)
        #expect(try Support.schema(of: url).contains { $0.contains("UNIQUE INDEX") })
    }

    /// Item (small, wide, real, flag, count).
    static func items(_ types: [String: AttributeType] = [:]) -> EntityModel {
        let names = ["small", "wide", "real", "flag", "count"]
        let defaults: [String: AttributeType] = [
            "small": .integer16, "wide": .integer64, "real": .double, "flag": .boolean,
            "count": .integer32,
        ]
        var item = Entity("Item")
        item.attributes = names.map { Attribute($0, type: types[$0] ?? defaults[$0] ?? .string) }
        return EntityModel(entities: [item])
    }

    static func fillItems(_ url: URL, wide: Int64) throws {
        let context = try Support.open(url, items())
        let item = try context.insert("Item")
        try item.set(3, for: "small")
        try item.set(wide, for: "wide")
        try item.set(-2.75, for: "real")
        try item.set(true, for: "flag")
        try item.set(5, for: "count")
        try context.save()
    }

    @Test("type conversions run as SQL: widths, integer ↔ real, booleans, numbers → text")
    func conversions() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("Items.sqlite")
        try Self.fillItems(url, wide: 300)
        let v1 = Self.items()
        let v2 = Self.items([
            "small": .double, "wide": .integer16, "real": .integer32, "flag": .integer16,
            "count": .string,
        ])
        try SQLiteStoreMigration.migrate(
            storeAt: url, steps: [Support.step(v1, v2, try Support.inferred(from: v1, to: v2))])
        try Support.expectFreshSchema(url, v2, folder: folder)
        let context = try Support.open(url, v2)
        let item = try #require(try context.fetch(FetchRequest(entityName: "Item")).first)
        #expect(item["small"] as Double? == 3)
        #expect(item["wide"] as Int? == 300)
        #expect(item["real"] as Int? == -2)
        #expect(item["flag"] as Int? == 1)
        #expect(item["count"] as String? == "5")
    }

    @Test("a value that does not fit the narrower type is refused, naming object and value")
    func narrowingRefused() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("Items.sqlite")
        try Self.fillItems(url, wide: 70_000)
        let v1 = Self.items()
        let v2 = Self.items(["wide": .integer16])
        #expect {
            try SQLiteStoreMigration.migrate(
                storeAt: url,
                steps: [Support.step(v1, v2, try Support.inferred(from: v1, to: v2))])
        } throws: { error in
            guard
                case .cannotConvertValue(let entity, let property, let reason)? =
                    error as? MigrationError
            else { return false }
            return entity == "Item" && property == "wide" && reason.contains("70000")
                && reason.contains("/Item/p1")
        }
        let context = try Support.open(url, v1)
        let item = try #require(try context.fetch(FetchRequest(entityName: "Item")).first)
        #expect(item["wide"] as Int? == 70_000)
    }

    @Test("a type change that is not inferable is refused naming entity and property")
    func notInferable() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("Items.sqlite")
        try Self.fillItems(url, wide: 1)
        let v1 = Self.items()
        let v2 = Self.items(["real": .date])
        #expect {
            try SQLiteStoreMigration.migrate(
                storeAt: url,
                steps: [Support.step(v1, v2, try Support.inferred(from: v1, to: v2))])
        } throws: { error in
            guard case .cannotInferMapping(let entity, let property, _)? = error as? MigrationError
            else { return false }
            return entity == "Item" && property == "real"
        }
    }

    @Test("a store not at the first step's source version is refused")
    func wrongSourceVersion() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("Items.sqlite")
        try Self.fillItems(url, wide: 1)
        let other = Self.items(["real": .float])
        let v2 = Self.items(["real": .decimal])
        #expect(throws: StoreError.self) {
            try SQLiteStoreMigration.migrate(
                storeAt: url,
                steps: [Support.step(other, v2, try Support.inferred(from: other, to: v2))])
        }
    }
}
