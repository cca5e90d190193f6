import Foundation
import SQLiteDatabase

@testable import ObjectGraph

private typealias Predicate = ObjectGraph.Predicate
private typealias Expression = ObjectGraph.Expression
private typealias SortDescriptor = ObjectGraph.SortDescriptor

/// A deterministic random number generator (SplitMix64), so generated data and predicates are
/// the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }

    mutating func pick<T>(_ items: [T]) -> T {
        items[Int.random(in: 0..<items.count, using: &self)]
    }
}

/// One object for the evaluator: attribute values as the store reads them back, relationships
/// as references.
final class DifferentialObject: KeyValueReadable {
    let entity: String
    let entityNumber: Int
    let primaryKey: Int64
    var values: [String: Value] = [:]
    var toOne: [String: DifferentialObject] = [:]
    var toMany: [String: [DifferentialObject]] = [:]
    let keys: Set<String>

    init(entity: String, entityNumber: Int, primaryKey: Int64, keys: Set<String>) {
        self.entity = entity
        self.entityNumber = entityNumber
        self.primaryKey = primaryKey
        self.keys = keys
    }

    var objectID: ObjectID {
        ObjectID(entityName: entity, storeIdentifier: "STORE", key: .permanent(primaryKey))
    }

    var predicateObjectID: ObjectID? { objectID }

    func predicateValue(forKey key: String) throws -> EvaluationValue {
        guard keys.contains(key) else {
            throw PredicateEvaluationError.unknownKey(key, in: entity)
        }
        if let many = toMany[key] { return .collection(many.map { .object($0) }) }
        if let one = toOne[key] { return .object(one) }
        return .value(values[key] ?? .null)
    }
}

/// The differential test's model and data: every attribute type, nils, an abstract parent with
/// two subentities, to-one, to-many, ordered, reflexive and many-to-many relationships.
struct DifferentialDataSet {
    let model: EntityModel
    let layout: StoreLayout
    /// Every object by entity root, in `Z_PK` order per table.
    var objects: [DifferentialObject] = []
    var strings: [String] = []
    var dates: [Date] = []
    var uuids: [UUID] = []
    var blobs: [Data] = []
    var urls: [URL] = []

    static let itemAttributes: [(String, AttributeType)] = [
        ("name", .string), ("small", .integer16), ("count", .integer32), ("big", .integer64),
        ("amount", .double), ("ratio", .float), ("price", .decimal), ("flag", .boolean),
        ("when", .date), ("uuid", .uuid), ("blob", .binary), ("link", .uri),
    ]

    static func makeModel() -> EntityModel {
        let item = Entity(
            "Item", isAbstract: true,
            attributes: itemAttributes.map { Attribute($0.0, type: $0.1) },
            relationships: [
                Relationship("team", destination: "Team", inverse: "members"),
                Relationship(
                    "tags", destination: "Tag", toMany: true, inverse: "items", isOrdered: true),
                Relationship("buddy", destination: "Item"),
                Relationship("parent", destination: "Item", inverse: "children"),
                Relationship("children", destination: "Item", toMany: true, inverse: "parent"),
            ])
        let gadget = Entity(
            "Gadget", parent: "Item",
            attributes: [Attribute("power", type: .integer32), Attribute("label", type: .string)])
        let widget = Entity(
            "Widget", parent: "Item", attributes: [Attribute("weight", type: .double)])
        let team = Entity(
            "Team",
            attributes: [Attribute("name", type: .string), Attribute("rank", type: .integer32)],
            relationships: [
                Relationship(
                    "members", destination: "Item", toMany: true, inverse: "team", isOrdered: true),
                Relationship("league", destination: "League", inverse: "teams"),
            ])
        let league = Entity(
            "League", attributes: [Attribute("name", type: .string)],
            relationships: [
                Relationship("teams", destination: "Team", toMany: true, inverse: "league"),
                Relationship("featured", destination: "Item", toMany: true),
            ])
        let tag = Entity(
            "Tag",
            attributes: [Attribute("name", type: .string), Attribute("score", type: .double)],
            relationships: [
                Relationship("items", destination: "Item", toMany: true, inverse: "tags")
            ])
        return EntityModel(entities: [item, gadget, widget, team, league, tag])
    }

    static let stringPool: [String] = [
        "alpha", "Alpha", "ALPHA", "beta", "Bêta", "café", "Cafe\u{301}", "CAFÉ", "naïve",
        "100% sure", "under_score", "star*name", "what?", "it's", "say \"hi\"", "back\\slash",
        "日本語", "emoji 😀", "Ωmega", "omega", "x", "", " spaced ", "zeta", "Zürich", "zurich",
        "file10", "file2", "File1", "a%b_c", "%", "_", "*", "?", "straße", "STRASSE",
        "K", "\u{212A}", "a;b", "a\u{037E}b", "`x", "\u{1FEF}x", "Jo", "Joe", "J\u{301}o",
        "~tilde", "a\u{7F}", "Kelvin", "\u{212A}elvin",
        // Joiners after an ASCII letter, controls, canonical equivalents, NFC and not, scripts.
        "Jo\u{308}rg", "Jörg", "Ja\u{93F}", "Jo\u{200D}x", "x\u{FE0F}", "👍🏽", "👨‍👩‍👧", "a\r\nb",
        "\u{1100}\u{1161}", "\u{AC00}", "Жук", "e\u{1F3FD}", "J\u{80}\u{301}", "Ω\u{301}",
    ]

    init(seed: UInt64) throws {
        model = Self.makeModel()
        layout = try StoreLayout(model: model)
        var random = SeededGenerator(seed: seed)
        strings = Self.stringPool
        dates = (0..<8).map { _ in
            Date(
                timeIntervalSinceReferenceDate: Double(Int.random(in: -400...400, using: &random))
                    * 86_400.5)
        }
        uuids = (0..<5).map { index in
            UUID(
                uuid: (
                    UInt8(index * 40), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, UInt8(index)
                ))
        }
        blobs = [Data(), Data([0]), Data([1, 2, 3]), Data([1, 2]), Data([255, 0, 7])]
        urls = [
            "https://example.com/a", "https://example.com/b?q=1", "file:///tmp/x", "mailto:a@b.c",
        ]
        .compactMap { URL(string: $0) }
        try build(&random)
    }

    private func keys(of entity: String) -> Set<String> {
        guard let found = model.entity(named: entity) else { return [] }
        return Set(
            model.allAttributes(of: found).map(\.name)
                + model.allRelationships(of: found).map(\.name))
    }

    private func number(_ entity: String) -> Int {
        layout.entity(named: entity)?.entityNumber ?? 0
    }

    private mutating func build(_ random: inout SeededGenerator) throws {
        var leagues: [DifferentialObject] = []
        for pk in 1...3 {
            let league = DifferentialObject(
                entity: "League", entityNumber: number("League"), primaryKey: Int64(pk),
                keys: keys(of: "League"))
            league.values["name"] = pk == 3 ? .null : .string(random.pick(strings))
            league.toMany["teams"] = []
            leagues.append(league)
        }
        var teams: [DifferentialObject] = []
        for pk in 1...12 {
            let team = DifferentialObject(
                entity: "Team", entityNumber: number("Team"), primaryKey: Int64(pk),
                keys: keys(of: "Team"))
            team.values["name"] = random.chance(0.2) ? .null : .string(random.pick(strings))
            team.values["rank"] =
                random.chance(0.2) ? .null : .integer(Int64.random(in: -3...5, using: &random))
            team.toMany["members"] = []
            if random.chance(0.8) {
                let league = random.pick(leagues)
                team.toOne["league"] = league
                league.toMany["teams", default: []].append(team)
            }
            teams.append(team)
        }
        var tags: [DifferentialObject] = []
        for pk in 1...15 {
            let tag = DifferentialObject(
                entity: "Tag", entityNumber: number("Tag"), primaryKey: Int64(pk),
                keys: keys(of: "Tag"))
            tag.values["name"] = random.chance(0.15) ? .null : .string(random.pick(strings))
            tag.values["score"] =
                random.chance(0.2)
                ? .null : .double(Double(Int.random(in: -8...8, using: &random)) / 4)
            tag.toMany["items"] = []
            tags.append(tag)
        }
        var items: [DifferentialObject] = []
        for pk in 1...170 {
            let entity = random.chance(0.5) ? "Gadget" : "Widget"
            let item = DifferentialObject(
                entity: entity, entityNumber: number(entity), primaryKey: Int64(pk),
                keys: keys(of: entity))
            for (name, type) in Self.itemAttributes {
                item.values[name] = random.chance(0.25) ? .null : try value(type, &random)
            }
            if pk <= strings.count {
                // Every string of the pool is some item's name.
                item.values["name"] = .string(strings[pk - 1])
            }
            if entity == "Gadget" {
                item.values["power"] =
                    random.chance(0.3) ? .null : .integer(Int64.random(in: -5...5, using: &random))
                item.values["label"] = random.chance(0.3) ? .null : .string(random.pick(strings))
            } else {
                item.values["weight"] =
                    random.chance(0.3)
                    ? .null : .double(Double(Int.random(in: -20...20, using: &random)) / 8)
            }
            item.toMany["tags"] = []
            item.toMany["children"] = []
            if random.chance(0.75) {
                let team = random.pick(teams)
                item.toOne["team"] = team
                team.toMany["members", default: []].append(item)
            }
            if !items.isEmpty, random.chance(0.5) {
                let parent = random.pick(items)
                item.toOne["parent"] = parent
                parent.toMany["children", default: []].append(item)
            }
            for tag in tags where random.chance(0.12) {
                item.toMany["tags", default: []].append(tag)
                tag.toMany["items", default: []].append(item)
            }
            items.append(item)
        }
        for item in items where random.chance(0.4) {
            item.toOne["buddy"] = random.pick(items)
        }
        for league in leagues {
            league.toMany["featured"] = items.filter { _ in random.chance(0.1) }
        }
        objects = leagues + teams + tags + items
    }

    /// A random value of `type`, read back as the store would read it.
    private func value(_ type: AttributeType, _ random: inout SeededGenerator) throws -> Value {
        let raw: Value
        switch type {
        case .string: raw = .string(random.pick(strings))
        case .integer16: raw = .integer(Int64.random(in: -10...10, using: &random))
        case .integer32: raw = .integer(Int64.random(in: -1000...1000, using: &random) / 50)
        case .integer64:
            raw = .integer(
                random.pick([
                    0, 1, -1, 42, 9_007_199_254_740_993, -9_007_199_254_740_993, 1 << 40,
                    Int64.random(in: -100...100, using: &random),
                ]))
        case .double:
            raw = .double(random.pick([0, -0.5, 0.25, 1e15, -3.75, 2, 1.5, 100.125]))
        case .float: raw = .double(Double(Int.random(in: -16...16, using: &random)) / 4)
        case .decimal:
            raw = .decimal(Decimal(Double(Int.random(in: -40...40, using: &random)) / 8))
        case .boolean: raw = .bool(random.chance(0.5))
        case .date: raw = .date(random.pick(dates))
        case .uuid: raw = .uuid(random.pick(uuids))
        case .binary: raw = .data(random.pick(blobs))
        case .uri: raw = .uri(random.pick(urls))
        default: raw = .null
        }
        return try ValueCoding.value(
            from: ValueCoding.storageValue(for: raw, type: type), type: type)
    }

    /// The foreign key columns of `object`'s to-one relationships with their values: the
    /// target's key, and its entity number where the layout keeps one.
    func toOneColumns(of object: DifferentialObject, in entity: EntityLayout) -> [(String, Int64)] {
        var columns: [(String, Int64)] = []
        for (name, target) in object.toOne {
            guard case .foreignKey(_, let column, let entityColumn)? = entity.relationships[name]
            else { continue }
            columns.append((column, target.primaryKey))
            if let entityColumn { columns.append((entityColumn, Int64(target.entityNumber))) }
        }
        return columns
    }

    // MARK: - SQLite

    /// Creates the schema and inserts every object with hand-written INSERTs.
    func populate(_ db: Database) throws {
        for sql in layout.createStatements() { try db.execute(sql: sql) }
        for object in objects {
            guard let entity = layout.entity(named: object.entity),
                let declared = model.entity(named: object.entity)
            else { continue }
            var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
            var arguments: [DatabaseValue] = [
                .integer(object.primaryKey), .integer(Int64(object.entityNumber)), .integer(1),
            ]
            for attribute in model.allAttributes(of: declared) {
                guard let column = entity.attributeColumns[attribute.name] else { continue }
                let stored = try ValueCoding.storageValue(
                    for: object.values[attribute.name] ?? .null, type: attribute.type)
                columns.append(column.name)
                arguments.append(stored)
            }
            for (column, number) in toOneColumns(of: object, in: entity) {
                columns.append(column)
                arguments.append(.integer(number))
            }
            let sql =
                "INSERT INTO " + quoteIdentifier(entity.tableName) + " ("
                + columns.map(quoteIdentifier).joined(separator: ", ") + ") VALUES ("
                + columns.map { _ in "?" }.joined(separator: ", ") + ")"
            try db.execute(sql: sql, arguments: StatementArguments(positional: arguments))
        }
        for object in objects {
            guard let entity = layout.entity(named: object.entity) else { continue }
            // Order keys of the ordered to-many relationships whose inverse is this object's
            // to-one, and join-table rows of many-to-many relationships it owns.
            for (name, targets) in object.toMany {
                switch entity.relationships[name] {
                case .inverseForeignKey(let table, let column, _, let orderColumn?)?:
                    for (position, target) in targets.enumerated() {
                        try db.execute(
                            sql: "UPDATE " + quoteIdentifier(table) + " SET "
                                + quoteIdentifier(orderColumn) + " = ? WHERE \"Z_PK\" = ? AND "
                                + quoteIdentifier(column) + " = ?",
                            arguments: [position + 1, target.primaryKey, object.primaryKey])
                    }
                case .joinTable(let table, let owner, let destination, _)?
                where object.entity != "Tag":
                    for target in targets {
                        try db.execute(
                            sql: "INSERT INTO " + quoteIdentifier(table) + " ("
                                + quoteIdentifier(owner) + ", " + quoteIdentifier(destination)
                                + ") VALUES (?, ?)",
                            arguments: [object.primaryKey, target.primaryKey])
                    }
                default:
                    break
                }
            }
        }
    }
}
