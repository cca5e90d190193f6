import Foundation
import Testing

@testable import ObjectGraph

/// Grouped and aggregate dictionary fetches, each on a SQLite store (answered in SQL) and an
/// in-memory store (answered by the evaluator), with the values worked out by hand.
@Suite("Aggregates: grouped dictionary fetches")
struct AggregateFetchTests {
    static func model() -> EntityModel {
        EntityModel(entities: [
            Entity(
                "League", attributes: [Attribute("name", type: .string)],
                relationships: [
                    Relationship("teams", destination: "Team", toMany: true, inverse: "league")
                ]),
            Entity(
                "Team", attributes: [Attribute("name", type: .string)],
                relationships: [
                    Relationship("members", destination: "Person", toMany: true, inverse: "team"),
                    Relationship("league", destination: "League", inverse: "teams"),
                ]),
            Entity(
                "Person",
                attributes: [
                    Attribute("name", type: .string), Attribute("score", type: .integer64),
                    Attribute("rating", type: .double), Attribute("price", type: .decimal),
                    Attribute("born", type: .date), Attribute("active", type: .boolean),
                ],
                relationships: [Relationship("team", destination: "Team", inverse: "members")]),
        ])
    }

    static func day(_ n: Double) -> Date { Date(timeIntervalSinceReferenceDate: n * 86_400) }

    /// A saved league of people: (name, score, rating, price, born day, active, team).
    struct Fixture {
        let context: ManagedContext
        let coordinator: StoreCoordinator
        var teams: [String: ObjectID] = [:]
        let folder: URL
    }

    static func fixture(_ type: StoreType) throws -> Fixture {
        let folder = try TestSupport.makeTemporaryFolder()
        let coordinator = StoreCoordinator(model: model())
        if type == .sqlite {
            try coordinator.addStore(type: .sqlite, at: folder.appendingPathComponent("A.sqlite"))
        } else {
            try coordinator.addStore(type: type)
        }
        let context = ManagedContext(coordinator: coordinator)
        let north = try context.insert("League")
        try north.set("North", for: "name")
        let south = try context.insert("League")
        try south.set("South", for: "name")
        var teams: [String: ManagedObject] = [:]
        for (name, league) in [("Red", north), ("Blue", north), ("Green", south), ("Gray", nil)] {
            let team = try context.insert("Team")
            try team.set(name, for: "name")
            try team.setObject(league, for: "league")
            teams[name] = team
        }
        let people: [(String, Int?, Double?, Decimal?, Double?, Bool?, String?)] = [
            ("Ann", 10, 1.5, 2.25, 0, true, "Red"), ("Bob", 20, 2.5, 1.5, 10, false, "Red"),
            ("Cid", 5, nil, 3, 5, true, "Blue"), ("Dee", nil, 4, nil, nil, false, "Blue"),
            ("Eve", 7, 0.5, 0.75, -3, true, nil), ("Fay", 30, 3, 5, 20, true, "Green"),
            ("Gus", 1, 1, 1, 1, nil, "Gray"),
        ]
        for (name, score, rating, price, born, active, team) in people {
            let person = try context.insert("Person")
            try person.set(name, for: "name")
            try person.set(score, for: "score")
            try person.set(rating, for: "rating")
            try person.set(price, for: "price")
            try person.set(born.map(day), for: "born")
            try person.set(active, for: "active")
            try person.setObject(team.flatMap { teams[$0] }, for: "team")
            try context.save()  // one at a time: keys in this order
        }
        return Fixture(
            context: context, coordinator: coordinator,
            teams: teams.mapValues(\.objectID), folder: folder)
    }

    static let types: [StoreType] = [.sqlite, .inMemory]

    @Test(
        "count, sum, average, min and max over every row, with the evaluator's types",
        arguments: types)
    func functions(_ type: StoreType) throws {
        let fixture = try Self.fixture(type)
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        var request = FetchRequest(entityName: "Person")
        request.propertiesToFetch = [
            .aggregate(.count, of: "score", as: "count"), .aggregate(.sum, of: "score", as: "sum"),
            .aggregate(.average, of: "score", as: "mean"), .aggregate(.min, of: "score", as: "low"),
            .aggregate(.max, of: "score", as: "high"),
            .aggregate(.sum, of: "rating", as: "ratings"),
            .aggregate(.average, of: "rating", as: "meanRating"),
            .aggregate(.min, of: "name", as: "first"), .aggregate(.max, of: "name", as: "last"),
            .aggregate(.min, of: "born", as: "earliest"),
            .aggregate(.max, of: "born", as: "latest"),
            .aggregate(.min, of: "price", as: "cheapest"),
            .aggregate(.sum, of: "price", as: "prices"),
            .expression(.function("count:", [.keyPath(PredicateKeyPath("name"))]), as: "names"),
            .expression(.function("max:", [.keyPath(PredicateKeyPath("team.name"))]), as: "team"),
        ]
        let rows = try fixture.context.fetchDictionaries(request)
        var expected: [String: Value] = [:]
        expected["count"] = .integer(6)
        expected["sum"] = .integer(73)
        expected["mean"] = .double(73.0 / 6)
        expected["low"] = .integer(1)
        expected["high"] = .integer(30)
        expected["ratings"] = .double(12.5)
        expected["meanRating"] = .double(12.5 / 6)
        expected["first"] = .string("Ann")
        expected["last"] = .string("Gus")
        expected["earliest"] = .date(Self.day(-3))
        expected["latest"] = .date(Self.day(20))
        expected["cheapest"] = .decimal(Decimal(0.75))
        expected["prices"] = .double(13.5)
        expected["names"] = .integer(7)
        expected["team"] = .string("Red")
        #expect(rows == [expected])
    }

    @Test("aggregates of no rows: count 0, sum 0, average and min nil", arguments: types)
    func empty(_ type: StoreType) throws {
        let fixture = try Self.fixture(type)
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        var request = FetchRequest(entityName: "Person")
        request.predicate = try Predicate(format: "score > 1000")
        request.propertiesToFetch = [
            .aggregate(.count, of: "score", as: "count"), .aggregate(.sum, of: "score", as: "sum"),
            .aggregate(.sum, of: "rating", as: "ratings"),
            .aggregate(.average, of: "score", as: "mean"), .aggregate(.min, of: "name", as: "low"),
        ]
        #expect(
            try fixture.context.fetchDictionaries(request) == [
                [
                    "count": .integer(0), "sum": .integer(0), "ratings": .integer(0),
                    "mean": .null, "low": .null,
                ]
            ])
        request.propertiesToGroupBy = ["team.name"]
        request.propertiesToFetch = [.key("team.name"), .aggregate(.sum, of: "score", as: "sum")]
        #expect(try fixture.context.fetchDictionaries(request).isEmpty)
    }

    @Test(
        "grouped by a to-one key path: groups in the order of their first row, nil a group",
        arguments: types)
    func groupByOne(_ type: StoreType) throws {
        let fixture = try Self.fixture(type)
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        var request = FetchRequest(entityName: "Person")
        request.propertiesToFetch = [
            .key("team.name"), .aggregate(.count, of: "name", as: "people"),
            .aggregate(.sum, of: "score", as: "total"),
        ]
        request.propertiesToGroupBy = ["team.name"]
        let rows = try fixture.context.fetchDictionaries(request)
        #expect(
            rows == [
                ["team.name": "Red", "people": .integer(2), "total": .integer(30)],
                ["team.name": "Blue", "people": .integer(2), "total": .integer(5)],
                ["team.name": .null, "people": .integer(1), "total": .integer(7)],
                ["team.name": "Green", "people": .integer(1), "total": .integer(30)],
                ["team.name": "Gray", "people": .integer(1), "total": .integer(1)],
            ])
    }

    @Test("grouped by two key paths, one through two to-one relationships", arguments: types)
    func groupByTwo(_ type: StoreType) throws {
        let fixture = try Self.fixture(type)
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        var request = FetchRequest(entityName: "Person")
        request.propertiesToFetch = [
            .key("team.league.name"), .key("active"), .aggregate(.count, of: "name", as: "n"),
        ]
        request.propertiesToGroupBy = ["team.league.name", "active"]
        let rows = try fixture.context.fetchDictionaries(request)
        #expect(
            rows == [
                ["team.league.name": "North", "active": true, "n": .integer(2)],
                ["team.league.name": "North", "active": false, "n": .integer(2)],
                ["team.league.name": .null, "active": true, "n": .integer(1)],
                ["team.league.name": "South", "active": true, "n": .integer(1)],
                ["team.league.name": .null, "active": .null, "n": .integer(1)],
            ])
    }

    @Test(
        "grouped by a relationship, sorted by an aggregate: ties keep first-row order",
        arguments: types)
    func sortByAggregate(_ type: StoreType) throws {
        let fixture = try Self.fixture(type)
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        var request = FetchRequest(entityName: "Person")
        request.propertiesToFetch = [.key("team"), .aggregate(.count, of: "name", as: "n")]
        request.propertiesToGroupBy = ["team"]
        request.sortDescriptors = [SortDescriptor("n", ascending: false)]
        let rows = try fixture.context.fetchDictionaries(request)
        let teams = fixture.teams
        #expect(
            rows.map { $0["team"] } == [
                teams["Red"].map(Value.objectID), teams["Blue"].map(Value.objectID), .null,
                teams["Green"].map(Value.objectID), teams["Gray"].map(Value.objectID),
            ])
        #expect(rows.map { $0["n"] } == [2, 2, 1, 1, 1].map { Value.integer($0) })

        var means = FetchRequest(entityName: "Person")
        means.propertiesToFetch = [
            .key("team.name"), .aggregate(.average, of: "rating", as: "mean"),
        ]
        means.propertiesToGroupBy = ["team.name"]
        means.sortDescriptors = [SortDescriptor("mean", ascending: false)]
        #expect(
            try fixture.context.fetchDictionaries(means).map { $0["team.name"] } == [
                "Blue", "Green", "Red", "Gray", .null,
            ])
        means.fetchOffset = 1
        means.fetchLimit = 2
        #expect(
            try fixture.context.fetchDictionaries(means) == [
                ["team.name": "Green", "mean": .double(3)],
                ["team.name": "Red", "mean": .double(2)],
            ])
    }

    @Test("a having-predicate names the columns as variables or keys", arguments: types)
    func having(_ type: StoreType) throws {
        let fixture = try Self.fixture(type)
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        var request = FetchRequest(entityName: "Person")
        request.propertiesToFetch = [.key("team.name"), .aggregate(.sum, of: "score", as: "total")]
        request.propertiesToGroupBy = ["team.name"]
        request.havingPredicate = try Predicate(format: "$total >= 10")
        #expect(
            try fixture.context.fetchDictionaries(request) == [
                ["team.name": "Red", "total": .integer(30)],
                ["team.name": "Green", "total": .integer(30)],
            ])
        request.havingPredicate = try Predicate(format: "total < 10 AND team.name != nil")
        request.sortDescriptors = [SortDescriptor("team.name")]
        #expect(
            try fixture.context.fetchDictionaries(request) == [
                ["team.name": "Blue", "total": .integer(5)],
                ["team.name": "Gray", "total": .integer(1)],
            ])
    }

    @Test("a SQLite store answers grouped fetches in SQL; what SQL cannot say, in memory")
    func answeredInSQL() throws {
        let fixture = try Self.fixture(.sqlite)
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let context = fixture.context
        func storeAnswer(_ request: FetchRequest<ManagedObject>) throws -> [[String: Value]]? {
            let entity = try context.fetchEntity(request)
            let columns = try context.fetchedColumns(request, entity: entity)
            guard
                let query = try context.storeAggregateQuery(
                    request, entity: entity, columns: columns)
            else { return nil }
            return try fixture.coordinator.aggregate(query, in: nil)
        }
        var request = FetchRequest(entityName: "Person")
        request.predicate = try Predicate(format: "team.league.name == 'North'")
        request.propertiesToFetch = [
            .key("team.name"), .aggregate(.sum, of: "score", as: "total"),
            .aggregate(.average, of: "score", as: "mean"),
        ]
        request.propertiesToGroupBy = ["team.name"]
        request.havingPredicate = try Predicate(format: "$mean > 1")
        request.sortDescriptors = [SortDescriptor("total")]
        let inSQL = try storeAnswer(request)
        #expect(
            inSQL == [
                ["team.name": "Blue", "total": .integer(5), "mean": .double(5)],
                ["team.name": "Red", "total": .integer(30), "mean": .double(15)],
            ])
        #expect(try context.fetchDictionaries(request) == inSQL)
        // The evaluator adds decimals as doubles: left to it, with the same answer.
        request.propertiesToFetch = [.key("team.name"), .aggregate(.sum, of: "price", as: "total")]
        request.havingPredicate = nil
        #expect(try storeAnswer(request) == nil)
        #expect(
            try context.fetchDictionaries(request) == [
                ["team.name": "Blue", "total": .double(3)],
                ["team.name": "Red", "total": .double(3.75)],
            ])
    }

    @Test("dictionary fetches read the store: unsaved changes are not in them", arguments: types)
    func unsavedChanges(_ type: StoreType) throws {
        let fixture = try Self.fixture(type)
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let extra = try fixture.context.insert("Person")
        try extra.set(100, for: "score")
        var request = FetchRequest(entityName: "Person")
        request.propertiesToFetch = [.aggregate(.sum, of: "score", as: "sum")]
        #expect(try fixture.context.fetchDictionaries(request) == [["sum": .integer(73)]])
    }

    @Test("count(for:) through a to-many relationship counts each object once", arguments: types)
    func countThroughToMany(_ type: StoreType) throws {
        let fixture = try Self.fixture(type)
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let request = FetchRequest(
            entityName: "Team", predicate: try Predicate(format: "ANY members.score > 6"))
        #expect(try fixture.context.count(for: request) == 2)
        #expect(try fixture.context.fetch(request).count == 2)
        let leagues = FetchRequest(
            entityName: "League", predicate: try Predicate(format: "ANY teams.members.score > 0"))
        #expect(try fixture.context.count(for: leagues) == 2)
    }
}
