import Foundation
import Testing

@testable import ObjectGraph

/// Batch deletes on PostgreSQL that reach no cascade or deny rule run as one statement
/// (``PostgresBatchDeleteStatement``): what they leave (rows, relationships both ways,
/// versions) and report is what SQLite's store leaves and reports, read through fresh
/// contexts.
@Suite("PostgreSQL batch deletes in one statement")
struct PostgresBatchDeleteTests {
    /// Members (and their subentity Captain) in teams and clubs; a self-inverse to-one and
    /// to-many, a to-one without an inverse between members; a team's ordered roster and its
    /// star without inverses. Every rule nullifies.
    static func model() -> EntityModel {
        var member = Entity("Member")
        member.attributes = [Attribute("name", type: .string)]
        member.relationships = [
            Relationship("team", destination: "Team", inverse: "members"),
            Relationship("partner", destination: "Member", inverse: "partner"),
            Relationship("clubs", destination: "Club", toMany: true, inverse: "members"),
            Relationship("friends", destination: "Member", toMany: true, inverse: "friends"),
            Relationship("mentor", destination: "Member"),
        ]
        var captain = Entity("Captain", parent: "Member")
        captain.attributes = [Attribute("rank", type: .integer32)]
        var team = Entity("Team")
        team.attributes = [Attribute("name", type: .string)]
        team.relationships = [
            Relationship("members", destination: "Member", toMany: true, inverse: "team"),
            Relationship("roster", destination: "Member", toMany: true, isOrdered: true),
            Relationship("star", destination: "Member"),
        ]
        var club = Entity("Club")
        club.attributes = [Attribute("name", type: .string)]
        club.relationships = [
            Relationship("members", destination: "Member", toMany: true, inverse: "clubs")
        ]
        return EntityModel(entities: [member, captain, team, club])
    }

    /// The relationships each entity's snapshot lists: (name, to-many).
    static let relationships: [String: [(String, Bool)]] = [
        "Member": [
            ("team", false), ("partner", false), ("clubs", true), ("friends", true),
            ("mentor", false),
        ],
        "Team": [("members", true), ("roster", true), ("star", false)],
        "Club": [("members", true)],
    ]

    /// A seeded store of `kind`.
    final class Store {
        let folder: URL
        let coordinator = StoreCoordinator(model: PostgresBatchDeleteTests.model())
        private var readers: [ManagedContext] = []

        init(_ kind: BatchStoreKind, options: StoreOptions = StoreOptions()) throws {
            folder = try TestSupport.makeTemporaryFolder()
            _ = try coordinator.addStore(
                type: kind.type, at: try kind.url(in: folder, name: "onestatement"),
                options: options)
            let context = ManagedContext(coordinator: coordinator)
            func make(_ entity: String, _ name: String) throws -> ManagedObject {
                let object = try context.insert(entity)
                try object.set(name, for: "name")
                return object
            }
            let (red, blue) = (try make("Team", "red"), try make("Team", "blue"))
            let (chess, go) = (try make("Club", "chess"), try make("Club", "go"))
            let ann = try make("Captain", "ann")
            let (bob, cat) = (try make("Member", "bob"), try make("Member", "cat"))
            let (dan, eve) = (try make("Member", "dan"), try make("Member", "eve"))
            try red.setObjects([ann, bob], for: "members")
            try blue.setObjects([cat, dan], for: "members")
            try ann.setObject(cat, for: "partner")
            try bob.setObject(eve, for: "partner")
            try chess.setObjects([ann, cat], for: "members")
            try go.setObjects([bob, dan, eve], for: "members")
            try ann.setObjects([dan], for: "friends")
            try bob.setObjects([cat], for: "friends")
            try cat.setObject(ann, for: "mentor")
            try dan.setObject(bob, for: "mentor")
            try eve.setObject(dan, for: "mentor")
            try red.setObjects([bob, ann, cat], for: "roster")
            try blue.setObjects([dan], for: "roster")
            try red.setObject(cat, for: "star")
            try blue.setObject(ann, for: "star")
            try context.save()
        }

        deinit { TestSupport.removeTemporaryFolder(folder) }

        /// A new context reading the store as it is now (kept alive with the store).
        func fresh() -> ManagedContext {
            let context = ManagedContext(coordinator: coordinator)
            readers.append(context)
            return context
        }

        /// Every object as a line: entity, name, version and related names, sorted.
        func snapshot() throws -> [String] {
            let context = fresh()
            var lines: [String] = []
            for entity in ["Member", "Team", "Club"] {
                for object in try context.fetch(FetchRequest<ManagedObject>(entityName: entity)) {
                    var line = "\(object.entity.name) \(try name(of: object))"
                    let row = try coordinator.rows(for: [object.objectID], in: nil)
                    line += " v\(row[object.objectID]?.version ?? -1)"
                    for (key, toMany) in PostgresBatchDeleteTests.relationships[entity] ?? [] {
                        let related =
                            toMany
                            ? try object.objects(for: key).map(name(of:))
                            : try object.object(for: key).map { [try name(of: $0)] } ?? []
                        line +=
                            " \(key)="
                            + (key == "roster" ? related : related.sorted())
                            .joined(separator: ",")
                    }
                    lines.append(line)
                }
            }
            return lines.sorted()
        }

        /// The names of the objects `ids` (existing ones), sorted.
        func names(_ ids: [ObjectID]) throws -> [String] {
            let context = fresh()
            return try ids.map { try name(of: try context.existingObject(with: $0)) }.sorted()
        }

        private func name(of object: ManagedObject) throws -> String {
            if case .string(let text) = try object.value(for: "name") { return text }
            return "?"
        }
    }

    /// What a delete reported: its answer's size, deleted per entity, updated names.
    static func report(_ result: BatchResult, _ store: Store) throws -> String {
        let deleted = (result.changesByEntity[.deletedObjects] ?? [:]).mapValues(\.count)
            .sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }
        let answer: String
        switch result.result {
        case .status(let status): answer = "status \(status)"
        case .count(let count): answer = "count \(count)"
        case .objectIDs(let ids): answer = "ids \(ids.count)"
        }
        return answer + " deleted " + deleted.joined(separator: ",") + " updated "
            + (try store.names(result.changes[.updatedObjects] ?? [])).joined(separator: ",")
    }

    /// The requests the differential test runs, in order.
    static func requests() throws -> [BatchDeleteRequest] {
        var byTeam = BatchDeleteRequest(
            entityName: "Member", predicate: try Predicate(format: "team.name == 'red'"))
        byTeam.resultType = .objectIDs
        var team = BatchDeleteRequest(
            entityName: "Team", predicate: try Predicate(format: "name == 'blue'"))
        team.resultType = .count
        // Evaluated in memory: the keys are chosen by the evaluator, then bound.
        var inMemory = BatchDeleteRequest(
            entityName: "Member", predicate: try Predicate(format: "name.uppercaseString == 'DAN'"))
        inMemory.resultType = .count
        var clubs = BatchDeleteRequest(entityName: "Club")
        clubs.resultType = .statusOnly
        return [byTeam, team, inMemory, clubs]
    }

    @Test("each delete leaves and reports what SQLite's store does, step by step")
    func sameAsSQLite() throws {
        let (postgres, sqlite) = (try Store(.postgres), try Store(.sqlite))
        #expect(try postgres.snapshot() == sqlite.snapshot())
        for request in try Self.requests() {
            let expected = try Self.report(
                try sqlite.fresh().execute(request), sqlite)
            let got = try Self.report(try postgres.fresh().execute(request), postgres)
            #expect(
                got == expected, "\(request.entityName) \(request.predicate.map { "\($0)" } ?? "")")
            #expect(try postgres.snapshot() == sqlite.snapshot())
        }
    }

    @Test("deleting red's members nullifies every reference to them, both ways and without inverse")
    func nullifies() throws {
        let store = try Store(.postgres)
        var request = BatchDeleteRequest(
            entityName: "Member", predicate: try Predicate(format: "team.name == 'red'"))
        request.resultType = .objectIDs
        let result = try store.fresh().execute(request)
        #expect(result.objectIDs?.map(\.entityName).sorted() == ["Captain", "Member"])
        #expect(
            try store.names(result.changes[.updatedObjects] ?? [])
                == ["blue", "cat", "chess", "dan", "eve", "go", "red"])
        let lines = try store.snapshot()
        #expect(
            lines == [
                "Club chess v2 members=cat", "Club go v2 members=dan,eve",
                "Member cat v2 team=blue partner= clubs=chess friends= mentor=",
                "Member dan v2 team=blue partner= clubs=go friends= mentor=",
                "Member eve v2 team= partner= clubs=go friends= mentor=dan",
                "Team blue v2 members=cat,dan roster=dan star=",
                "Team red v2 members= roster=cat star=cat",
            ])
    }

    @Test("a delete no rule cascades from or denies is one statement")
    func oneStatement() throws {
        let statements = Locked<[String]>([])
        var options = StoreOptions()
        options.sqlDebugLevel = 1
        options.sqlLogHandler = SQLLogHandler { entry in
            statements.withLock { $0.append(entry.sql) }
        }
        let store = try Store(.postgres, options: options)
        statements.withLock { $0 = [] }
        var request = BatchDeleteRequest(
            entityName: "Member", predicate: try Predicate(format: "team.name == 'red'"))
        request.resultType = .count
        #expect(try store.fresh().execute(request).count == 2)
        let changing = statements.withLock { $0 }.filter {
            $0.hasPrefix("WITH") || $0.hasPrefix("DELETE") || $0.hasPrefix("UPDATE")
        }
        #expect(changing.count == 1)
        let statement = changing.first ?? ""
        #expect(statement.hasPrefix("WITH og_deleted AS NOT MATERIALIZED (SELECT"))
        #expect(statement.contains("og_delete AS (DELETE FROM \"ZMEMBER\""))
    }
}
