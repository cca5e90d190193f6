import Foundation
import SQLiteDatabase
import Testing

@testable import ObjectGraph

/// `StoreOptions.busyTimeout`: a save waits for another connection (another process) holding
/// the file's write lock, and fails only when the wait is over.
@Suite("SQLite busy timeout")
struct BusyTimeoutTests {
    /// Opens `url` with `options`, changes Ann's age and saves.
    static func saveAnn(at url: URL, options: StoreOptions) throws {
        let coordinator = StoreCoordinator(model: TestModels.league())
        try coordinator.addStore(type: .sqlite, at: url, options: options)
        let context = ManagedContext(coordinator: coordinator)
        try RedTeamLeague.one(context, "Person", "Ann").set(41, for: "age")
        try context.save()
    }

    @Test("without a busy timeout a save fails at once; with one it waits for the lock")
    func waitsForTheLock() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try RedTeamLeague.write(in: folder)
        // Another connection, on its own thread, holds the write lock until `go` (or 2 s, so
        // that a save ignoring the option would wait and succeed), and then 0.2 s more.
        let locked = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            defer { released.signal() }
            guard let holder = try? Database(url: url),
                (try? holder.execute(sql: "BEGIN IMMEDIATE")) != nil
            else {
                locked.signal()
                return
            }
            locked.signal()
            _ = go.wait(timeout: .now() + 2)
            Thread.sleep(forTimeInterval: 0.2)
            _ = try? holder.execute(sql: "COMMIT")
        }
        locked.wait()
        #expect {
            try Self.saveAnn(at: url, options: StoreOptions(busyTimeout: 0))
        } throws: { error in
            guard case StoreError.sqlite(_, let message) = error else { return false }
            return message.contains("SQLITE_BUSY")
        }
        go.signal()
        try Self.saveAnn(at: url, options: StoreOptions())
        released.wait()
        let reader = try SQLiteStoreTests.open(url)
        #expect(try RedTeamLeague.one(reader, "Person", "Ann")["age"] as Int? == 41)
    }
}
