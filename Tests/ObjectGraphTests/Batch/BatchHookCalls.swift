import Foundation

@testable import ObjectGraph

/// Counts the calls of ``ManagedContext/batchWillCommit`` (made only by requests worked out
/// from the stored rows, not by those a store runs in SQL) and runs an action on each.
final class BatchHookCalls: @unchecked Sendable {
    // `lock` guards `count`.
    private let lock = NSLock()
    private var count = 0
    private let action: @Sendable (Int) throws -> Void

    /// A counter running `action` with the call's number (1, 2, …).
    init(_ action: @escaping @Sendable (Int) throws -> Void = { _ in }) {
        self.action = action
    }

    /// How many times the hook ran.
    var calls: Int { lock.withLock { count } }

    /// Runs `body` with the hook set to count and act.
    func during<T>(_ body: () throws -> T) throws -> T {
        try ManagedContext.$batchWillCommit.withValue({ [self] in
            let call = lock.withLock {
                count += 1
                return count
            }
            try action(call)
        }) {
            try body()
        }
    }
}
