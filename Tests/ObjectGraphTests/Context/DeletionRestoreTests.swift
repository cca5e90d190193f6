import Foundation
import Testing

@testable import ObjectGraph

/// Rolling back or undoing a deletion puts the deleted object back into the relationships of
/// the objects that pointed at it (both sides, to-one and to-many, an ordered position kept),
/// whether those objects were loaded or still faults when it was deleted.
@Suite("Restoring a deletion's relationships")
struct DeletionRestoreTests {
    /// Teams with ordered members, people with a manager (to-one ↔ to-many reports) and tags
    /// (many-to-many); every relationship nullifies.
    static func model(teamCascades: Bool = false) -> EntityModel {
        var person = Entity("Person")
        person.attributes = [Attribute("name", type: .string)]
        person.relationships = [
            Relationship("team", destination: "Team", inverse: "members"),
            Relationship("manager", destination: "Person", inverse: "reports"),
            Relationship("reports", destination: "Person", toMany: true, inverse: "manager"),
            Relationship("tags", destination: "Tag", toMany: true, inverse: "people"),
        ]
        var team = Entity("Team")
        team.attributes = [Attribute("name", type: .string)]
        team.relationships = [
            Relationship(
                "members", destination: "Person", toMany: true, inverse: "team",
                deleteRule: teamCascades ? .cascade : .nullify, isOrdered: true)
        ]
        var tag = Entity("Tag")
        tag.attributes = [Attribute("name", type: .string)]
        tag.relationships = [
            Relationship("people", destination: "Person", toMany: true, inverse: "tags")
        ]
        return EntityModel(entities: [person, team, tag])
    }

    /// A store with team Red (members Ann, Bob, Cy in that order), Bob managing Ann and Cy,
    /// and Bob tagged "x" and "y" (each tag also on Ann).
    static func store(_ type: StoreType, in folder: URL) throws -> StoreCoordinator {
        let coordinator = StoreCoordinator(model: model())
        let file = folder.appendingPathComponent("People.\(type.rawValue.lowercased())")
        try coordinator.addStore(type: type, at: type == .inMemory ? nil : file)
        try fill(coordinator)
        return coordinator
    }

    /// Saves the people, team and tags of ``store(_:in:)`` through `coordinator`.
    static func fill(_ coordinator: StoreCoordinator) throws {
        let context = ManagedContext(coordinator: coordinator)
        let red = try context.insert("Team")
        try red.set("Red", for: "name")
        var people: [String: ManagedObject] = [:]
        for name in ["Ann", "Bob", "Cy"] {
            let person = try context.insert("Person")
            try person.set(name, for: "name")
            try person.setObject(red, for: "team")
            people[name] = person
        }
        let bob = try #require(people["Bob"])
        for name in ["Ann", "Cy"] { try people[name]?.setObject(bob, for: "manager") }
        for name in ["x", "y"] {
            let tag = try context.insert("Tag")
            try tag.set(name, for: "name")
            try tag.add(bob, to: "people")
            if let ann = people["Ann"] { try tag.add(ann, to: "people") }
        }
        try context.save()
    }

    static func one(_ context: ManagedContext, _ entity: String, _ name: String) throws
        -> ManagedObject
    {
        let request = FetchRequest(
            entityName: entity, predicate: try Predicate(format: "name == %@", name))
        return try #require(try context.fetch(request).first)
    }

    static func names(_ objects: [ManagedObject]) -> [String] {
        objects.compactMap { $0["name"] as String? }
    }

    /// Checks every relationship around Bob is as stored.
    static func expectRestored(_ context: ManagedContext, _ label: String) throws {
        let bob = try one(context, "Person", "Bob")
        let red = try one(context, "Team", "Red")
        #expect(names(try red.objects(for: "members")) == ["Ann", "Bob", "Cy"], "\(label)")
        #expect(try bob.object(for: "team") === red, "\(label)")
        for name in ["Ann", "Cy"] {
            #expect(
                try one(context, "Person", name).object(for: "manager") === bob, "\(label): \(name)"
            )
        }
        #expect(Set(names(try bob.objects(for: "reports"))) == ["Ann", "Cy"], "\(label)")
        for name in ["x", "y"] {
            let tag = try one(context, "Tag", name)
            #expect(
                Set(names(try tag.objects(for: "people"))) == ["Ann", "Bob"], "\(label): \(name)")
        }
        #expect(Set(names(try bob.objects(for: "tags"))) == ["x", "y"], "\(label)")
        #expect(!context.hasChanges, "\(label)")
    }

    static let types: [StoreType] = [.sqlite, .xml, .inMemory]

    @Test(
        "rollback restores both sides of every relationship, the ordered position kept",
        arguments: types)
    func rollback(type: StoreType) throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let coordinator = try Self.store(type, in: folder)
        for loadedFirst in [true, false] {
            let context = ManagedContext(coordinator: coordinator)
            if loadedFirst {
                // Everyone loaded and every relationship read before the deletion.
                try Self.expectRestored(context, "before")
            }
            let bob = try Self.one(context, "Person", "Bob")
            context.delete(bob)
            let red = try Self.one(context, "Team", "Red")
            #expect(Self.names(try red.objects(for: "members")) == ["Ann", "Cy"])
            context.rollback()
            try Self.expectRestored(context, "rollback, \(type), loaded first: \(loadedFirst)")
        }
    }

    @Test(
        "undo restores both sides of every relationship; redo deletes again",
        arguments: types)
    func undo(type: StoreType) throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let coordinator = try Self.store(type, in: folder)
        for loadedFirst in [true, false] {
            let context = ManagedContext(coordinator: coordinator, undoManager: UndoManager())
            if loadedFirst { try Self.expectRestored(context, "before") }
            let bob = try Self.one(context, "Person", "Bob")
            context.processPendingChanges()
            context.delete(bob)
            context.processPendingChanges()
            let red = try Self.one(context, "Team", "Red")
            #expect(Self.names(try red.objects(for: "members")) == ["Ann", "Cy"])
            context.undoManager?.undo()
            try Self.expectRestored(context, "undo, \(type), loaded first: \(loadedFirst)")
            context.undoManager?.redo()
            #expect(bob.isDeleted)
            #expect(Self.names(try red.objects(for: "members")) == ["Ann", "Cy"])
            #expect(try Self.one(context, "Person", "Ann").object(for: "manager") == nil)
        }
    }

    @Test(
        "undoing a saved deletion brings the object back into every relationship, saved",
        arguments: types)
    func undoSaved(type: StoreType) throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let coordinator = try Self.store(type, in: folder)
        let context = ManagedContext(coordinator: coordinator, undoManager: UndoManager())
        let bob = try Self.one(context, "Person", "Bob")
        context.processPendingChanges()
        context.delete(bob)
        context.processPendingChanges()
        try context.save()
        context.undoManager?.undo()
        try context.save()
        try Self.expectRestored(ManagedContext(coordinator: coordinator), "saved undo, \(type)")
    }

    @Test(
        "rollback and undo of a cascading deletion restore the whole subgraph's links",
        arguments: types)
    func cascade(type: StoreType) throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let model = Self.model(teamCascades: true)
        for undoing in [false, true] {
            let fresh = StoreCoordinator(model: model)
            let url = folder.appendingPathComponent("P\(undoing).\(type.rawValue.lowercased())")
            try fresh.addStore(type: type, at: type == .inMemory ? nil : url)
            try Self.fill(fresh)
            let context = ManagedContext(
                coordinator: fresh, undoManager: undoing ? UndoManager() : nil)
            let red = try Self.one(context, "Team", "Red")
            context.processPendingChanges()
            context.delete(red)
            context.processPendingChanges()
            let x = try Self.one(context, "Tag", "x")
            #expect(try x.objects(for: "people").isEmpty)
            if undoing { context.undoManager?.undo() } else { context.rollback() }
            try Self.expectRestored(context, "cascade, \(type), undo: \(undoing)")
        }
    }

    @Test(
        "a deletion the rollback merge policy discards in a conflict restores its links",
        arguments: types)
    func rollbackPolicy(type: StoreType) throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let coordinator = try Self.store(type, in: folder)
        for loadedFirst in [true, false] {
            let mine = ManagedContext(coordinator: coordinator)
            mine.mergePolicy = .rollback
            if loadedFirst { try Self.expectRestored(mine, "before") }
            let bob = try Self.one(mine, "Person", "Bob")
            // Someone else renames Bob (and back) meanwhile: a conflict with the deletion.
            let theirs = ManagedContext(coordinator: coordinator)
            let theirBob = try Self.one(theirs, "Person", "Bob")
            try theirBob.set("Robert", for: "name")
            try theirs.save()
            try theirBob.set("Bob", for: "name")
            try theirs.save()
            mine.delete(bob)
            try mine.save()
            #expect(!bob.isDeleted)
            try Self.expectRestored(mine, "\(type), loaded first: \(loadedFirst)")
            try Self.expectRestored(
                ManagedContext(coordinator: coordinator),
                "stored, \(type), loaded first: \(loadedFirst)")
        }
    }
}
