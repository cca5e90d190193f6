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

    /// How writer `writer` ended, if it has.
    func outcome(of writer: Int) -> Result<Int64, any Error>? {
        outcomes.withLock { $0[writer] }
    }
}
