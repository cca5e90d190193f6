import Foundation
import ObjectGraph

/// The benchmark's workload: the model, the generated people and teams, the operations and
/// their targets. Both runners take every value from here, so they do the same work.
enum Workload {
    /// The operations, in the order they run (each works on the file the previous ones left;
    /// the batch operations, after `delete_all`, insert their own people).
    static let operations =
        ["insert", "fetch_all", "query", "update_all", "prefetch", "aggregate", "delete_all"]
        + BatchBenchmark.operations

    /// The target ratio (ObjectGraph time / raw time) of each operation.
    static let targets: [String: Double] = [
        "insert": 2.5, "fetch_all": 2.0, "query": 1.5, "update_all": 3.0, "prefetch": 2.5,
        "delete_all": 3.0, "concurrent_import": 2.5, "migrate": 2.0, "aggregate": 1.5,
        "batch_insert": 1.5, "batch_update": 1.5, "batch_delete": 1.5,
    ]

    /// Operations that start from an empty store of their own (not the file the chain of
    /// ``operations`` leaves), run after them.
    static let freshStoreOperations = ["concurrent_import", "migrate"]

    /// `concurrent_import`: how many writers (background contexts, or threads with their own
    /// connection) each insert a slice of the people.
    static let importWriters = 4
    /// `concurrent_import`: how many people a writer saves (commits) at once.
    static let importBatch = 1_000
    /// `concurrent_import`: how often the reader counts the people, in seconds.
    static let importReadInterval = 0.01

    /// `concurrent_import`: the people writer `writer` inserts (contiguous slices, the last one
    /// taking the remainder).
    static func importSlice(writer: Int, people n: Int) -> Range<Int> {
        let size = n / importWriters
        let start = writer * size
        return start..<(writer == importWriters - 1 ? n : start + size)
    }

    /// `concurrent_import`: how many teams each writer inserts (its own, so writers never
    /// share an object): a quarter of ``teamCount(people:)``, at least 1.
    static func importTeamCount(people n: Int) -> Int {
        max(1, teamCount(people: n) / importWriters)
    }

    /// The target ratio of peak memory (ObjectGraph / raw).
    static let memoryTarget = 3.0

    /// The predicate of the `query` operation, in ObjectGraph's format.
    static let queryFormat = "age > 30 AND name BEGINSWITH 'J'"
    /// The limit of each `query` fetch.
    static let queryLimit = 100

    /// The model: `Person(id, name, age, email, score, created)` ↔ `Team(name)`.
    static func model() -> EntityModel {
        let person = Entity(
            "Person",
            attributes: [
                Attribute("id", type: .integer64, isIndexed: true),
                Attribute("name", type: .string, isIndexed: true),
                Attribute("age", type: .integer32),
                Attribute("email", type: .string),
                Attribute("score", type: .double),
                Attribute("created", type: .date),
            ],
            relationships: [Relationship("team", destination: "Team", inverse: "members")])
        let team = Entity(
            "Team", attributes: [Attribute("name", type: .string)],
            relationships: [
                Relationship("members", destination: "Person", toMany: true, inverse: "team")
            ])
        return EntityModel(entities: [person, team])
    }

    /// How many teams `n` people are spread over (n / 100, at least 1).
    static func teamCount(people n: Int) -> Int { max(1, n / 100) }

    /// The name of team `index` (0-based).
    static func teamName(_ index: Int) -> String { "Team \(index + 1)" }

    /// The team (0-based) person `index` belongs to.
    static func team(ofPerson index: Int, teams: Int) -> Int { index % teams }

    private static let firstNames = [
        "Alice", "Bruno", "Carla", "Dmitri", "Emma", "Farid", "Grace", "Hiro", "Ines", "Jack",
        "Jana", "Jonas", "Kofi", "Lena", "Mateo", "Nora", "Omar", "Priya", "Quinn", "Rosa",
    ]
    private static let lastNames = [
        "Abe", "Berg", "Costa", "Dubois", "Eze", "Fischer", "García", "Haas", "Ito", "Jensen",
    ]

    /// The values of person `index` (0-based): deterministic, names unique.
    static func person(_ index: Int) -> PersonValues {
        let first = firstNames[(index &* 7919) % firstNames.count]
        let last = lastNames[(index &* 104_729 / 7) % lastNames.count]
        return PersonValues(
            id: Int64(index + 1), name: "\(first) \(last) \(index)",
            age: Int32(18 + (index &* 37) % 60), email: "person\(index)@example.com",
            score: Double((index &* 7) % 1000) / 10,
            created: 700_000_000 + Double(index) * 60)
    }

    /// The score `update_all` gives a person whose score is `score`.
    static func updatedScore(_ score: Double) -> Double { score + 1 }
}

/// One person's attribute values (`created` in seconds since 2001, as Core Data stores dates).
struct PersonValues {
    var id: Int64
    var name: String
    var age: Int32
    var email: String
    var score: Double
    var created: Double

    /// A checksum of every value, the same whichever side read them (so both sides can be
    /// checked to have done the same work).
    var checksum: Int64 {
        id &+ Int64(age) &* 3 &+ Int64(name.utf8.count) &* 5 &+ Int64(email.utf8.count) &* 7
            &+ Int64((score * 10).rounded()) &* 11 &+ Int64(created.rounded()) % 1_000_003
    }
}
