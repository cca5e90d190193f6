/// The executor of a ``ModelActor``: runs the actor's jobs on its ``BackgroundContext``'s queue,
/// so the actor's methods and the context's `perform` blocks exclude each other and the actor
/// may use the context synchronously.
///
/// ```swift
/// actor Importer: ModelActor {
///     nonisolated let modelExecutor: ContextExecutor
///     init(container: PersistentContainer) {
///         modelExecutor = ContextExecutor(container: container)
///     }
/// }
/// ```
public final class ContextExecutor: SerialExecutor, Sendable {
    /// The context whose queue runs the jobs.
    public let backgroundContext: BackgroundContext

    /// An executor running jobs on `context`'s queue.
    public init(_ context: BackgroundContext) {
        backgroundContext = context
    }

    /// An executor on a new background context of `container`.
    public convenience init(container: PersistentContainer) {
        self.init(container.newBackgroundContext())
    }

    /// Runs `job` on the context's queue (after the work handed to it before).
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        backgroundContext.context.queue.runAsync { [self] in
            job.runSynchronously(on: asUnownedSerialExecutor())
        }
    }

    /// Whether the current thread is inside the context's queue (what isolation checks ask
    /// first, before ``checkIsolated()``).
    public func isIsolatingCurrentContext() -> Bool? {
        backgroundContext.context.queue.isCurrent
    }

    /// Stops the program unless the current thread is inside the context's queue (what
    /// `assumeIsolated` and isolation checks ask).
    public func checkIsolated() {
        precondition(
            backgroundContext.context.queue.isCurrent,
            "not on the queue of the ModelActor's context")
    }
}
