import Foundation
import Testing

@testable import ObjectGraph

/// People in teams on a SQLite file in a temporary folder (or the in-memory store), saved by a
/// seed context: Ann (30) and Bob (40) in team Red. `parent` is a root context on the
/// coordinator, with nothing read yet.
struct ParentChildFixture {
    let folder: URL
    let file: URL
    let type: StoreType
    let coordinator: StoreCoordinator
    let parent: ManagedContext

    static func model() -> EntityModel {
        var person = Entity("Person")
        person.attributes = [Attribute("name", type: .string), Attribute("age", type: .integer64)]
        person.relationships = [Relationship("team", destination: "Team", inverse: "members")]
        var team = Entity("Team")
        team.attributes = [Attribute("name", type: .string)]
        team.relationships = [
            Relationship("members", destination: "Person", toMany: true, inverse: "team")
        ]
        return EntityModel(entities: [person, team])
    }

    init(_ type: StoreType = .sqlite) throws {
        self.type = type
        folder = try TestSupport.makeTemporaryFolder()
        file = folder.appendingPathComponent("People.sqlite")
        coordinator = StoreCoordinator(model: Self.model())
        try coordinator.addStore(type: type, at: type == .inMemory ? nil : file)
        let seed = ManagedContext(coordinator: coordinator)
        let red = try seed.insert("Team")
        try red.set("Red", for: "name")
        for (name, age) in [("Ann", 30), ("Bob", 40)] {
            let person = try seed.insert("Person")
            try person.set(name, for: "name")
            try person.set(age, for: "age")
            try person.setObject(red, for: "team")
        }
        try seed.save()
        parent = ManagedContext(coordinator: coordinator)
    }

    /// The person named `name` in `context`.
    func person(_ context: ManagedContext, _ name: String) throws -> ManagedObject {
        let request = FetchRequest(
            entityName: "Person", predicate: try Predicate(format: "name == %@", name))
        return try #require(try context.fetch(request).first)
    }

    /// The team Red in `context`.
    func red(_ context: ManagedContext) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(entityName: "Team")).first)
    }

    /// The names of the people `context` fetches, sorted.
    static func names(_ context: ManagedContext, _ format: String? = nil) throws -> [String] {
        var request = FetchRequest(
            entityName: "Person", sortDescriptors: [SortDescriptor("name")])
        if let format { request.predicate = try Predicate(format: format) }
        return try context.fetch(request).map { $0["name"] ?? "?" }
    }

    /// The people in the store as `name:age` (sorted by name), read by a new coordinator on the
    /// file (for the in-memory store, a new root context on the coordinator).
    func storedPeople() throws -> [String] {
        let reader: ManagedContext
        if type == .inMemory {
            reader = ManagedContext(coordinator: coordinator)
        } else {
            let other = StoreCoordinator(model: Self.model())
            try other.addStore(type: type, at: file)
            reader = ManagedContext(coordinator: other)
        }
        let request = FetchRequest(
            entityName: "Person", sortDescriptors: [SortDescriptor("name")])
        return try reader.fetch(request).map { person in
            let name: String = person["name"] ?? "?"
            let age: Int64 = person["age"] ?? -1
            let team = (try? person.object(for: "team"))??["name"] as String? ?? "-"
            return "\(name):\(age):\(team)"
        }
    }
}
