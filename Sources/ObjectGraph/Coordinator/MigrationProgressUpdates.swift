import Foundation

/// The continuations of the streams ``MigrationOptions/progressUpdates()`` made: every report
/// goes to each, and all end together. Thread-safe.
final class MigrationProgressUpdates: @unchecked Sendable {
    // `lock` protects `continuations` and `finished`.
    private let lock = NSLock()
    private var continuations: [AsyncStream<MigrationProgress>.Continuation] = []
    private var finished = false

    /// A new stream receiving every later report (ended at once when the updates have ended).
    func makeStream() -> AsyncStream<MigrationProgress> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: MigrationProgress.self, bufferingPolicy: .unbounded)
        let ended = lock.withLock { () -> Bool in
            if !finished { continuations.append(continuation) }
            return finished
        }
        if ended { continuation.finish() }
        return stream
    }

    /// Sends `progress` to every stream.
    func yield(_ progress: MigrationProgress) {
        for continuation in lock.withLock({ continuations }) { continuation.yield(progress) }
    }

    /// Ends every stream.
    func finish() {
        let ending = lock.withLock { () -> [AsyncStream<MigrationProgress>.Continuation] in
            finished = true
            defer { continuations = [] }
            return continuations
        }
        for continuation in ending { continuation.finish() }
    }
}
