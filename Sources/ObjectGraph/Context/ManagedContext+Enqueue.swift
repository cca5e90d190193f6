/// STAND-IN for the "queues" helper's `enqueue` (issue 17, CONCURRENCY.md): the real one runs
/// `work` later on the context's own queue. Until it is merged, work runs at once, inline, as
/// a confined context's would when its inbox is drained; delete this file at the merge.
extension ManagedContext {
    /// Runs `work` on the context's queue (here: at once).
    func enqueue(_ work: @escaping @Sendable (ManagedContext) -> Void) {
        work(self)
    }
}
