import Foundation
import Testing

@testable import ObjectGraph

/// Uniqueness collisions by merge policy beyond an insert meeting a stored object: two
/// coordinators racing to save the same unique value (the second save refused by the SQLite
/// file's unique index), and an updated object taking another object's unique value.
@Suite("Uniqueness constraints by merge policy")
struct ConstraintPolicyTests {
    typealias Fixture = MergePolicyTests.Fixture

    /// Every person stored, by email: name, age, city.
    static func stored(_ fixture: Fixture) throws -> [String: [String?]] {
        let context = ManagedContext(coordinator: fixture.coordinator)
        var result: [String: [String?]] = [:]
        for person in try context.fetch(FetchRequest(entityName: "Person")) {
            let email = try #require(person["email"] as String?)
            #expect(result[email] == nil, "two people stored with \(email)")
            result[email] = [
                person["name"], (person["age"] as Int?).map(String.init), person["city"],
            ]
        }
        return result
    }

    /// I insert Cy (cy@x, age 1) and change Bob's age; my save checks uniqueness (no cy@x
    /// yet), then — just before it writes — another coordinator on the same file saves its
    /// own cy@x (Cyrus, Rome). Returns my insert and the other side's cy@x.
    static func race(_ fixture: Fixture, _ policy: MergePolicy) throws -> (
        mine: ManagedObject, theirs: ManagedObject, error: (any Error)?
    ) {
        fixture.mine.mergePolicy = policy
        let mine = try MergePolicyTests.insert(
            fixture.mine, "cy@x", name: "Cy", age: 1, city: nil)
        try fixture.person(fixture.mine, "bob@x").set(44, for: "age")
        let theirs = try MergePolicyTests.insert(
            fixture.theirs, "cy@x", name: "Cyrus", age: nil, city: "Rome")
        var raced = false
        var raceError: (any Error)?
        let observation = fixture.mine.observe { note in
            guard note.kind == .willSave, !raced else { return }
            raced = true
            do { try fixture.theirs.save() } catch { raceError = error }
        }
        defer { observation.cancel() }
        var saveError: (any Error)?
        do { try fixture.mine.save() } catch { saveError = error }
        #expect(raced)
        #expect(raceError == nil)
        return (mine, theirs, saveError)
    }

    @Test("two coordinators insert one unique email: the trump policies merge into the winner")
    func raceTrump() throws {
        let expected: [(MergePolicy, [String?])] = [
            (.mergeByPropertyObjectTrump, ["Cy", "1", "Rome"]),
            (.mergeByPropertyStoreTrump, ["Cyrus", "1", "Rome"]),
        ]
        for (policy, values) in expected {
            let fixture = try Fixture(.sqlite, separately: true)
            defer { TestSupport.removeTemporaryFolder(fixture.folder) }
            let (mine, theirs, error) = try Self.race(fixture, policy)
            #expect(error == nil, "\(policy): \(String(describing: error))")
            let people = try Self.stored(fixture)
            #expect(people["cy@x"] == values, "\(policy)")
            #expect(people["bob@x"]?[1] == "44", "\(policy): the rest of the save is written")
            // The stored winner kept its ID; my insert left the context.
            #expect(try fixture.stored("cy@x").map(\.objectID) == [theirs.objectID])
            #expect(mine.context == nil)
            #expect(!fixture.mine.hasChanges)
            let merged = try fixture.person(fixture.mine, "cy@x")
            #expect(merged.objectID == theirs.objectID)
            #expect(merged["name"] as String? == values[0])
        }
    }

    @Test(
        "two coordinators insert one unique email: under error one constraint conflict, nothing written"
    )
    func raceError() throws {
        let fixture = try Fixture(.sqlite, separately: true)
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let (mine, theirs, error) = try Self.race(fixture, .error)
        guard case SaveError.constraintConflicts(let conflicts)? = error else {
            Issue.record("expected constraint conflicts, got \(String(describing: error))")
            return
        }
        #expect(
            conflicts == [
                ConstraintConflict(
                    entity: "Person", properties: ["email"], values: [.string("cy@x")],
                    objectID: mine.objectID, conflictingIDs: [theirs.objectID])
            ])
        let people = try Self.stored(fixture)
        #expect(people["cy@x"] == ["Cyrus", nil, "Rome"])
        #expect(people["bob@x"]?[1] == "30", "nothing of the refused save is written")
        #expect(fixture.mine.hasChanges)
    }

    @Test("two coordinators insert one unique email: overwrite keeps mine, rollback theirs")
    func raceOverwriteRollback() throws {
        for policy in [MergePolicy.overwrite, .rollback] {
            let fixture = try Fixture(.sqlite, separately: true)
            defer { TestSupport.removeTemporaryFolder(fixture.folder) }
            let (mine, theirs, error) = try Self.race(fixture, policy)
            #expect(error == nil, "\(policy): \(String(describing: error))")
            let people = try Self.stored(fixture)
            let winner = policy == .overwrite ? mine : theirs
            #expect(try fixture.stored("cy@x").map(\.objectID) == [winner.objectID], "\(policy)")
            #expect(
                people["cy@x"]
                    == (policy == .overwrite ? ["Cy", "1", nil] : ["Cyrus", nil, "Rome"]),
                "\(policy)")
            #expect(people["bob@x"]?[1] == "44", "\(policy)")
        }
    }

    @Test(
        "two contexts on one coordinator insert one unique email: merged, or one conflict",
        arguments: MergePolicyTests.types)
    func raceOneCoordinator(type: StoreType) throws {
        for policy in [MergePolicy.mergeByPropertyObjectTrump, .error] {
            let fixture = try Fixture(type)
            defer { TestSupport.removeTemporaryFolder(fixture.folder) }
            let (mine, theirs, error) = try Self.race(fixture, policy)
            let people = try Self.stored(fixture)
            #expect(try fixture.stored("cy@x").map(\.objectID) == [theirs.objectID], "\(type)")
            if policy == .error {
                guard case SaveError.constraintConflicts(let conflicts)? = error else {
                    Issue.record(
                        "\(type): expected constraint conflicts, got \(String(describing: error))")
                    continue
                }
                #expect(conflicts.map(\.objectID) == [mine.objectID], "\(type)")
                #expect(people["cy@x"] == ["Cyrus", nil, "Rome"], "\(type)")
                #expect(people["bob@x"]?[1] == "30", "\(type): nothing written")
            } else {
                #expect(error == nil, "\(type): \(String(describing: error))")
                #expect(people["cy@x"] == ["Cy", "1", "Rome"], "\(type)")
                #expect(people["bob@x"]?[1] == "44", "\(type)")
            }
        }
    }

    @Test("an update racing another coordinator's insert of the same email merges into it")
    func raceUpdate() throws {
        let fixture = try Fixture(.sqlite, separately: true)
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        fixture.mine.mergePolicy = .mergeByPropertyObjectTrump
        let bob = try fixture.person(fixture.mine, "bob@x")
        try bob.set("cy@x", for: "email")
        try bob.set(44, for: "age")
        _ = try MergePolicyTests.insert(
            fixture.theirs, "cy@x", name: "Cyrus", age: nil, city: "Rome")
        var raced = false
        let observation = fixture.mine.observe { note in
            guard note.kind == .willSave, !raced else { return }
            raced = true
            try? fixture.theirs.save()
        }
        defer { observation.cancel() }
        try fixture.mine.save()
        #expect(raced)
        let people = try Self.stored(fixture)
        #expect(people["cy@x"] == ["Cyrus", "44", "Rome"])
        #expect(people["bob@x"] == nil)
        #expect(people.count == 2)
    }

    /// Bob (bob@x, Bob, 30, Oslo) takes Ann's email and a new age in my context.
    static func bobTakesAnnsEmail(_ fixture: Fixture) throws -> (
        bob: ManagedObject, ann: ManagedObject
    ) {
        let ann = try fixture.person(fixture.theirs, "ann@x")
        try ann.set("Lima", for: "city")
        try fixture.theirs.save()
        let bob = try fixture.person(fixture.mine, "bob@x")
        try bob.set("ann@x", for: "email")
        try bob.set(44, for: "age")
        return (bob, ann)
    }

    @Test(
        "an updated object taking a stored object's unique email, by policy",
        arguments: MergePolicyTests.types)
    func updateCollides(type: StoreType) throws {
        let expected: [(MergePolicy, [String: [String?]])] = [
            // Bob's changes (email, age) go to Ann, who stays; Bob goes.
            (.mergeByPropertyObjectTrump, ["ann@x": ["Ann", "44", "Lima"]]),
            // Ann's values stay; Bob goes.
            (.mergeByPropertyStoreTrump, ["ann@x": ["Ann", "30", "Lima"]]),
            // Bob is saved as he is; Ann goes.
            (.overwrite, ["ann@x": ["Bob", "44", "Oslo"]]),
            // Bob's changes are discarded.
            (
                .rollback,
                ["ann@x": ["Ann", "30", "Lima"], "bob@x": ["Bob", "30", "Oslo"]]
            ),
        ]
        for (policy, people) in expected {
            let fixture = try Fixture(type)
            defer { TestSupport.removeTemporaryFolder(fixture.folder) }
            let (bob, ann) = try Self.bobTakesAnnsEmail(fixture)
            fixture.mine.mergePolicy = policy
            try fixture.mine.save()
            #expect(try Self.stored(fixture) == people, "\(policy) on \(type)")
            let survivor = policy == .overwrite ? bob : ann
            #expect(
                try fixture.stored("ann@x").map(\.objectID) == [survivor.objectID],
                "\(policy) on \(type)")
            #expect(!fixture.mine.hasChanges, "\(policy) on \(type)")
        }
    }

    @Test(
        "error: an updated object taking a unique email names both objects and the constraint",
        arguments: MergePolicyTests.types)
    func updateCollidesError(type: StoreType) throws {
        let fixture = try Fixture(type)
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let (bob, ann) = try Self.bobTakesAnnsEmail(fixture)
        let conflicts = Self.expectEmailConflict(
            saving: fixture.mine, "ann@x", object: bob.objectID, holder: ann.objectID, "\(type)")
        let text = "\(SaveError.constraintConflicts(conflicts))"
        #expect(text.contains("Person (email)"))
        #expect(text.contains("\(bob.objectID)") && text.contains("\(ann.objectID)"))
        #expect(try Self.stored(fixture)["bob@x"] == ["Bob", "30", "Oslo"])
        #expect(fixture.mine.hasChanges)
    }

    /// Saves `context`, expecting one conflict of `object` taking the unique `email` that
    /// `holder` holds; returns the conflicts thrown.
    @discardableResult
    static func expectEmailConflict(
        saving context: ManagedContext, _ email: String, object: ObjectID, holder: ObjectID,
        _ label: String
    ) -> [ConstraintConflict] {
        do {
            try context.save()
            Issue.record("expected a constraint conflict: \(label)")
        } catch SaveError.constraintConflicts(let conflicts) {
            #expect(
                conflicts == [
                    ConstraintConflict(
                        entity: "Person", properties: ["email"], values: [.string(email)],
                        objectID: object, conflictingIDs: [holder])
                ], "\(label)")
            return conflicts
        } catch {
            Issue.record("expected a constraint conflict, got \(error): \(label)")
        }
        return []
    }

    @Test("one save freeing a unique email and inserting it again writes both (SQLite order)")
    func renameAndReuse() throws {
        let fixture = try Fixture(.sqlite)
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        try fixture.person(fixture.mine, "ann@x").set("anna@x", for: "email")
        try MergePolicyTests.insert(fixture.mine, "ann@x", name: "New", age: nil, city: nil)
        fixture.mine.delete(try fixture.person(fixture.mine, "bob@x"))
        try MergePolicyTests.insert(fixture.mine, "bob@x", name: "Bob 2", age: nil, city: nil)
        try fixture.mine.save()
        let people = try Self.stored(fixture)
        #expect(people["anna@x"]?[0] == "Ann")
        #expect(people["ann@x"]?[0] == "New")
        #expect(people["bob@x"]?[0] == "Bob 2")
    }
}
