import Foundation
import SQLiteDatabase
import Testing

private struct Abort: Error {}

@Suite("DatabaseQueue")
struct DatabaseQueueTests {
    private func withQueue(_ body: (DatabaseQueue) async throws -> Void) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let queue = try DatabaseQueue(
            path: directory.path("queue.sqlite"), options: .init(busyTimeout: 5, journalMode: .wal))
        try queue.write { db in
            try db.execute(
                sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, worker INTEGER, n INTEGER)")
        }
        try await body(queue)
        try queue.close()
    }

    @Test("many concurrent tasks write through one queue without losing a write")
    func concurrentAsyncWrites() async throws {
        try await withQueue { queue async throws in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<20 {
                    group.addTask {
                        for n in 0..<25 {
                            try await queue.asyncWrite { db in
                                try db.execute(
                                    sql: "INSERT INTO t (worker, n) VALUES (?, ?)",
                                    arguments: [worker, n])
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let count = try await queue.asyncRead { db in
                try db.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM t") ?? 0
            }
            #expect(count == 500)
            let perWorker = try queue.read { db in
                try db.fetchAll(sql: "SELECT COUNT(DISTINCT n) FROM t GROUP BY worker")
                    .map { try $0.decode(Int.self, at: 0) }
            }
            #expect(perWorker == Array(repeating: 25, count: 20))
        }
    }

    @Test("many threads read-modify-write through the synchronous API without lost updates")
    func concurrentSyncIncrements() async throws {
        try await withQueue { queue async throws in
            try queue.write { db in try db.execute(sql: "INSERT INTO t (id, n) VALUES (1, 0)") }
            let failures = Locked(0)
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                for _ in 0..<50 {
                    do {
                        try queue.write { db in
                            let n =
                                try db.fetchValue(Int.self, sql: "SELECT n FROM t WHERE id = 1")
                                ?? 0
                            try db.execute(
                                sql: "UPDATE t SET n = ? WHERE id = 1", arguments: [n + 1])
                        }
                    } catch {
                        failures.withValue { $0 += 1 }
                    }
                }
            }
            #expect(failures.withValue { $0 } == 0)
            #expect(try queue.read { try $0.fetchValue(Int.self, sql: "SELECT n FROM t") } == 400)
        }
    }

    @Test("read forbids writes; write commits or rolls back")
    func readAndWrite() async throws {
        try await withQueue { queue async throws in
            let error = thrownError {
                try queue.read { db in try db.execute(sql: "INSERT INTO t (n) VALUES (1)") }
            }
            #expect((error as? DatabaseError)?.resultCode == .readOnly)

            #expect(throws: Abort.self) {
                try queue.write { db in
                    try db.execute(sql: "INSERT INTO t (n) VALUES (1)")
                    throw Abort()
                }
            }
            let inserted = try queue.write { db in
                try db.execute(sql: "INSERT INTO t (n) VALUES (2)")
                return db.lastInsertRowID
            }
            #expect(inserted == 1)
            // Writes are allowed again after a read.
            let values = try queue.read { db in
                try db.fetchAll(sql: "SELECT n FROM t").map { try $0.decode(Int.self, at: 0) }
            }
            #expect(values == [2])
        }
    }

    @Test("a reentrant call throws misuse instead of deadlocking")
    func reentrancy() async throws {
        try await withQueue { queue async throws in
            let error = thrownError {
                try queue.write { _ in
                    _ = try queue.read { _ in 1 }
                }
            }
            #expect((error as? DatabaseError)?.resultCode == .misuse)
        }
    }

    @Test("writeWithoutTransaction rolls back a transaction left open and reports it")
    func transactionLeftOpen() async throws {
        try await withQueue { queue async throws in
            let mode = try queue.writeWithoutTransaction { db in try db.setJournalMode(.wal) }
            #expect(mode == .wal)
            let error = thrownError {
                try queue.writeWithoutTransaction { db in
                    try db.beginTransaction()
                    try db.execute(sql: "INSERT INTO t (n) VALUES (1)")
                }
            }
            #expect((error as? DatabaseError)?.resultCode == .misuse)
            let count = try await queue.asyncWriteWithoutTransaction { db in
                try db.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM t")
            }
            #expect(count == 0)
        }
    }

    @Test("a cancelled task does not start its work")
    func cancellation() async throws {
        try await withQueue { queue async throws in
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await queue.asyncWrite { db in
                    try db.execute(sql: "INSERT INTO t (n) VALUES (1)")
                }
            }
            await #expect(throws: CancellationError.self) { try await task.value }
            let count = try queue.read {
                try $0.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM t")
            }
            #expect(count == 0)
        }
    }

    @Test("a task cancelled while its work waits in line never runs it")
    func cancellationWhileQueued() async throws {
        try await withQueue { queue async throws in
            let started = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let finished = DispatchSemaphore(value: 0)
            // A Dispatch thread, not a task: blocking it cannot starve the cooperative pool.
            DispatchQueue.global().async {
                _ = try? queue.write { _ in
                    started.signal()
                    release.wait()
                }
                finished.signal()
            }
            started.wait()
            let waiting = Task {
                try await queue.asyncWrite { db in
                    try db.execute(sql: "INSERT INTO t (n) VALUES (1)")
                }
            }
            waiting.cancel()
            release.signal()
            finished.wait()
            await #expect(throws: CancellationError.self) { try await waiting.value }
            let count = try queue.read {
                try $0.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM t")
            }
            #expect(count == 0)
        }
    }

    @Test("temporary and in-memory queues; a closed queue throws")
    func otherKinds() throws {
        let temporary = try DatabaseQueue.temporary()
        try temporary.write { try $0.execute(sql: "CREATE TABLE t (v)") }
        #expect(FileManager.default.fileExists(atPath: temporary.path))
        try temporary.close()
        #expect(!FileManager.default.fileExists(atPath: temporary.path))
        let error = thrownError { _ = try temporary.read { _ in 0 } }
        #expect((error as? DatabaseError)?.resultCode == .misuse)

        let memory = try DatabaseQueue.inMemory()
        #expect(memory.path == ":memory:")
        #expect(try memory.read { try $0.fetchValue(Int.self, sql: "SELECT 1 + 1") } == 2)
    }
}
