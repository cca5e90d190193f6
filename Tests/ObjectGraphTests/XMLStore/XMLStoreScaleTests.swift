import Foundation
import Testing

@testable import ObjectGraph

/// A large XML store loads with the streaming reader and saves whole. The object count is
/// `OBJECTGRAPH_XML_OBJECTS` (default 20,000; measure 100,000 in a release build).
@Suite("XML store at scale")
struct XMLStoreScaleTests {
    static let objectCount =
        ProcessInfo.processInfo.environment["OBJECTGRAPH_XML_OBJECTS"].flatMap { Int($0) }
        ?? 20_000

    /// `people` people in teams of 100 (names `P<n>`, ages, dates, scores), as store rows.
    static func league(people: Int, schema: ModelSchema, uuid: String) throws -> [StoreRow] {
        let personEntity = try schema.requireEntity(named: "Person")
        let teamEntity = try schema.requireEntity(named: "Team")
        let teams = max(1, people / 100)
        func id(_ entity: EntitySchema, _ key: Int) -> ObjectID {
            ObjectID(entityName: entity.name, storeIdentifier: uuid, key: .permanent(Int64(key)))
        }
        var rows: [StoreRow] = []
        rows.reserveCapacity(people + teams)
        var members: [[ObjectID]] = Array(repeating: [], count: teams)
        for index in 0..<people {
            let team = index % teams
            let person = id(personEntity, teams + 1 + index)
            members[team].append(person)
            let values: [StoredValue] = personEntity.properties.map { property in
                switch property.name {
                case "name": return .value(.string("P\(index)"))
                case "age": return .value(.integer(Int64(index % 100)))
                case "email": return .value(.string("p\(index)@example.com"))
                case "born":
                    return .value(
                        .date(Date(timeIntervalSinceReferenceDate: Double(index) * 3600.5)))
                case "score": return .value(.double(Double(index) / 7))
                case "team": return .toOne(id(teamEntity, team + 1))
                case "spouse": return .toOne(nil)
                case "clubs", "badges": return .toMany([])
                default: return .value(.null)
                }
            }
            rows.append(
                StoreRow(id: person, entityIndex: personEntity.index, version: 1, values: values))
        }
        for team in 0..<teams {
            let values: [StoredValue] = teamEntity.properties.map { property in
                switch property.name {
                case "name": return .value(.string("T\(team)"))
                case "members": return .toMany(members[team])
                case "roster": return .toMany([])
                case "captain": return .toOne(members[team].first)
                default: return .value(.null)
                }
            }
            rows.append(
                StoreRow(
                    id: id(teamEntity, team + 1), entityIndex: teamEntity.index, version: 1,
                    values: values))
        }
        return rows
    }

    @Test("a large store loads, answers fetches and saves")
    func largeStore() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("Large.xml")
        let model = TestModels.league()
        let schema = ModelSchema(model: model)
        var metadata = StoreMetadata(model: model)
        metadata.storeType = "XML"
        let rows = try Self.league(
            people: Self.objectCount, schema: schema, uuid: metadata.storeUUID)
        let clock = ContinuousClock()
        var data = Data()
        let write = try clock.measure {
            data = try XMLStoreFormat().write(
                AtomicStoreContents(metadata: metadata, rows: rows, nextKeys: [:]),
                schema: schema)
        }
        try data.write(to: url)
        var readRows = 0
        let read = try clock.measure {
            readRows = try XMLStoreFormat().read(data, path: url.path, schema: schema).rows.count
        }
        #expect(readRows == rows.count)
        var context: ManagedContext?
        let open = try clock.measure {
            let coordinator = StoreCoordinator(model: model)
            try coordinator.addStore(type: .xml, at: url)
            context = ManagedContext(coordinator: coordinator)
        }
        let loaded = try #require(context)
        #expect(try loaded.count(for: FetchRequest(entityName: "Person")) == Self.objectCount)
        var request = FetchRequest(entityName: "Person")
        request.predicate = try Predicate(format: "name == 'P250'")
        let person = try #require(try loaded.fetch(request).first)
        let team = try #require(try person.object(for: "team"))
        #expect(team["name"] as String? == "T\(250 % max(1, Self.objectCount / 100))")
        #expect(try team.objects(for: "members").count == 100)
        try person.set("Renamed", for: "name")
        let save = try clock.measure { try loaded.save() }
        print(
            "XML store, \(Self.objectCount) people: format write \(write), format read \(read), "
                + "open (file + read + index) \(open), save \(save), file \(data.count) bytes")
        let again = try Data(contentsOf: url)
        #expect(again.count > data.count / 2)
        let reread = try XMLStoreFormat().read(again, path: url.path, schema: schema)
        #expect(reread.rows.count == rows.count)
    }
}
