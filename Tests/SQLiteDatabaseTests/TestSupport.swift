import Foundation
import SQLiteDatabase
import Testing

/// A fresh directory under the system temporary directory; call `remove()` when done.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("SQLiteDatabaseTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Runs `body` with a database file in a temporary directory, then closes it and removes
/// the directory.
func withDatabase<T>(
    options: Database.Options = Database.Options(),
    _ body: (Database, TemporaryDirectory) throws -> T
) throws -> T {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let db = try Database(path: directory.path("test.sqlite"), options: options)
    defer { try? db.close() }
    return try body(db, directory)
}

/// A value shared between threads in tests, protected by a lock.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only read or written while holding `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withValue<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// The error thrown by `body`, if any.
func thrownError(_ body: () throws -> Void) -> (any Error)? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}
