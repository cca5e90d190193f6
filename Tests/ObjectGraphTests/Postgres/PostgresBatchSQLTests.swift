import Foundation
import Testing

@testable import ObjectGraph

/// Batch inserts and batch updates of `Double` expressions run in SQL on a PostgreSQL store
/// (never through the rows path, which ``BatchHookCalls`` counts), with the values SQLite's
/// store and the evaluator give.
@Suite("PostgreSQL batch inserts and expression updates in SQL")
struct PostgresBatchSQLTests {
    /// The rows the tests insert: every type, awkward text and bytes, and nil everywhere.
    static let rows: [[String: Value]] = [
        [
            "i16": .integer(-32768), "i32": .integer(2_147_483_647), "i64": .integer(Int64.min),
            "flag": .bool(true), "dec": .decimal(Decimal(string: "12345.678901") ?? 0),
            "dbl": .double(0.1), "flt": .double(1.5),
            "when": .date(Date(timeIntervalSinceReferenceDate: 123_456.000_001_5)),
            "str": .string("quote \" back\\slash {brace}, comma NULL"),
            "link": .uri(URL(string: "https://example.com/a?b=c") ?? URL(fileURLWithPath: "/")),
            "id": .uuid(UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))),
            "bytes": .data(Data([0, 1, 0x5C, 0x22, 0xFF])), "blob": .data(Data([7])),
        ],
        [
            "i64": .integer(Int64.max), "flag": .bool(false), "dbl": .double(-.infinity),
            "str": .string(""), "bytes": .data(Data()), "dec": .integer(-3),
        ],
        [:],
    ]

    /// A coordinator on a fresh store of `type` (PostgreSQL: a fresh schema).
    static func store(_ type: StoreType, _ folder: URL) throws -> StoreCoordinator {
        let coordinator = StoreCoordinator(model: AtomicStoreTestSupport.model())
        let url =
            type == .postgres
            ? try TestPostgresServer.require().url(
                schema: TestPostgresServer.freshSchema("batchsql"))
            : folder.appendingPathComponent("batch.sqlite")
        _ = try coordinator.addStore(type: type, at: url)
        return coordinator
    }

    /// The attribute values of every object of `entity`, in a stable order.
    static func values(_ coordinator: StoreCoordinator, _ entity: String = "All") throws
        -> [[String: Value]]
    {
        let context = ManagedContext(coordinator: coordinator)
        let objects = try context.fetch(FetchRequest<ManagedObject>(entityName: entity))
        let names = try #require(coordinator.model.entity(named: entity)).attributes.map(\.name)
        let order = { (values: [String: Value]) in
            names.map { "\(values[$0] ?? .null)" }.joined(separator: "|")
        }
        return try objects.map { object in
            var values: [String: Value] = [:]
            for name in names { values[name] = try object.value(for: name) }
            return values
        }.sorted { order($0) < order($1) }
    }

    @Test("a batch insert runs in SQL and stores what SQLite's store stores, every type")
    func insertEveryType() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let sqlite = try Self.store(.sqlite, folder)
        let postgres = try Self.store(.postgres, folder)
        let hook = BatchHookCalls()
        var results: [[ObjectID]] = []
        for coordinator in [sqlite, postgres] {
            var request = BatchInsertRequest(entityName: "All", objects: Self.rows)
            request.resultType = .objectIDs
            let context = ManagedContext(coordinator: coordinator)
            results.append(try hook.during { try context.execute(request) }.objectIDs ?? [])
        }
        #expect(hook.calls == 0)
        #expect(results.map(\.count) == [3, 3])
        #expect(try Self.values(postgres) == Self.values(sqlite))
        let context = ManagedContext(coordinator: postgres)
        for id in results[1] { #expect(try context.existingObject(with: id).objectID == id) }
    }

    @Test("keys handed to a batch insert never collide with a save running at once")
    func keysWithConcurrentSaves() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let first = try Self.store(.postgres, folder)
        let url = try #require(first.storeDescriptions.first?.url)
        let second = StoreCoordinator(model: AtomicStoreTestSupport.model())
        _ = try second.addStore(type: .postgres, at: url)
        let hook = BatchHookCalls()
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            do {
                for round in 0..<10 {
                    if writer == 0 {
                        let rows = (0..<20).map { ["i64": Value.integer(Int64(round * 100 + $0))] }
                        _ = try hook.during {
                            try ManagedContext(coordinator: first).execute(
                                BatchInsertRequest(entityName: "All", objects: rows))
                        }
                    } else {
                        let context = ManagedContext(coordinator: second)
                        for index in 0..<20 {
                            try context.insert("All").set(
                                Int64(10_000 + round * 100 + index), for: "i64")
                        }
                        try context.save()
                    }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(hook.calls == 0)
        let context = ManagedContext(coordinator: first)
        let items = try context.fetch(FetchRequest<ManagedObject>(entityName: "All"))
        #expect(items.count == 400)
        #expect(Set(items.map(\.objectID)).count == 400)
    }

    @Test("a taken unique value fails the SQL batch insert as on SQLite; nothing is inserted")
    func uniqueness() throws {
        let fixture = try BatchFixture(.postgres)
        let hook = BatchHookCalls()
        for objects: [[String: Value]] in [
            [["title": "new"], ["title": "red"]], [["title": "new"], ["title": "new"]],
        ] {
            do {
                _ = try hook.during {
                    try fixture.context.execute(
                        BatchInsertRequest(entityName: "Tag", objects: objects))
                }
                Issue.record("a taken unique title was inserted")
            } catch StoreError.uniqueConstraint(_, let entity, let properties) {
                #expect(entity == "Tag" && properties == ["title"])
            }
        }
        #expect(hook.calls == 0)
        #expect(try fixture.names("Tag", "title") == ["green", "red"])
    }

    /// The bits of the scores of folders holding `scores` once `format` updated them (or the
    /// error's type), and the rows path's calls, on a fresh store of `type`.
    private static func updated(_ scores: [Double], _ format: String, on type: StoreType)
        throws -> (result: [String], hookCalls: Int)
    {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let coordinator = StoreCoordinator(model: BatchFixture.model())
        let url: URL? =
            type == .postgres
            ? try TestPostgresServer.require().url(
                schema: TestPostgresServer.freshSchema("batchexpr")) : nil
        _ = try coordinator.addStore(type: type, at: url)
        let context = ManagedContext(coordinator: coordinator)
        for (index, score) in scores.enumerated() {
            let object = try context.insert("Folder")
            try object.set("f\(index)", for: "name")
            try object.set(score, for: "score")
        }
        try context.save()
        let hook = BatchHookCalls()
        let request = BatchUpdateRequest(
            entityName: "Folder", propertiesToUpdate: ["score": try Expression(format: format)])
        do {
            _ = try hook.during { try ManagedContext(coordinator: coordinator).execute(request) }
        } catch {
            return (["failed: \(Swift.type(of: error))"], hook.calls)
        }
        var sorted = FetchRequest<ManagedObject>(entityName: "Folder")
        sorted.sortDescriptors = [SortDescriptor("name")]
        let bits = try ManagedContext(coordinator: coordinator).fetch(sorted).map {
            // A NaN's sign and payload are not kept by PostgreSQL's text form (nor by saves).
            (($0["score"] as Double?) ?? .nan).isNaN
                ? "nan" : String((($0["score"] as Double?) ?? 0).bitPattern, radix: 16)
        }
        return (bits, hook.calls)
    }

    @Test(
        "a Double expression update runs in SQL with the evaluator's values, bit for bit",
        arguments: [
            "score + 1", "score * 1.1 - 0.3", "-score / 3", "score * score + score",
            "2 - score * 7",
        ])
    func expressionUpdate(_ format: String) throws {
        let scores = [0.1, -2.5, 1e-100, 123_456.789, 0, -0.0, 1e150, .infinity]
        let postgres = try Self.updated(scores, format, on: .postgres)
        let memory = try Self.updated(scores, format, on: .inMemory)
        #expect(postgres.hookCalls == 0)
        #expect(postgres.result == memory.result)
    }

    @Test(
        "overflow, underflow, a zero divisor or NaN: the rows are evaluated, same outcome",
        arguments: ["score * 1e300", "score * 1e-300", "score / (score - score)", "score - score"])
    func expressionFallback(_ format: String) throws {
        let scores = [1e300, 1e-300, 2, .infinity]
        let postgres = try Self.updated(scores, format, on: .postgres)
        let memory = try Self.updated(scores, format, on: .inMemory)
        #expect(postgres.result == memory.result)
    }
}
