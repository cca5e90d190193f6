import Foundation

/// Where threads that cannot enter a context queue at once wait, and where they run each
/// other's synchronous blocks so that no cycle of synchronous entries can deadlock.
///
/// A thread that finds a private queue's ``QueueGate`` held, or that needs the main queue from
/// another thread, waits here. If it is inside other queues itself (it entered them, or runs the
/// main queue), it may be what the holder waits for — thread 1 inside `A` asking for `B` while
/// thread 2 inside `B` asks for `A`, or the main thread asking for a private child whose block
/// reads through the view context — so while it waits it:
/// - posts a ``SyncRequest`` for its block (unless it runs the main queue: main-actor code stays
///   on the main queue), and waits for the gate to come free or its request to be run, whichever
///   comes first; a request for the main queue is also handed to `DispatchQueue.main.async`, so
///   a free main queue runs it as `DispatchQueue.main.sync` would;
/// - runs, on its own thread, the requests other threads posted for the queues it is inside,
///   with the requester's entered queues carried (see ``EnteredQueues``), while the requester
///   waits: the holder lends its queues to the requester exactly as a main-queue block lends
///   the main queue to a caller waiting in `DispatchQueue.main.sync`.
///
/// A thread takes its own request back before running another's, and does not run others'
/// while its own is being run: the queues it is inside are then in use by the thread running
/// its block, which serves them in its place. So each queue is served by exactly one thread at
/// a time, and in any cycle of waiting threads the one a requester waits on runs the request:
/// the cycle breaks instead of deadlocking. A thread inside no queue (a dispatch worker taking
/// the gate for an asynchronous item) only waits for the gate: no one can be waiting for it.
///
/// A child context calling its parent (ObjectGraph's own work, halfway through the child's
/// fetch, fault or save) marks the child busy in ``EnteredQueues``: a thread waiting then runs
/// no other thread's block on the child (it would see, and could save, the half-done
/// operation's state), and a main-queue child's call, being library code, may be posted for
/// another thread to run. Every cycle still has a thread that serves: parent chains never
/// loop, so not every thread in a cycle can be waiting from a busy child for its parent.
///
/// Everything here is the contended path; a free gate never reaches it. One lock and one
/// condition serve every queue: the condition is broadcast when a request is posted or run and
/// when a gate someone waits for is released.
///
/// `@unchecked Sendable`: `pending` and the requests' states are touched only under
/// `condition`'s lock.
final class SyncRendezvous: @unchecked Sendable {
    /// The one rendezvous of the process.
    static let shared = SyncRendezvous()

    /// The identity standing for the main queue among a thread's queues: every main-queue
    /// context shares the main queue.
    static let mainQueue = ObjectIdentifier(MainQueueToken.token)

    /// How a synchronous entry ended.
    enum Entry<T, E: Error> {
        /// The caller holds the gate now: it runs the block itself, then releases the gate.
        case acquired
        /// Another thread ran the block for the caller, with this outcome.
        case ran(Result<T, E>)
    }

    private let condition = NSCondition()
    /// The requests no thread has claimed yet, oldest first.
    private var pending: [SyncRequest] = []

    private init() {}

    /// Waits until `gate` is free (and takes it) or another thread inside the gate's queue ran
    /// `body` for this one. `thread` is this thread's ``EnteredQueues``, `onMainQueue` whether
    /// it runs the main queue, `target` the gate's queue, and `libraryCall` whether `body` is
    /// ObjectGraph's own work for a context halfway through an operation (a child calling its
    /// parent) rather than a caller's block.
    func enter<T, E: Error>(
        _ target: ObjectIdentifier, gate: QueueGate, from thread: EnteredQueues,
        onMainQueue: Bool, libraryCall: Bool, _ body: () throws(E) -> T
    ) -> Entry<T, E> {
        let entries = onMainQueue ? thread.entries + [Self.mainQueue] : thread.entries
        // Only a thread inside other queues can be waited for. A main-queue thread does not
        // hand a caller's block to others (it is main-actor code); it serves theirs.
        let posts = !entries.isEmpty && (!onMainQueue || libraryCall)
        return wait(
            for: target, gate: gate, entries: entries, busy: thread.busy, posts: posts, body)
    }

    /// Runs `body` on the main queue for a thread that does not run it, and returns its
    /// outcome: run by the main thread if it is waiting here (see
    /// ``enter(_:gate:from:onMainQueue:libraryCall:_:)``), else by a block handed to
    /// `DispatchQueue.main.async`, whichever comes first.
    func runOnMainQueue<T, E: Error>(from thread: EnteredQueues, _ body: () throws(E) -> T)
        -> Result<T, E>
    {
        // Without a gate to take, the wait ends only when the block ran.
        while true {
            let entry = wait(
                for: Self.mainQueue, gate: nil, entries: thread.entries, busy: thread.busy,
                posts: true, body)
            if case .ran(let outcome) = entry { return outcome }
        }
    }

    /// Waits for a gate alone: for a thread inside no queue (an asynchronous item's worker).
    func acquire(_ gate: QueueGate) {
        condition.lock()
        while !gate.acquireOrMarkWaited() { condition.wait() }
        condition.unlock()
    }

    /// Wakes the waiting threads: a gate someone waits for was released.
    func wake() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// The wait: takes `gate` when it comes free, runs meanwhile the requests posted for the
    /// queues in `entries` but not in `busy`, and (when `posts`) keeps a request for `body`
    /// posted while it can be run by another thread.
    private func wait<T, E: Error>(
        for target: ObjectIdentifier, gate: QueueGate?, entries: [ObjectIdentifier],
        busy: [ObjectIdentifier], posts: Bool, _ body: () throws(E) -> T
    ) -> Entry<T, E> {
        let held = busy.isEmpty ? entries : entries.filter { !busy.contains($0) }
        return withoutActuallyEscaping(body) { body -> Entry<T, E> in
            // Written by the thread that runs the request, read here once it is done (both
            // under `condition`'s lock, which orders them).
            var outcome: Result<T, E>?
            condition.lock()
            defer { condition.unlock() }
            var own: SyncRequest?
            while true {
                if let request = own {
                    if request.state == .done, let outcome { return .ran(outcome) }
                    // Being run elsewhere: this thread's queues are lent to that thread.
                    if request.state == .claimed {
                        condition.wait()
                        continue
                    }
                }
                if let gate, gate.acquireOrMarkWaited() {
                    if let request = own { withdraw(request) }
                    return .acquired
                }
                if let index = pending.firstIndex(where: { $0 !== own && held.contains($0.target) })
                {
                    let other = pending.remove(at: index)
                    if let request = own {
                        withdraw(request)
                        own = nil
                    }
                    run(other)
                    continue
                }
                if own == nil, posts {
                    let request = SyncRequest(
                        target: target, carried: entries + [target], busy: busy
                    ) {
                        outcome = Result { () throws(E) -> T in try body() }
                    }
                    pending.append(request)
                    own = request
                    if gate == nil {
                        DispatchQueue.main.async { SyncRendezvous.shared.runIfPending(request) }
                    }
                    condition.broadcast()
                }
                condition.wait()
            }
        }
    }

    /// Runs `request` on the main queue unless a thread claimed it or its requester took it
    /// back first.
    private func runIfPending(_ request: SyncRequest) {
        condition.lock()
        defer { condition.unlock() }
        guard request.state == .pending else { return }
        pending.removeAll { $0 === request }
        run(request)
    }

    /// Claims `request` (already out of `pending`) and runs it on this thread with its
    /// requester's queues carried, the lock released meanwhile; then wakes its requester.
    /// Called, and returns, with the lock held.
    private func run(_ request: SyncRequest) {
        request.state = .claimed
        var work = request.work
        request.work = nil
        condition.unlock()
        EnteredQueues.current.with(request.carried, busy: request.busy) { work?() }
        // Let go of the block before its requester returns (it was lent for the wait only).
        work = nil
        condition.lock()
        request.state = .done
        condition.broadcast()
    }

    /// Takes `request` back (its requester entered the queue itself, or runs another request).
    private func withdraw(_ request: SyncRequest) {
        guard request.state == .pending else { return }
        request.state = .withdrawn
        request.work = nil
        pending.removeAll { $0 === request }
    }
}

/// The object whose identity stands for the main queue (``SyncRendezvous/mainQueue``).
private final class MainQueueToken: Sendable {
    static let token = MainQueueToken()
}
