import Foundation
import PostgresClient
import Testing

@testable import ObjectGraph

/// The connection pool a process's PostgreSQL stores share: one pool per URL, bounded, each
/// connection given back after an operation, broken connections replaced; query generations
/// on connections of their own.
@Suite("PostgreSQL connection pool and query generations")
struct PostgresPoolTests {
    /// A fresh schema's URL whose connections carry a name of their own (`application_name`,
    /// so the test can count them in `pg_stat_activity`), with `extra` query parameters.
    static func namedURL(_ extra: String = "") throws -> (url: URL, name: String) {
        let name = TestPostgresServer.freshSchema("pool")
        let base = try PostgresStoreTests.freshURL().absoluteString
        return (try #require(URL(string: base + "&application_name=\(name)" + extra)), name)
    }

    /// The server's sessions named `name` (read through `connection` when given).
    static func sessions(_ name: String, on connection: PostgresConnection? = nil) throws -> Int {
        let inspector =
            try connection
            ?? PostgresStoreTests.inspect(try PostgresStoreTests.freshURL()).0
        try inspector.execute("SELECT pg_stat_clear_snapshot()")
        let result = try inspector.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1::text",
            [.text(name)])
        return Int(try result.rows.first?.int64(0) ?? -1)
    }

    /// Ends the server's sessions named `name` (as a server restart or a network failure
    /// would) and waits until they are gone; returns how many.
    static func terminate(_ name: String) throws -> Int {
        let (connection, _) = try PostgresStoreTests.inspect(try PostgresStoreTests.freshURL())
        let result = try connection.execute(
            "SELECT count(pg_terminate_backend(pid, 10000)) FROM pg_stat_activity"
                + " WHERE application_name = $1::text", [.text(name)])
        for _ in 0..<1000 where try sessions(name, on: connection) > 0 { usleep(10_000) }
        return Int(try result.rows.first?.int64(0) ?? 0)
    }

    /// Inserts a team named `name` and saves, in a new context of `coordinator`.
    static func insertTeam(_ name: String, _ coordinator: StoreCoordinator) throws {
        let context = ManagedContext(coordinator: coordinator)
        let team = try context.insert("Team")
        try team.set(name, for: "name")
        try context.save()
    }

    static func coordinator(_ url: URL) throws -> StoreCoordinator {
        let coordinator = StoreCoordinator(model: TestModels.league())
        try coordinator.addStore(type: .postgres, at: url)
        return coordinator
    }

    @Test("pool_size is read from the URL, shown, kept from libpq, and must be positive")
    func poolSizeParameter() throws {
        let url = try PostgresURL(string: "postgresql://app:pw@db/shop?schema=s&pool_size=3")
        #expect(url.poolSize == 3)
        #expect(url.parameters["pool_size"] == nil)
        #expect(url.description == "postgresql://app:***@db/shop?schema=s&pool_size=3")
        #expect(throws: PostgresError.self) {
            try PostgresURL(string: "postgresql://db/shop?pool_size=0")
        }
    }

    @Test("a fetch whose strings are decided from column values gives its connection back")
    func compiledFetchReturnsItsConnection() throws {
        let (url, _) = try Self.namedURL("&pool_size=1")
        let first = try Self.coordinator(url)
        try Self.insertTeam("A", first)
        var request = FetchRequest(
            entityName: "Team", predicate: try Predicate(format: "name BEGINSWITH[c] 'a'"))
        request.sortDescriptors = [SortDescriptor("name")]
        #expect(try ManagedContext(coordinator: first).fetch(request).count == 1)
        // The only connection is free again: another coordinator works at once (it waited
        // 30 s and failed when the fetch kept it).
        let second = try Self.coordinator(url)
        #expect(try ManagedContext(coordinator: second).count(for: request) == 1)
        withExtendedLifetime((first, second)) {}
    }

    @Test("coordinators of one process on one URL share its connections, one lent per operation")
    func sharedAcrossCoordinators() throws {
        let (url, name) = try Self.namedURL()
        let first = try Self.coordinator(url)
        try Self.insertTeam("A", first)
        let second = try Self.coordinator(url)
        try Self.insertTeam("B", second)
        #expect(
            try ManagedContext(coordinator: second).count(for: FetchRequest(entityName: "Team"))
                == 2)
        // Each operation gave its connection back: the second coordinator used the first's.
        #expect(try Self.sessions(name) == 1)
        withExtendedLifetime((first, second)) {}
    }

    @Test("contexts on many threads, each with its own coordinator, stay within pool_size")
    func boundedUnderConcurrency() throws {
        let (url, name) = try Self.namedURL("&pool_size=2")
        let coordinators = try (0..<6).map { _ in try Self.coordinator(url) }
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: coordinators.count) { index in
            do {
                for round in 0..<5 {
                    try Self.insertTeam("T\(index)-\(round)", coordinators[index])
                    _ = try ManagedContext(coordinator: coordinators[index]).count(
                        for: FetchRequest(entityName: "Team"))
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(try Self.sessions(name) <= 2)
        let context = ManagedContext(coordinator: coordinators[0])
        #expect(try context.count(for: FetchRequest(entityName: "Team")) == 30)
    }

    @Test("a connection the server ended is replaced; the store keeps working")
    func brokenConnectionReplaced() throws {
        let (url, name) = try Self.namedURL()
        let coordinator = try Self.coordinator(url)
        try Self.insertTeam("A", coordinator)
        #expect(try Self.terminate(name) == 1)
        try Self.insertTeam("B", coordinator)
        let names = try ManagedContext(coordinator: coordinator).fetch(
            FetchRequest(entityName: "Team")
        ).compactMap { $0["name"] as String? }
        #expect(Set(names) == ["A", "B"])
        #expect(try Self.sessions(name) == 1)
    }

    @Test("a query generation reads its snapshot on a connection of its own, given back after")
    func generationSnapshot() throws {
        let (url, name) = try Self.namedURL()
        let coordinator = try Self.coordinator(url)
        try Self.insertTeam("A", coordinator)
        let pinned = ManagedContext(coordinator: coordinator)
        try pinned.setQueryGenerationFrom(.current)
        let team = try #require(try pinned.fetch(FetchRequest(entityName: "Team")).first)
        // Another coordinator (another server) renames A and adds B.
        let other = try Self.coordinator(url)
        let writer = ManagedContext(coordinator: other)
        let copy = try writer.existingObject(with: team.objectID)
        try copy.set("A2", for: "name")
        try writer.insert("Team").set("B", for: "name")
        try writer.save()
        // The snapshot's connection and the one the operations borrow.
        #expect(try Self.sessions(name) == 2)
        #expect(try pinned.count(for: FetchRequest(entityName: "Team")) == 1)
        let again = try pinned.fetch(FetchRequest(entityName: "Team"))
        #expect(again.compactMap { $0["name"] as String? } == ["A"])
        let fresh = ManagedContext(coordinator: coordinator)
        #expect(try fresh.count(for: FetchRequest(entityName: "Team")) == 2)
        try pinned.setQueryGenerationFrom(.current)
        try pinned.refreshAllObjects()
        let names = try pinned.fetch(FetchRequest(entityName: "Team")).compactMap {
            $0["name"] as String?
        }
        #expect(Set(names) == ["A2", "B"])
        try pinned.setQueryGenerationFrom(nil)
        // Both generations let go: their connections are back in the pool, idle.
        let (inspector, _) = try PostgresStoreTests.inspect(try PostgresStoreTests.freshURL())
        let busy = try inspector.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1::text"
                + " AND state <> 'idle'", [.text(name)])
        #expect(try busy.rows.first?.int64(0) == 0)
        withExtendedLifetime(other) {}
    }
}
