import Foundation
import Testing

@testable import ObjectGraph

/// A SQLite store in a temporary folder for the change-semantics tests: `Person` (name, age, a
/// transient `scratch`, `team` ↔ `Team.members`, `pets` ↔ `Pet.owner` cascading, `favorite`
/// to a team with no inverse) and `Team` (name), `Pet` (name).
struct ChangeFixture {
    let folder: URL
    let coordinator: StoreCoordinator
    let context: ManagedContext

    init(undo: Bool = true) throws {
        folder = try TestSupport.makeTemporaryFolder()
        coordinator = StoreCoordinator(model: Self.model())
        try coordinator.addStore(type: .sqlite, at: folder.appendingPathComponent("C.sqlite"))
        context = ManagedContext(
            coordinator: coordinator, classes: ManagedObjectClasses(),
            undoManager: undo ? UndoManager() : nil)
    }

    static func model() -> EntityModel {
        let name = Attribute("name", type: .string)
        let person = Entity(
            "Person",
            attributes: [
                name, Attribute("age", type: .integer64),
                Attribute("scratch", type: .string, isTransient: true),
            ],
            relationships: [
                Relationship("team", destination: "Team", inverse: "members"),
                Relationship("favorite", destination: "Team"),
                Relationship(
                    "pets", destination: "Pet", toMany: true, inverse: "owner",
                    deleteRule: .cascade),
            ])
        let team = Entity(
            "Team", attributes: [name],
            relationships: [
                Relationship("members", destination: "Person", toMany: true, inverse: "team")
            ])
        let pet = Entity(
            "Pet", attributes: [name],
            relationships: [Relationship("owner", destination: "Person", inverse: "pets")])
        return EntityModel(entities: [person, team, pet])
    }

    /// Another context on the same coordinator.
    func peer() -> ManagedContext {
        ManagedContext(coordinator: coordinator, classes: ManagedObjectClasses())
    }

    /// The object of `entity` named `name` in `context`.
    func one(_ context: ManagedContext, _ entity: String, _ name: String) throws -> ManagedObject {
        let request = FetchRequest(
            entityName: entity, predicate: try Predicate(format: "name == %@", name))
        return try #require(try context.fetch(request).first)
    }

    /// Inserts an object of `entity` named `name` into `context` (the fixture's by default).
    @discardableResult
    func make(_ entity: String, _ name: String, in context: ManagedContext? = nil) throws
        -> ManagedObject
    {
        let object = try (context ?? self.context).insert(entity)
        try object.set(name, for: "name")
        return object
    }

    func remove() { TestSupport.removeTemporaryFolder(folder) }
}
