/// A thread's request to run a synchronous block inside a context queue another thread is
/// inside: posted to ``SyncRendezvous`` by a thread that cannot enter the queue at once, run by
/// whichever thread inside the queue claims it first (see ``SyncRendezvous``).
///
/// `@unchecked Sendable`: every stored property is read and written only under the
/// rendezvous's lock, except `work`, which the claiming thread takes out under that lock and
/// runs while the requesting thread waits (so the block never runs on two threads at once).
final class SyncRequest: @unchecked Sendable {
    /// Where a request is.
    enum State {
        /// Posted, waiting for a thread to claim it (or for its requester to withdraw it).
        case pending
        /// Taken by a thread that is running it.
        case claimed
        /// Run; its requester may go on.
        case done
        /// Taken back by its requester (which entered the queue itself, or left to run another
        /// thread's request).
        case withdrawn
    }

    /// The queue the block must run inside.
    let target: ObjectIdentifier
    /// The queues the block runs inside: the requester's, then `target`.
    let carried: [ObjectIdentifier]
    /// The requester's queues that are halfway through an operation (see ``EnteredQueues``).
    let busy: [ObjectIdentifier]
    /// Where the request is.
    var state = State.pending
    /// The block, until a thread claims it or the requester withdraws the request.
    var work: (() -> Void)?

    init(
        target: ObjectIdentifier, carried: [ObjectIdentifier], busy: [ObjectIdentifier],
        work: @escaping () -> Void
    ) {
        self.target = target
        self.carried = carried
        self.busy = busy
        self.work = work
    }
}
