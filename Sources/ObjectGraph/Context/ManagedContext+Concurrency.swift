/// How a context is bound to a thread or queue, and how work enters it.
extension ManagedContext {
    /// How a context is bound (Core Data's `NSManagedObjectContextConcurrencyType`, plus the
    /// confinement every context made with ``ManagedContext/init(coordinator:concurrencyType:classes:undoManager:)``'s
    /// default has).
    ///
    /// ```swift
    /// let scratch = ManagedContext(coordinator: coordinator)            // .confined
    /// let background = BackgroundContext(coordinator: coordinator)      // .privateQueue
    /// let view = await container.viewContext                            // .mainQueue
    /// ```
    public enum ConcurrencyType: Sendable, Hashable {
        /// The isolation domain that holds the context (a thread, a task, an actor): the
        /// compiler checks it, as the context is not `Sendable`; there is no runtime check.
        /// ``ManagedContext/performAndWait(_:)`` runs inline.
        case confined
        /// The main queue (the main actor). Work from other threads enters through
        /// ``ManagedContext/performAndWait(_:)``, which runs it on the main queue.
        case mainQueue
        /// Its own serial queue. Work enters only through ``BackgroundContext``'s `perform`
        /// and `performAndWait`, a ``ModelActor``, or the context's own
        /// ``ManagedContext/performAndWait(_:)`` from inside one of those.
        case privateQueue
    }

    /// How the context is bound (see ``ConcurrencyType``).
    public var concurrencyType: ConcurrencyType { queue.kind }

    /// Runs `body` inside the context's queue and waits for it, returning its value or
    /// rethrowing its error (Core Data's `performAndWait`).
    ///
    /// Re-entrant: on the context's own queue, or inside a block of any context entered on this
    /// thread (a parent's `performAndWait` called from a child's), it runs inline, so nesting
    /// never deadlocks. A free private queue runs `body` on the calling thread; a main-queue
    /// context runs it on the main queue (inline when called there). A confined context runs
    /// it inline.
    ///
    /// ```swift
    /// let count = try context.performAndWait {
    ///     try context.count(for: FetchRequest(entityName: "Person"))
    /// }
    /// ```
    ///
    /// Threads entering each other's queues do not deadlock: while a thread inside A waits for
    /// B, it runs the blocks other threads ask to run in A (one inside B asking for A, say) on
    /// its own thread, with their queues carried, and they run the same way for it. A block
    /// may then see its context changed by another thread's block across a `performAndWait`
    /// into another context, as with re-entrant nesting on one thread.
    public func performAndWait<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try queue.runSync(body)
    }

    /// Runs `work` later inside the context's queue: a private queue runs it on its dispatch
    /// queue, a main-queue context on the main queue, a confined context at its next
    /// ``processPendingChanges()``, fetch or save. `work` does not run if the context is gone
    /// by then.
    func enqueue(_ work: @escaping @Sendable (ManagedContext) -> Void) {
        QueuedContext(self).enqueue(work)
    }

    /// Runs what other threads queued for a confined context (``enqueue(_:)``): one atomic load
    /// when nothing is queued.
    @inline(__always)
    func drainQueuedWork() {
        if queue.hasQueuedWork { queue.drain() }
    }
}

/// A context, reachable from any thread only to hand it work on its own queue.
///
/// `@unchecked Sendable`: `context` is read only inside the context's queue (in the closures
/// ``enqueue(_:)`` hands to ``ContextQueue/runAsync(_:)``), where the context may be used; it
/// is set once, in `init`. The reference is weak, so queued work and save observers do not
/// keep a context alive.
final class QueuedContext: @unchecked Sendable {
    private weak var context: ManagedContext?
    private let queue: ContextQueue

    init(_ context: ManagedContext) {
        self.context = context
        queue = context.queue
    }

    /// Runs `work` with the context later, inside its queue (see
    /// ``ManagedContext/enqueue(_:)``); not at all if the context is gone by then.
    func enqueue(_ work: @escaping @Sendable (ManagedContext) -> Void) {
        queue.runAsync { [self] in
            guard let context else { return }
            work(context)
        }
    }
}
