import Foundation

/// A value shared between threads, read and written only under a lock.
///
/// Used instead of Synchronization's `Mutex` for state that contexts on several threads reach
/// at once (ID spaces, compiled patterns, save observers, queued work): on Linux a contended
/// `Mutex` waits in the kernel (a priority-inheriting futex), which ThreadSanitizer cannot see,
/// so `swift test --sanitize=thread` reported its protected accesses as races. This lock is a
/// pthread mutex (`NSLock`), which the sanitizer understands.
///
/// ```swift
/// let counts = Locked([String: Int]())
/// counts.withLock { $0["Person", default: 0] += 1 }
/// ```
final class Locked<State: Sendable>: @unchecked Sendable {
    // `@unchecked`: `state` is only read and written inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var state: State

    init(_ state: State) { self.state = state }

    /// Runs `body` with the state, under the lock.
    func withLock<Result, E: Error>(_ body: (inout State) throws(E) -> Result) throws(E) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
