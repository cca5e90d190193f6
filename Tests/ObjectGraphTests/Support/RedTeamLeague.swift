import Foundation
import Testing

@testable import ObjectGraph

/// A small saved league (``TestModels/league()``): team Red holding Ann and Bob, both 30.
enum RedTeamLeague {
    /// Writes the league to `L.sqlite` in `folder` and returns the file.
    static func write(in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("L.sqlite")
        let context = try SQLiteStoreTests.open(url)
        let red = try context.insert("Team")
        try red.set("Red", for: "name")
        for name in ["Ann", "Bob"] {
            let person = try context.insert("Person")
            try person.set(name, for: "name")
            try person.set(30, for: "age")
            try person.setObject(red, for: "team")
        }
        try context.save()
        return url
    }

    /// The object of `entity` named `name` in `context`.
    static func one(_ context: ManagedContext, _ entity: String, _ name: String) throws
        -> ManagedObject
    {
        let request = FetchRequest(
            entityName: entity, predicate: try Predicate(format: "name == %@", name))
        return try #require(try context.fetch(request).first)
    }
}
