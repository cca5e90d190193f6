import Foundation
import Synchronization

extension ManagedContext {
    /// The results of `request` as an asynchronous sequence of snapshots: the results now,
    /// then a new snapshot after each change that alters them (objects entering, leaving or
    /// moving; sections; IDs a save makes permanent), kept up to date as a
    /// ``FetchedResultsController`` keeps its results. A slow reader gets the newest snapshot.
    /// The sequence ends when the context goes or the reader stops; it throws when the request
    /// cannot be fetched (no sort descriptors, an unknown entity) or an update fails.
    ///
    /// ```swift
    /// var request = FetchRequest<Student>()
    /// request.sortDescriptors = [SortDescriptor("name")]
    /// for try await snapshot in context.results(of: request) {
    ///     print(snapshot.ids.count, "students")
    /// }
    /// ```
    public func results<T: ManagedObject>(
        of request: FetchRequest<T>, sectionNameKeyPath: String? = nil
    ) -> AsyncThrowingStream<ResultsSnapshot, any Error> {
        let (stream, continuation) = AsyncThrowingStream<ResultsSnapshot, any Error>.makeStream(
            bufferingPolicy: .bufferingNewest(1))
        let tracker: ResultsTracker<T>
        do {
            tracker = try ResultsTracker(request: request, sectionNameKeyPath: sectionNameKeyPath)
            try tracker.fetch(in: self)
        } catch {
            continuation.finish(throwing: error)
            return stream
        }
        continuation.yield(tracker.snapshot())
        let follower = ResultsFollower(continuation)
        let stopped = follower.stopped
        continuation.onTermination = { _ in stopped.withLock { $0 = true } }
        // Takes the context as an argument: capturing `self` here would make the context hold
        // itself through its observers.
        func follow(
            in context: ManagedContext,
            _ update: (ManagedContext) throws -> ResultsTracker<T>.Outcome
        ) {
            do {
                let outcome = try update(context)
                if outcome.idsChanged || outcome.difference?.changesIDs == true {
                    follower.continuation.yield(tracker.snapshot())
                }
            } catch {
                follower.continuation.finish(throwing: error)
                follower.stop()
            }
        }
        follower.observation = observe { [weak self, follower] notification in
            guard let self, !follower.stopped.withLock({ $0 }) else { return follower.stop() }
            follow(in: self) { try tracker.update(with: notification, in: $0) }
        }
        follower.mergeObservation = observeMerges { [weak self, follower] change in
            guard let self, !follower.stopped.withLock({ $0 }) else { return follower.stop() }
            follow(in: self) { try tracker.updateAfterMerge(change, in: $0) }
        }
        return stream
    }

    /// Calls `handler` with what another context saved each time it is merged here, after
    /// the merge's objects-did-change.
    func observeMerges(_ handler: @escaping (ContextChange) -> Void) -> ContextObservation {
        let key = UUID()
        mergeObservers[key] = handler
        return ContextObservation { [weak self] in self?.mergeObservers[key] = nil }
    }
}

/// What a ``ManagedContext/results(of:sectionNameKeyPath:)`` sequence's observer holds: its
/// continuation, which it finishes when released (when the context, holding the observer,
/// goes), and its observation, cancelled when the reader stops.
private final class ResultsFollower {
    let continuation: AsyncThrowingStream<ResultsSnapshot, any Error>.Continuation
    /// Set (from any thread, under its mutex) when the reader stopped reading.
    let stopped = StopFlag()
    var observation: ContextObservation?
    var mergeObservation: ContextObservation?

    init(_ continuation: AsyncThrowingStream<ResultsSnapshot, any Error>.Continuation) {
        self.continuation = continuation
    }

    func stop() {
        observation?.cancel()
        observation = nil
        mergeObservation?.cancel()
        mergeObservation = nil
    }

    deinit { continuation.finish() }
}

/// A flag set from the stream's termination handler (any thread) and read on the context's
/// thread: `Sendable` through its mutex.
private final class StopFlag: Sendable {
    private let flag = Mutex(false)

    func withLock<R>(_ body: (inout Bool) -> R) -> R { flag.withLock { body(&$0) } }
}
