import Foundation
import SQLiteDatabase
import Synchronization
import Testing

@testable import ObjectGraph

/// `StoreOptions.sqlDebugLevel` and `OBJECTGRAPH_SQL_DEBUG`: a SQLite store logs the SQL of its
/// fetches, saves, counts and batch requests to the handler the app sets.
@Suite("SQL debug log of a SQLite store")
struct SQLDebugLogTests {
    /// The entries a handler received.
    final class Collector: Sendable {
        private let entries = Mutex<[SQLLogEntry]>([])

        /// A handler appending to the entries.
        var handler: SQLLogHandler {
            SQLLogHandler { [self] entry in entries.withLock { $0.append(entry) } }
        }

        /// The entries so far.
        var all: [SQLLogEntry] { entries.withLock { $0 } }

        /// Forgets the entries so far.
        func clear() { entries.withLock { $0.removeAll() } }
    }

    /// People with an indexed `name` and an unindexed `age`.
    static let model: EntityModel = {
        var person = Entity("Person")
        person.attributes = [
            Attribute("name", type: .string, isIndexed: true), Attribute("age", type: .integer32),
        ]
        return EntityModel(entities: [person])
    }()

    /// A SQLite store in `folder` opened with `level` (and a handler keeping the entries);
    /// Ann (30) and Bo (40) saved through it. Returns the context and the entries.
    static func store(in folder: URL, level: Int?) throws -> (ManagedContext, Collector) {
        let entries = Collector()
        var options = StoreOptions()
        options.sqlDebugLevel = level
        options.sqlLogHandler = entries.handler
        let coordinator = StoreCoordinator(model: model)
        try coordinator.addStore(
            type: .sqlite, at: folder.appendingPathComponent("People.sqlite"), options: options)
        let context = ManagedContext(coordinator: coordinator)
        for (name, age) in [("Ann", 30), ("Bo", 40)] {
            let person = try context.insert("Person")
            try person.set(name, for: "name")
            try person.set(age, for: "age")
        }
        try context.save()
        return (context, entries)
    }

    /// The fetch of people older than 20, and the entries logged while it ran.
    static func fetchOlder(_ context: ManagedContext, _ entries: Collector) throws
        -> [SQLLogEntry]
    {
        entries.clear()
        let request = FetchRequest(
            entityName: "Person", predicate: try Predicate(format: "age > %@", 20))
        #expect(try context.fetch(request).count == 2)
        return entries.all
    }

    @Test("level 1: the save's INSERT and the fetch's SELECT, with their times")
    func statements() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let (context, entries) = try Self.store(in: folder, level: 1)
        let saved = entries.all
        #expect(
            saved.contains {
                $0.sql.hasPrefix("INSERT INTO \"ZPERSON\"")
                    || $0.sql.hasPrefix("INSERT INTO ZPERSON")
            })
        #expect(saved.contains { $0.sql.hasPrefix("COMMIT") })
        let fetched = try Self.fetchOlder(context, entries)
        let select = try #require(fetched.first { $0.sql.contains("ZPERSON") })
        #expect(select.sql.hasPrefix("SELECT"))
        #expect(select.level == .statements)
        #expect(select.rowsReturned == nil && select.arguments == nil)
        #expect(select.lines.first == "sql: " + select.sql)
        #expect(select.lines.last?.hasPrefix("time: ") == true)
    }

    @Test("level 2: the rows the fetch returned and the save changed")
    func rowCounts() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let (context, entries) = try Self.store(in: folder, level: 2)
        let inserts = entries.all.filter {
            $0.sql.hasPrefix("INSERT") && $0.sql.contains("ZPERSON")
        }
        #expect(inserts.compactMap(\.rowsChanged).reduce(0, +) == 2)
        let select = try #require(
            Self.fetchOlder(context, entries).first { $0.sql.contains("ZPERSON") })
        #expect(select.rowsReturned == 2)
        #expect(select.lines.contains("annotation: fetch returned 2 rows"))
        #expect(select.arguments == nil)
    }

    @Test("level 3: the values bound to the fetch and to the save")
    func boundValues() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let (context, entries) = try Self.store(in: folder, level: 3)
        let inserted = entries.all.filter { $0.sql.hasPrefix("INSERT") }
            .flatMap { $0.arguments ?? [] }
        #expect(inserted.contains(.text("Ann")) && inserted.contains(.text("Bo")))
        let select = try #require(
            Self.fetchOlder(context, entries).first { $0.sql.contains("ZPERSON") })
        #expect(select.arguments?.contains(DatabaseValue.integer(20)) == true)
        #expect(select.lines.contains { $0.hasPrefix("bind[") && $0.hasSuffix("= 20") })
    }

    @Test("counts and batch deletes are logged too")
    func countsAndBatches() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let (context, entries) = try Self.store(in: folder, level: 2)
        entries.clear()
        #expect(try context.count(for: FetchRequest(entityName: "Person")) == 2)
        #expect(entries.all.contains { $0.sql.uppercased().contains("COUNT(") })
        entries.clear()
        _ = try context.execute(BatchDeleteRequest(entityName: "Person"))
        let deleted = entries.all.filter { $0.sql.hasPrefix("DELETE") }
        #expect(deleted.compactMap(\.rowsChanged).reduce(0, +) >= 2)
    }

    @Test("level 0: nothing reaches the handler")
    func off() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let (context, entries) = try Self.store(in: folder, level: 0)
        #expect(try Self.fetchOlder(context, entries).isEmpty)
        #expect(entries.all.isEmpty)
    }

    @Test("the option's level wins over OBJECTGRAPH_SQL_DEBUG, which applies when it is unset")
    func environment() {
        let variable = SQLLog.environmentVariable
        #expect(variable == "OBJECTGRAPH_SQL_DEBUG")
        #expect(StoreOptions().sqlLog(environment: [:]) == nil)
        #expect(StoreOptions().sqlLog(environment: [variable: "1"])?.level == .statements)
        #expect(StoreOptions().sqlLog(environment: [variable: "2"])?.level == .rowCounts)
        #expect(StoreOptions().sqlLog(environment: [variable: "3"])?.level == .boundValues)
        #expect(StoreOptions().sqlLog(environment: [variable: "0"]) == nil)
        #expect(StoreOptions().sqlLog(environment: [variable: "on"]) == nil)
        var options = StoreOptions()
        options.sqlDebugLevel = 0
        #expect(options.sqlLog(environment: [variable: "3"]) == nil)
        options.sqlDebugLevel = 2
        #expect(options.sqlLog(environment: [variable: "3"])?.level == .rowCounts)
        #expect(options.sqlLog(environment: [:])?.handler == .standardError)
        let handler = SQLLogHandler { _ in }
        options.sqlLogHandler = handler
        #expect(options.sqlLog(environment: [:])?.handler == handler)
    }
}
