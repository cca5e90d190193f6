import Synchronization

/// What each writer thread ended with (its checksum or its error), by writer. `Sendable`: the
/// dictionary is held by a `Mutex`.
final class WriterOutcomes: Sendable {
    private let outcomes = Mutex<[Int: Result<Int64, any Error>]>([:])

    /// Records how writer `writer` ended.
    func record(_ outcome: Result<Int64, any Error>, of writer: Int) {
        outcomes.withLock { $0[writer] = outcome }
    }

    /// How many writers have ended.
    var finished: Int { outcomes.withLock { $0.count } }

    /// The sum of the checksums of writers `0..<writers`; throws the first writer's error, or
    /// says which writer has not ended.
    func checksum(writers: Int) throws -> Int64 {
        var checksum: Int64 = 0
        for writer in 0..<writers {
            guard let outcome = outcomes.withLock({ $0[writer] }) else {
                throw BenchError.failed("concurrent_import: writer \(writer) did not finish")
            }
            checksum &+= try outcome.get()
        }
        return checksum
    }
}
