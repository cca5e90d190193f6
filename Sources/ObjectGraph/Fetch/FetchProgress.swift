import Synchronization

/// The progress of an asynchronous fetch (Core Data's `NSProgress` of an
/// `NSAsynchronousFetchRequest`): how many of the matching objects are loaded, and a way to
/// stop it. `Sendable`: any thread may read it or cancel it.
///
/// ```swift
/// let progress = try context.execute(request)
/// Task { for await update in progress.updates { print(update.fractionCompleted) } }
/// progress.cancel()   // the fetch stops before its next batch
/// ```
public final class FetchProgress: Sendable {
    /// One step of a fetch: how many objects are loaded, of how many.
    public struct Update: Sendable, Hashable {
        /// The objects loaded so far.
        public var completedUnitCount: Int
        /// The objects the fetch matches (0 until they are counted).
        public var totalUnitCount: Int

        /// The part loaded, from 0 to 1 (1 for a fetch that matches nothing).
        public var fractionCompleted: Double {
            totalUnitCount > 0 ? Double(completedUnitCount) / Double(totalUnitCount) : 1
        }
    }

    private struct State {
        var update = Update(completedUnitCount: 0, totalUnitCount: 0)
        var isCancelled = false
        var isFinished = false
    }

    private let state = Mutex(State())
    private let continuation: AsyncStream<Update>.Continuation

    /// Every update, in order, from the count of the matching objects to the last batch; the
    /// stream ends when the fetch ends (finished, failed or cancelled). Buffered: updates made
    /// before it is read are kept. Meant for one reader.
    public let updates: AsyncStream<Update>

    /// A progress at zero.
    init() {
        (updates, continuation) = AsyncStream.makeStream(of: Update.self)
    }

    /// The objects loaded so far.
    public var completedUnitCount: Int { state.withLock { $0.update.completedUnitCount } }
    /// The objects the fetch matches (0 until they are counted).
    public var totalUnitCount: Int { state.withLock { $0.update.totalUnitCount } }
    /// The part loaded, from 0 to 1.
    public var fractionCompleted: Double { state.withLock { $0.update.fractionCompleted } }
    /// Whether ``cancel()`` was called before the fetch ended (once it has ended: whether it
    /// ended cancelled).
    public var isCancelled: Bool { state.withLock { $0.isCancelled } }
    /// Whether the fetch has ended and its completion has run (finished, failed or
    /// cancelled).
    public var isFinished: Bool { state.withLock { $0.isFinished } }

    /// Asks the fetch to stop: it checks before each batch, and its completion then gets
    /// ``AsynchronousFetchError/cancelled(completedUnitCount:totalUnitCount:)``. Cancelling a
    /// fetch that has ended, or whose last batch is loaded, does nothing: ``isCancelled``
    /// says whether the fetch ended cancelled.
    public func cancel() {
        state.withLock { state in
            if !state.isFinished { state.isCancelled = true }
        }
    }

    /// Records a step and posts it to ``updates``.
    func report(completed: Int, total: Int) {
        let update = Update(completedUnitCount: completed, totalUnitCount: total)
        state.withLock { $0.update = update }
        continuation.yield(update)
    }

    /// Marks the fetch ended (`cancelled` or not) and ends ``updates``.
    func finish(cancelled: Bool) {
        state.withLock { state in
            state.isFinished = true
            state.isCancelled = cancelled
        }
        continuation.finish()
    }
}
