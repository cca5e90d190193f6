import Foundation
import Testing

@testable import ObjectGraph

/// Merge policies resolving optimistic-locking conflicts against the store: two contexts on one
/// coordinator edit the same object, on each store type that keeps versions.
@Suite("Merge policies")
struct MergePolicyTests {
    /// People with a unique email; two contexts on one coordinator; Ann and Bob saved.
    struct Fixture {
        let folder: URL
        let coordinator: StoreCoordinator
        let mine: ManagedContext
        let theirs: ManagedContext

        static func model() -> EntityModel {
            var person = Entity("Person")
            person.attributes = [
                Attribute("email", type: .string), Attribute("name", type: .string),
                Attribute("age", type: .integer64), Attribute("city", type: .string),
            ]
            person.uniquenessConstraints = [["email"]]
            person.relationships = [Relationship("team", destination: "Team", inverse: "members")]
            var team = Entity("Team")
            team.attributes = [Attribute("name", type: .string)]
            team.relationships = [
                Relationship("members", destination: "Person", toMany: true, inverse: "team")
            ]
            team.uniquenessConstraints = [["name"]]
            return EntityModel(entities: [person, team])
        }

        /// `separately`: the other context has a coordinator of its own on the same file (as
        /// another process would).
        init(_ type: StoreType, separately: Bool = false) throws {
            folder = try TestSupport.makeTemporaryFolder()
            coordinator = StoreCoordinator(model: Self.model())
            let file = folder.appendingPathComponent("People.\(type.rawValue.lowercased())")
            try coordinator.addStore(type: type, at: type == .inMemory ? nil : file)
            mine = ManagedContext(coordinator: coordinator)
            if separately {
                let other = StoreCoordinator(model: Self.model())
                try other.addStore(type: type, at: file)
                theirs = ManagedContext(coordinator: other)
            } else {
                theirs = ManagedContext(coordinator: coordinator)
            }
            let seed = ManagedContext(coordinator: coordinator)
            for (email, name) in [("ann@x", "Ann"), ("bob@x", "Bob")] {
                let person = try seed.insert("Person")
                try person.set(email, for: "email")
                try person.set(name, for: "name")
                try person.set(30, for: "age")
                try person.set("Oslo", for: "city")
            }
            try seed.save()
        }

        func person(_ context: ManagedContext, _ email: String) throws -> ManagedObject {
            let request = FetchRequest(
                entityName: "Person", predicate: try Predicate(format: "email == %@", email))
            return try #require(try context.fetch(request).first)
        }

        /// The stored people with `email`, read by a new context.
        func stored(_ email: String) throws -> [ManagedObject] {
            let request = FetchRequest(
                entityName: "Person", predicate: try Predicate(format: "email == %@", email))
            return try ManagedContext(coordinator: coordinator).fetch(request)
        }

        /// Ann as stored: name, age, city.
        func storedAnn() throws -> [String?] {
            let ann = try #require(try stored("ann@x").first)
            return [ann["name"], (ann["age"] as Int?).map(String.init), ann["city"]]
        }

        /// They change Ann's name and age and save; I (having read her before) change her
        /// age and city.
        func conflict() throws -> ManagedObject {
            let ann = try person(mine, "ann@x")
            let theirAnn = try person(theirs, "ann@x")
            try theirAnn.set("Anna", for: "name")
            try theirAnn.set(31, for: "age")
            try theirs.save()
            try ann.set(40, for: "age")
            try ann.set("Rome", for: "city")
            return ann
        }
    }

    static let types: [StoreType] = [.sqlite, .xml, .binary, .inMemory]

    @Test("each policy merges property by property as Core Data does", arguments: types)
    func policies(type: StoreType) throws {
        let expected: [(MergePolicy, [String?])] = [
            (.mergeByPropertyObjectTrump, ["Anna", "40", "Rome"]),
            (.mergeByPropertyStoreTrump, ["Anna", "31", "Rome"]),
            (.overwrite, ["Ann", "40", "Rome"]),
            (.rollback, ["Anna", "31", "Oslo"]),
        ]
        for (policy, values) in expected {
            let fixture = try Fixture(type)
            defer { TestSupport.removeTemporaryFolder(fixture.folder) }
            let ann = try fixture.conflict()
            fixture.mine.mergePolicy = policy
            try fixture.mine.save()
            #expect(try fixture.storedAnn() == values, "\(policy) on \(type)")
            #expect(
                [ann["name"], (ann["age"] as Int?).map(String.init), ann["city"]] == values,
                "\(policy) on \(type): the object shows what was saved")
            #expect(!fixture.mine.hasChanges)
            // The object took the stored version: the next save does not conflict.
            try ann.set("Paris", for: "city")
            fixture.mine.mergePolicy = .error
            try fixture.mine.save()
            #expect(try fixture.storedAnn()[2] == "Paris", "\(policy) on \(type)")
        }
    }

    @Test(
        "error: one error lists every conflict with read, wanted and stored values",
        arguments: types)
    func errorPolicy(type: StoreType) throws {
        let fixture = try Fixture(type)
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let ann = try fixture.conflict()
        let bob = try fixture.person(fixture.mine, "bob@x")
        try fixture.person(fixture.theirs, "bob@x").set("Robert", for: "name")
        try fixture.theirs.save()
        try bob.set(50, for: "age")
        do {
            try fixture.mine.save()
            Issue.record("expected conflicts on \(type)")
        } catch SaveError.conflicts(let conflicts) {
            #expect(Set(conflicts.map(\.objectID)) == [ann.objectID, bob.objectID])
            let annConflict = try #require(conflicts.first { $0.objectID == ann.objectID })
            #expect(annConflict.source == .store)
            #expect(
                Set(annConflict.properties) == [
                    PropertyConflict(
                        property: "age", snapshot: .integer(30), object: .integer(40),
                        other: .integer(31)),
                    PropertyConflict(
                        property: "city", snapshot: .string("Oslo"), object: .string("Rome"),
                        other: .string("Oslo")),
                ])
            let bobConflict = try #require(conflicts.first { $0.objectID == bob.objectID })
            #expect(
                bobConflict.properties == [
                    PropertyConflict(
                        property: "age", snapshot: .integer(30), object: .integer(50),
                        other: .integer(30))
                ])
            #expect("\(SaveError.conflicts(conflicts))".contains("age: read 30, wants 40, now 31"))
        }
        #expect(try fixture.storedAnn() == ["Anna", "31", "Oslo"])
        #expect(fixture.mine.hasChanges)
    }

    @Test(
        "error: a save where one object conflicts writes none of its objects",
        arguments: types)
    func atomic(type: StoreType) throws {
        let fixture = try Fixture(type)
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        _ = try fixture.conflict()
        try fixture.person(fixture.mine, "bob@x").set(77, for: "age")
        let new = try fixture.mine.insert("Person")
        try new.set("cy@x", for: "email")
        #expect(throws: SaveError.self) { try fixture.mine.save() }
        #expect(try fixture.stored("cy@x").isEmpty)
        #expect(try fixture.stored("bob@x").first?["age"] as Int? == 30)
        #expect(try fixture.storedAnn() == ["Anna", "31", "Oslo"])
    }

    @Test(
        "object trump: an object deleted elsewhere fails the save, which writes nothing",
        arguments: types)
    func atomicWhenGone(type: StoreType) throws {
        let fixture = try Fixture(type)
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        fixture.mine.mergePolicy = .mergeByPropertyObjectTrump
        _ = try fixture.conflict()
        let bob = try fixture.person(fixture.mine, "bob@x")
        fixture.theirs.delete(try fixture.person(fixture.theirs, "bob@x"))
        try fixture.theirs.save()
        try bob.set(77, for: "age")
        let new = try fixture.mine.insert("Person")
        try new.set("cy@x", for: "email")
        do {
            try fixture.mine.save()
            Issue.record("expected a conflict on \(type)")
        } catch SaveError.conflicts(let conflicts) {
            let gone = try #require(conflicts.first { $0.objectID == bob.objectID })
            #expect(gone.storeVersion == 0)
            #expect(gone.properties.first?.other == nil)
        }
        #expect(try fixture.stored("cy@x").isEmpty)
        #expect(try fixture.storedAnn() == ["Anna", "31", "Oslo"])
        #expect(fixture.mine.hasChanges)
    }

    @Test(
        "a deletion in conflict: trump policies delete, rollback keeps the stored object",
        arguments: types)
    func deletion(type: StoreType) throws {
        for policy in [MergePolicy.mergeByPropertyObjectTrump, .rollback] {
            let fixture = try Fixture(type)
            defer { TestSupport.removeTemporaryFolder(fixture.folder) }
            let ann = try fixture.person(fixture.mine, "ann@x")
            try fixture.person(fixture.theirs, "ann@x").set(31, for: "age")
            try fixture.theirs.save()
            fixture.mine.delete(ann)
            fixture.mine.mergePolicy = policy
            try fixture.mine.save()
            let stored = try fixture.stored("ann@x")
            #expect(stored.count == (policy == .rollback ? 1 : 0), "\(policy) on \(type)")
            if policy == .rollback { #expect(ann["age"] as Int? == 31) }
        }
    }

    /// Inserts a person with `email` and the given values in `context`.
    @discardableResult
    static func insert(
        _ context: ManagedContext, _ email: String, name: String?, age: Int?, city: String?
    ) throws -> ManagedObject {
        let person = try context.insert("Person")
        try person.set(email, for: "email")
        try person.set(name, for: "name")
        try person.set(age, for: "age")
        try person.set(city, for: "city")
        return person
    }

    @Test(
        "upsert: an insert colliding with a stored unique email updates that object",
        arguments: types)
    func upsert(type: StoreType) throws {
        let expected: [(MergePolicy, [String?])] = [
            (.mergeByPropertyObjectTrump, ["Annie", "33", "Rome"]),
            (.mergeByPropertyStoreTrump, ["Ann", "30", "Rome"]),
        ]
        for (policy, values) in expected {
            let fixture = try Fixture(type)
            defer { TestSupport.removeTemporaryFolder(fixture.folder) }
            let stored = try fixture.person(fixture.theirs, "ann@x")
            try stored.set(nil as String?, for: "city")
            try fixture.theirs.save()
            fixture.mine.mergePolicy = policy
            try Self.insert(fixture.mine, "ann@x", name: "Annie", age: 33, city: "Rome")
            try fixture.mine.save()
            let found = try fixture.stored("ann@x")
            #expect(found.map(\.objectID) == [stored.objectID], "\(policy) on \(type)")
            #expect(try fixture.storedAnn() == values, "\(policy) on \(type)")
            #expect(!fixture.mine.hasChanges)
        }
    }

    @Test(
        "upsert: inserts colliding with each other in one save become one object",
        arguments: types)
    func upsertAmongInserts(type: StoreType) throws {
        let expected: [(MergePolicy, String)] = [
            (.mergeByPropertyObjectTrump, "Z2"), (.mergeByPropertyStoreTrump, "Z1"),
        ]
        for (policy, name) in expected {
            let fixture = try Fixture(type)
            defer { TestSupport.removeTemporaryFolder(fixture.folder) }
            fixture.mine.mergePolicy = policy
            try Self.insert(fixture.mine, "zed@x", name: "Z1", age: 1, city: nil)
            try Self.insert(fixture.mine, "zed@x", name: "Z2", age: nil, city: "Rome")
            // And one colliding with a stored object in the same save.
            try Self.insert(fixture.mine, "bob@x", name: "Bobby", age: nil, city: nil)
            try fixture.mine.save()
            let zed = try fixture.stored("zed@x")
            #expect(zed.count == 1, "\(policy) on \(type)")
            #expect(zed.first?["name"] as String? == name)
            #expect(zed.first?["age"] as Int? == 1)
            #expect(zed.first?["city"] as String? == "Rome")
            let bob = try fixture.stored("bob@x")
            #expect(bob.count == 1)
            #expect(
                bob.first?["name"] as String?
                    == (policy == .mergeByPropertyObjectTrump ? "Bobby" : "Bob"))
        }
    }

    @Test(
        "error: a unique email held already throws a constraint conflict naming both",
        arguments: types)
    func constraintError(type: StoreType) throws {
        let fixture = try Fixture(type)
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let stored = try fixture.person(fixture.theirs, "ann@x")
        let new = try Self.insert(fixture.mine, "ann@x", name: "Annie", age: nil, city: nil)
        ConstraintPolicyTests.expectEmailConflict(
            saving: fixture.mine, "ann@x", object: new.objectID, holder: stored.objectID,
            "\(type)")
        #expect(try fixture.stored("ann@x").count == 1)
        #expect(try fixture.storedAnn() == ["Ann", "30", "Oslo"])
    }

    @Test(
        "upsert with relationships: the insert's members join the stored object; its to-one wins under object trump only",
        arguments: types)
    func upsertRelationships(type: StoreType) throws {
        for policy in [MergePolicy.mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump] {
            let fixture = try Fixture(type)
            defer { TestSupport.removeTemporaryFolder(fixture.folder) }
            let red = try fixture.theirs.insert("Team")
            try red.set("Red", for: "name")
            try fixture.person(fixture.theirs, "ann@x").setObject(red, for: "team")
            try fixture.theirs.save()
            fixture.mine.mergePolicy = policy
            // A new Red team (colliding) with a new member; Ann (colliding) moved to Blue.
            let newRed = try fixture.mine.insert("Team")
            try newRed.set("Red", for: "name")
            let cy = try Self.insert(fixture.mine, "cy@x", name: "Cy", age: nil, city: nil)
            try cy.setObject(newRed, for: "team")
            let blue = try fixture.mine.insert("Team")
            try blue.set("Blue", for: "name")
            let newAnn = try Self.insert(fixture.mine, "ann@x", name: nil, age: nil, city: nil)
            try newAnn.setObject(blue, for: "team")
            try fixture.mine.save()
            let reader = ManagedContext(coordinator: fixture.coordinator)
            let teams = try reader.fetch(
                FetchRequest(
                    entityName: "Team", predicate: try Predicate(format: "name == %@", "Red")))
            #expect(teams.map(\.objectID) == [red.objectID], "\(policy) on \(type)")
            let members = try teams.first?.objects(for: "members") ?? []
            let names = Set(members.compactMap { $0["name"] as String? })
            let annTeam = try fixture.person(reader, "ann@x").object(for: "team")
            if policy == .mergeByPropertyObjectTrump {
                #expect(names == ["Cy"], "\(type)")
                #expect(annTeam?["name"] as String? == "Blue", "\(type)")
            } else {
                #expect(names == ["Ann", "Cy"], "\(type)")
                #expect(annTeam?["name"] as String? == "Red", "\(type)")
            }
        }
    }

    @Test("a conflict with another coordinator on the same SQLite file merges the same way")
    func otherCoordinator() throws {
        for (policy, values) in [
            (MergePolicy.mergeByPropertyObjectTrump, ["Anna", "40", "Rome"]),
            (.mergeByPropertyStoreTrump, ["Anna", "31", "Rome"]),
        ] {
            let fixture = try Fixture(.sqlite, separately: true)
            defer { TestSupport.removeTemporaryFolder(fixture.folder) }
            _ = try fixture.conflict()
            fixture.mine.mergePolicy = policy
            try fixture.mine.save()
            #expect(try fixture.storedAnn() == values, "\(policy)")
        }
    }

    @Test(
        "rollback: an object changed here and deleted elsewhere is let go; the rest saves",
        arguments: types)
    func rollbackGone(type: StoreType) throws {
        let fixture = try Fixture(type)
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        fixture.mine.mergePolicy = .rollback
        let bob = try fixture.person(fixture.mine, "bob@x")
        fixture.theirs.delete(try fixture.person(fixture.theirs, "bob@x"))
        try fixture.theirs.save()
        try bob.set(77, for: "age")
        try fixture.person(fixture.mine, "ann@x").set("Rome", for: "city")
        try fixture.mine.save()
        #expect(bob.context == nil)
        #expect(try fixture.stored("bob@x").isEmpty)
        #expect(try fixture.storedAnn() == ["Ann", "30", "Rome"])
        #expect(!fixture.mine.hasChanges)
    }
}
