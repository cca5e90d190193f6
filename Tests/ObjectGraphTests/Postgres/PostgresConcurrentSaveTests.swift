import Foundation
import PostgresClient
import Testing

@testable import ObjectGraph

/// Saves of several contexts on one PostgreSQL coordinator run at once (each on a save
/// writer with a connection of its own, outside the coordinator's lock), and stay exact: a
/// save waiting in the database holds back no other context's save, updates of one object are
/// not lost, and each save's history names its own author.
@Suite("PostgreSQL saves of several contexts run at once")
struct PostgresConcurrentSaveTests {
    /// `Tally`: a name and a count.
    static func model() -> EntityModel {
        EntityModel(entities: [
            Entity(
                "Tally",
                attributes: [
                    Attribute("name", type: .string), Attribute("count", type: .integer64),
                ])
        ])
    }

    /// A coordinator on a fresh schema (tracking history when asked) and the schema's URL.
    static func open(tracksHistory: Bool = false) throws -> (StoreCoordinator, URL) {
        let url = try TestPostgresServer.require().url(
            schema: TestPostgresServer.freshSchema("concsave"))
        let coordinator = StoreCoordinator(model: model())
        var options = StoreOptions()
        options.tracksHistory = tracksHistory
        try coordinator.addStore(type: .postgres, at: url, options: options)
        return (coordinator, url)
    }

    /// The tallies of `context` by name, with their counts.
    static func counts(_ context: ManagedContext) throws -> [String: Int64] {
        var counts: [String: Int64] = [:]
        for tally in try context.fetch(FetchRequest(entityName: "Tally")) {
            guard case .string(let name) = try tally.value(for: "name") else { continue }
            if case .integer(let count) = try tally.value(for: "count") { counts[name] = count }
        }
        return counts
    }

    /// Runs `body` on a thread of its own; the flag is set when it has returned.
    static func onThread(_ body: @escaping @Sendable () -> Void) -> DoneSignal {
        let done = DoneSignal()
        Thread {
            body()
            done.set()
        }.start()
        return done
    }

    @Test("a save waiting on a row lock in the database does not hold back another context's save")
    func waitingSaveHoldsBackNoOther() throws {
        let (coordinator, url) = try Self.open()
        let setup = ManagedContext(coordinator: coordinator)
        let locked = try setup.insert("Tally")
        try locked.set("locked", for: "name")
        try locked.set(Int64(0), for: "count")
        try setup.save()
        guard case .permanent(let key) = locked.objectID.key else {
            Issue.record("the saved tally has no permanent key")
            return
        }
        let lockedID = locked.objectID

        // Another session holds the tally's row lock.
        let (holder, schema) = try PostgresStoreTests.inspect(url)
        let table =
            PostgresIdentifier.quoted(schema) + "."
            + PostgresIdentifier.quoted(
                try #require(try StoreLayout(model: Self.model()).entity(named: "Tally")).tableName)
        try holder.run("BEGIN")
        try holder.execute(
            "SELECT \"Z_PK\" FROM \(table) WHERE \"Z_PK\" = $1 FOR UPDATE", [.integer(key)])

        // Context A updates the tally: its save waits on the lock.
        let first = BackgroundContext(coordinator: coordinator)
        let firstResult = Locked<Result<Void, any Error>?>(nil)
        let firstDone = Self.onThread {
            let result = Result {
                try first.performAndWait { context in
                    let tally = try context.existingObject(with: lockedID)
                    try tally.set(Int64(1), for: "count")
                    try context.save()
                }
            }
            firstResult.withLock { $0 = result }
        }
        let (watcher, _) = try PostgresStoreTests.inspect(url)
        let waiting = try Self.waitUntil(seconds: 60) {
            try watcher.execute(
                "SELECT count(*) FROM pg_locks WHERE NOT granted AND locktype = 'transactionid'"
            ).rows.first?.int64(0) ?? 0 > 0
        }
        #expect(waiting, "context A's save never waited on the row lock")

        // Context B inserts another tally meanwhile: its save goes through.
        let second = BackgroundContext(coordinator: coordinator)
        let secondResult = Locked<Result<Void, any Error>?>(nil)
        let secondDone = Self.onThread {
            let result = Result {
                try second.performAndWait { context in
                    let tally = try context.insert("Tally")
                    try tally.set("free", for: "name")
                    try tally.set(Int64(7), for: "count")
                    try context.save()
                }
            }
            secondResult.withLock { $0 = result }
        }
        let secondFinishedWhileLocked = secondDone.wait(seconds: 30)
        #expect(
            secondFinishedWhileLocked,
            "context B's save waited for context A's, which waits on the database")
        #expect(!firstDone.isSet, "context A's save ended while the row was still locked")

        try holder.run("COMMIT")
        #expect(firstDone.wait(seconds: 60))
        #expect(secondDone.wait(seconds: 60))
        if case .failure(let error) = try #require(firstResult.withLock { $0 }) {
            Issue.record("context A's save failed: \(error)")
        }
        if case .failure(let error) = try #require(secondResult.withLock { $0 }) {
            Issue.record("context B's save failed: \(error)")
        }
        let reader = ManagedContext(coordinator: StoreCoordinator(model: Self.model()))
        try reader.coordinator.addStore(type: .postgres, at: url)
        #expect(try Self.counts(reader) == ["locked": 1, "free": 7])
    }

    @Test("contexts incrementing one object at once lose no update")
    func noLostUpdates() throws {
        let (coordinator, url) = try Self.open()
        let setup = ManagedContext(coordinator: coordinator)
        let shared = try setup.insert("Tally")
        try shared.set("shared", for: "name")
        try shared.set(Int64(0), for: "count")
        try setup.save()
        let id = shared.objectID
        let writers = 4
        let increments = 10
        let failures = Locked<[String]>([])
        let done = (0..<writers).map { writer in
            Self.onThread {
                let context = BackgroundContext(coordinator: coordinator)
                for _ in 0..<increments {
                    do {
                        try Self.increment(id, in: context)
                    } catch {
                        failures.withLock { $0.append("writer \(writer): \(error)") }
                        return
                    }
                }
            }
        }
        for signal in done { #expect(signal.wait(seconds: 120)) }
        #expect(failures.withLock { $0 } == [])
        let reader = ManagedContext(coordinator: StoreCoordinator(model: Self.model()))
        try reader.coordinator.addStore(type: .postgres, at: url)
        #expect(try Self.counts(reader) == ["shared": Int64(writers * increments)])
    }

    /// Adds one to the count of `id` in `context` (merge policy `.error`): read fresh,
    /// increment, save; a conflict (another context saved first) reads again and retries.
    static func increment(_ id: ObjectID, in context: BackgroundContext) throws {
        try context.performAndWait { context in
            for _ in 0..<1_000 {
                context.reset()
                let tally = try context.existingObject(with: id)
                guard case .integer(let count) = try tally.value(for: "count") else {
                    throw SaveError.conflicts([])
                }
                try tally.set(count + 1, for: "count")
                do {
                    try context.save()
                    return
                } catch SaveError.conflicts {
                    continue
                }
            }
            throw SaveError.conflicts([])
        }
    }

    @Test("saves made at once record each its own author in the history")
    func authorsStayWithTheirSaves() throws {
        let (coordinator, _) = try Self.open(tracksHistory: true)
        let writers = 4
        let saves = 15
        let failures = Locked<[String]>([])
        let done = (0..<writers).map { writer in
            Self.onThread {
                let context = BackgroundContext(coordinator: coordinator)
                context.performAndWait { $0.transactionAuthor = "writer \(writer)" }
                for save in 0..<saves {
                    do {
                        try context.performAndWait { context in
                            for item in 0..<3 {
                                let tally = try context.insert("Tally")
                                try tally.set("\(writer)/\(save)/\(item)", for: "name")
                            }
                            try context.save()
                        }
                    } catch {
                        failures.withLock { $0.append("writer \(writer): \(error)") }
                        return
                    }
                }
            }
        }
        for signal in done { #expect(signal.wait(seconds: 120)) }
        #expect(failures.withLock { $0 } == [])

        let reader = ManagedContext(coordinator: coordinator)
        var names: [ObjectID: String] = [:]
        for tally in try reader.fetch(FetchRequest(entityName: "Tally")) {
            if case .string(let name) = try tally.value(for: "name") {
                names[tally.objectID] = name
            }
        }
        let transactions = try coordinator.fetchHistory(HistoryRequest()).transactions
        #expect(transactions.count == writers * saves)
        for transaction in transactions {
            let author = transaction.author ?? "none"
            let writer = author.split(separator: " ").last.map(String.init) ?? "?"
            let made = transaction.changes.compactMap { names[$0.changedObjectID] }
            #expect(made.count == 3)
            #expect(
                made.allSatisfy { $0.hasPrefix(writer + "/") },
                "transaction \(transaction.transactionNumber) by \(author) made \(made)")
        }
    }

    /// Polls `condition` every 10 ms until it holds (`true`) or `seconds` pass (`false`).
    static func waitUntil(seconds: Double, _ condition: () throws -> Bool) throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }
}

/// A flag a thread sets when it is done, which other threads wait for.
final class DoneSignal: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let flag = Locked(false)

    /// Marks the work done.
    func set() {
        flag.withLock { $0 = true }
        semaphore.signal()
    }

    /// Whether the work is done.
    var isSet: Bool { flag.withLock { $0 } }

    /// Waits up to `seconds` for the work; whether it is done.
    func wait(seconds: Double) -> Bool {
        if isSet { return true }
        guard semaphore.wait(timeout: .now() + seconds) == .success else { return isSet }
        semaphore.signal()  // later waiters pass too
        return true
    }
}
