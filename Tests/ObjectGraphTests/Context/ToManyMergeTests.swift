import Foundation
import Testing

@testable import ObjectGraph

/// Merge policies on to-many relationships, property by property as Core Data merges: a
/// relationship both sides changed is this context's under object trump and the store's under
/// store trump (on SQLite too, whose rows leave to-many lists out), and the objects on the
/// other side of the relationship follow, so both sides are saved alike.
@Suite("Merging to-many relationships")
struct ToManyMergeTests {
    typealias People = DeletionRestoreTests

    /// Tag x holds Ann and Bob. They take Ann out of x and save; I (having read x) add Cy.
    static func conflict(_ type: StoreType, in folder: URL) throws -> (
        coordinator: StoreCoordinator, mine: ManagedContext
    ) {
        let coordinator = try People.store(type, in: folder)
        let mine = ManagedContext(coordinator: coordinator)
        let x = try People.one(mine, "Tag", "x")
        #expect(Set(People.names(try x.objects(for: "people"))) == ["Ann", "Bob"])
        let theirs = ManagedContext(coordinator: coordinator)
        try People.one(theirs, "Tag", "x").remove(
            try People.one(theirs, "Person", "Ann"), from: "people")
        try theirs.save()
        try x.add(try People.one(mine, "Person", "Cy"), to: "people")
        return (coordinator, mine)
    }

    /// Who is tagged x, read through x and through each person, by a new context.
    static func stored(_ coordinator: StoreCoordinator) throws -> (Set<String>, Set<String>) {
        let context = ManagedContext(coordinator: coordinator)
        let throughTag = Set(
            People.names(try People.one(context, "Tag", "x").objects(for: "people")))
        var throughPeople = Set<String>()
        for person in try context.fetch(FetchRequest(entityName: "Person")) {
            if People.names(try person.objects(for: "tags")).contains("x") {
                throughPeople.insert(person["name"] as String? ?? "")
            }
        }
        return (throughTag, throughPeople)
    }

    static let types: [StoreType] = [.sqlite, .xml, .binary, .inMemory]

    @Test("store trump: the store's members win, and the object I added lets go", arguments: types)
    func storeTrump(type: StoreType) throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let (coordinator, mine) = try Self.conflict(type, in: folder)
        mine.mergePolicy = .mergeByPropertyStoreTrump
        try mine.save()
        let (throughTag, throughPeople) = try Self.stored(coordinator)
        #expect(throughTag == ["Bob"], "\(type)")
        #expect(throughPeople == ["Bob"], "\(type)")
        let cy = try People.one(mine, "Person", "Cy")
        #expect(try cy.objects(for: "tags").isEmpty, "\(type): Cy follows in the context")
        #expect(!mine.hasChanges, "\(type)")
    }

    @Test("object trump: my members win", arguments: types)
    func objectTrump(type: StoreType) throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let (coordinator, mine) = try Self.conflict(type, in: folder)
        mine.mergePolicy = .mergeByPropertyObjectTrump
        try mine.save()
        let (throughTag, _) = try Self.stored(coordinator)
        #expect(throughTag == ["Ann", "Bob", "Cy"], "\(type)")
    }

    @Test("rollback: my change of the relationship is undone on both sides", arguments: types)
    func rollback(type: StoreType) throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let (coordinator, mine) = try Self.conflict(type, in: folder)
        mine.mergePolicy = .rollback
        try mine.save()
        let (throughTag, throughPeople) = try Self.stored(coordinator)
        #expect(throughTag == ["Bob"], "\(type)")
        #expect(throughPeople == ["Bob"], "\(type)")
        #expect(try People.one(mine, "Person", "Cy").objects(for: "tags").isEmpty, "\(type)")
    }

    @Test("a conflict record lists attributes and to-one relationships, not to-many ones")
    func conflictRecord() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let (_, mine) = try Self.conflict(.sqlite, in: folder)
        try People.one(mine, "Tag", "x").set("X", for: "name")
        do {
            try mine.save()
            Issue.record("expected a conflict")
        } catch SaveError.conflicts(let conflicts) {
            // Core Data's NSMergeConflict snapshots hold attributes and to-one relationships,
            // not to-many ones.
            let x = try #require(conflicts.first { $0.objectID.entityName == "Tag" })
            #expect(x.properties.map(\.property) == ["name"])
        }
    }
}
