import Foundation
import Testing

@testable import ObjectGraph

/// Models, generated graphs and graph dumps shared by the atomic-store tests.
enum AtomicStoreTestSupport {
    /// The league model plus an entity with an attribute of every stored type.
    static func model() -> EntityModel {
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
        return EntityModel(entities: TestModels.league().entities + [all])
    }

    /// A coordinator with one store of `type` at `url`, and a context on it.
    static func open(
        _ type: StoreType, at url: URL?, model: EntityModel = model(),
        options: StoreOptions = StoreOptions()
    ) throws -> ManagedContext {
        let coordinator = StoreCoordinator(model: model)
        try coordinator.addStore(type: type, at: url, options: options)
        return ManagedContext(coordinator: coordinator)
    }

    /// Inserts a deterministic graph of about `size` people from `seed`: every attribute type
    /// with some nils, Player subentities, teams (to-many/to-one, ordered roster, captain),
    /// spouses (one-to-one), clubs (many-to-many), badges, and `All` objects.
    static func populate(_ context: ManagedContext, size: Int, seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var teams: [ManagedObject] = []
        for index in 0..<max(1, size / 10) {
            let team = try context.insert("Team")
            try team.set(index % 7 == 3 ? nil : "Team \(index)", for: "name")
            teams.append(team)
        }
        var clubs: [ManagedObject] = []
        for index in 0..<max(1, size / 20) {
            let club = try context.insert("Club")
            try club.set("Club \(index) ✓", for: "title")
            clubs.append(club)
        }
        var people: [ManagedObject] = []
        for index in 0..<size {
            let person = try context.insert(random.next(10) < 3 ? "Player" : "Person")
            try person.set("P\(index)", for: "name")
            try person.set(random.next(4) == 0 ? nil : Int16(random.next(150)), for: "age")
            try person.set(random.next(3) == 0 ? nil : "p\(index)@example.org", for: "email")
            try person.set(
                random.next(5) == 0
                    ? nil
                    : Date(timeIntervalSinceReferenceDate: Double(random.next(700_000_000))),
                for: "born")
            try person.set(Double(random.next(1000)) / 8, for: "score")
            if person.entity.name == "Player" {
                try person.set(Int32(random.next(99)), for: "number")
            }
            if random.next(5) > 0 {
                try person.setObject(teams[random.next(teams.count)], for: "team")
            }
            for _ in 0..<random.next(3) {
                try person.add(clubs[random.next(clubs.count)], to: "clubs")
            }
            if random.next(4) == 0 {
                let badge = try context.insert("Badge")
                try badge.set("badge \(index)", for: "label")
                try badge.setObject(person, for: "owner")
            }
            people.append(person)
        }
        for pair in stride(from: 0, to: people.count - 1, by: 7) {
            try people[pair].setObject(people[pair + 1], for: "spouse")
        }
        for team in teams {
            let roster = (0..<random.next(5)).map { _ in people[random.next(people.count)] }
            var unique: [ManagedObject] = []
            for person in roster where !unique.contains(where: { $0 === person }) {
                unique.append(person)
            }
            try team.setObjects(unique, for: "roster")
            if random.next(2) == 0 {
                try team.setObject(people[random.next(people.count)], for: "captain")
            }
        }
        for index in 0..<max(1, size / 25) {
            let all = try context.insert("All")
            if index % 4 == 1 { continue }  // every attribute nil
            let values: [(String, any ValueConvertible)] = [
                ("i16", Int16(-7 - index)), ("i32", Int32(1 << 30)), ("i64", Int64.max - 1),
                ("dec", Decimal(string: "12.\(index)5") ?? 0), ("dbl", -2.25e-10),
                ("flt", Float(1.5)), ("str", "héllo \"world\" \(index)\n<&>"),
                ("flag", index % 2 == 0),
                ("when", Date(timeIntervalSinceReferenceDate: 123_456.5 + Double(index))),
                ("bytes", Data([0, 1, 2, UInt8(index % 256)])), ("id", UUID()),
                (
                    "link",
                    URL(string: "https://example.com/a?b=\(index)") ?? URL(fileURLWithPath: "/")
                ),
                ("blob", Data("x\(index)".utf8)),
            ]
            for (key, value) in values { try all.set(value, for: key) }
        }
        try context.save()
    }

    /// A store-independent dump of every object: `Entity/pN` with each stored attribute's value
    /// and each relationship's targets (`Entity/pN`, ordered lists in order, others sorted).
    static func dump(_ context: ManagedContext) throws -> [String: [String: String]] {
        let model = context.coordinator.model
        var result: [String: [String: String]] = [:]
        for entity in model.entities where !entity.isAbstract {
            var request = FetchRequest(entityName: entity.name)
            request.includesSubentities = false
            for object in try context.fetch(request) {
                var fields: [String: String] = [:]
                for attribute in model.allAttributes(of: entity) where !attribute.isTransient {
                    fields[attribute.name] = "\(try object.value(for: attribute.name))"
                }
                for relationship in model.allRelationships(of: entity)
                where !relationship.isTransient {
                    if relationship.isToMany {
                        var names = try object.objects(for: relationship.name).map(name)
                        if !relationship.isOrdered { names.sort() }
                        fields[relationship.name] = names.joined(separator: ",")
                    } else {
                        fields[relationship.name] =
                            try object.object(for: relationship.name).map(name) ?? "nil"
                    }
                }
                result[name(object)] = fields
            }
        }
        return result
    }

    static func name(_ object: ManagedObject) -> String {
        switch object.objectID.key {
        case .permanent(let key): return "\(object.entity.name)/p\(key)"
        case .temporary(let id): return "\(object.entity.name)/t\(id)"
        }
    }
}

/// A small deterministic generator (SplitMix64) so generated graphs and kill moments repeat.
struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// A number in `0..<bound` (0 when `bound` is not positive).
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        value ^= value >> 31
        return bound > 0 ? Int(value % UInt64(bound)) : 0
    }
}
