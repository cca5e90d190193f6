import Foundation
import Synchronization

/// Where a context's work runs: how ``ManagedContext/performAndWait(_:)``, ``BackgroundContext``,
/// ``ContextExecutor`` and merges enter a context of each ``ManagedContext/ConcurrencyType``.
///
/// - `.privateQueue`: work runs under `gate` (a ``QueueGate``), held for the length of each
///   piece of work. ``runSync(_:)`` takes it on the caller's own thread (as libdispatch's
///   `sync` and Core Data's `performAndWait` do: no thread hop, and a free gate costs one
///   compare-and-exchange and one exchange); ``runAsync(_:)`` hands work to `serial`, a serial
///   dispatch queue whose items take the same gate, so asynchronous items and synchronous
///   entries exclude each other and each kind runs in order.
/// - `.mainQueue`: the main queue (the main thread, or whichever thread libdispatch runs the
///   main queue's blocks on once `dispatchMain()` parked the main thread). ``runSync(_:)`` runs
///   inline there; from elsewhere it posts the block to ``SyncRendezvous`` and hands it to
///   `DispatchQueue.main.async` too: the main thread runs it while it waits for a private queue,
///   or the main queue once it is free, whichever comes first. ``runAsync(_:)`` is
///   `DispatchQueue.main.async`. The main queue must be served (an app's run loop,
///   `dispatchMain()`, an async `main`, the test runner), as in Core Data.
/// - `.confined`: no queue; synchronous work runs inline, asynchronous work waits in an inbox
///   the context drains at its next ``ManagedContext/processPendingChanges()``, fetch or save.
///
/// Re-entrancy comes from ``EnteredQueues``: work entered on a thread records the queue there,
/// and a synchronous entry of a queue the thread is inside runs inline instead of taking the
/// gate again. No cycle of synchronous entries deadlocks: a thread that must wait for a queue
/// while it is inside others runs, meanwhile, the blocks other threads post for the queues it
/// is inside (``SyncRendezvous``); a block run for a waiting caller carries the caller's
/// entries, so `A.performAndWait { main.performAndWait { A.performAndWait { … } } }` works, and
/// so do a thread inside `A` asking for `B` while another inside `B` asks for `A`.
///
/// Sendable: `kind` and `label` are constants, `serial` and `gate` are thread-safe, the inbox
/// is ``Locked``, its count an atomic.
final class ContextQueue: Sendable {
    /// How the queue binds work.
    let kind: ManagedContext.ConcurrencyType
    /// The serial dispatch queue asynchronous work of a private queue runs on.
    private let serial: DispatchQueue?
    /// Held while a piece of a private queue's work runs, synchronous or asynchronous.
    private let gate: QueueGate?
    /// Asynchronous work for a confined context, run at its next drain.
    private let inbox = Locked<[@Sendable () -> Void]>([])
    /// How many items are in `inbox` (read without the lock, so a context with nothing queued
    /// pays one load).
    private let inboxCount = Atomic<Int>(0)

    /// A queue of `kind`; `label` names a private queue's dispatch queue (for debuggers).
    init(kind: ManagedContext.ConcurrencyType, label: String = "ObjectGraph.ManagedContext") {
        self.kind = kind
        if kind == .privateQueue {
            serial = DispatchQueue(label: label)
            gate = QueueGate()
        } else {
            serial = nil
            gate = nil
        }
    }

    private var identity: ObjectIdentifier { ObjectIdentifier(self) }

    /// The identity under which a waiting thread serves requests for this queue
    /// (``SyncRendezvous``): its own for a private queue, the main queue's for a main-queue
    /// one, none for a confined one (no other thread enters it).
    var servedAs: ObjectIdentifier? {
        switch kind {
        case .privateQueue: return identity
        case .mainQueue: return SyncRendezvous.mainQueue
        case .confined: return nil
        }
    }

    /// Whether the current thread is inside this queue: in a block of it (entered on this
    /// thread, or carried by a caller waiting on it), or, for the main queue, on the main
    /// thread. Always true for a confined queue (the compiler checks its isolation).
    var isCurrent: Bool {
        switch kind {
        case .confined: return true
        case .mainQueue:
            // A main-queue thread's ObjectGraph work run for it by another thread carries the
            // main queue along (see `SyncRendezvous`).
            return Self.isOnMainQueue
                || EnteredQueues.existing?.contains(SyncRendezvous.mainQueue) ?? false
        case .privateQueue:
            return EnteredQueues.existing?.contains(identity) ?? false
        }
    }

    /// Runs `body` inside the queue and waits for it: inline when the thread is inside the
    /// queue already (or the queue is confined), else on this thread once the queue is free
    /// (a private queue), or on the main queue.
    func runSync<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try run(body, libraryCall: false)
    }

    /// ``runSync(_:)`` for ObjectGraph's own work while the context of `busy` is halfway
    /// through an operation (a child calling its parent): while this thread waits, here or in
    /// anything `body` enters, it runs no other thread's block on `busy` (see
    /// ``SyncRendezvous``), and a main-queue caller's wait may be served by another thread.
    func runSync<T, E: Error>(midOperationOf busy: ContextQueue?, _ body: () throws(E) -> T)
        throws(E) -> T
    {
        guard let marked = busy?.servedAs else { return try run(body, libraryCall: false) }
        return try EnteredQueues.current.marking(marked) { () throws(E) -> T in
            try run(body, libraryCall: true)
        }
    }

    private func run<T, E: Error>(_ body: () throws(E) -> T, libraryCall: Bool) throws(E) -> T {
        switch kind {
        case .confined:
            return try body()
        case .privateQueue:
            let entered = EnteredQueues.current
            if entered.contains(identity) { return try body() }
            // `gate` is set for a private queue (see `init`).
            guard let gate else { return try body() }
            if !gate.tryAcquire() {
                // Held: wait for it, or for the holder to run `body` for this thread.
                let entry = SyncRendezvous.shared.enter(
                    identity, gate: gate, from: entered, onMainQueue: Self.isOnMainQueue,
                    libraryCall: libraryCall, body)
                if case .ran(let outcome) = entry { return try outcome.get() }
            }
            defer { gate.release() }
            return try entered.with(identity, body)
        case .mainQueue:
            if Self.isOnMainQueue { return try body() }
            let entered = EnteredQueues.current
            // Carried here from a main-queue thread waiting for this one.
            if entered.contains(SyncRendezvous.mainQueue) { return try body() }
            // `body` (not `Sendable`) runs on the main queue while this thread waits for it,
            // so the two never run at once: the caller's state is only lent.
            return try SyncRendezvous.shared.runOnMainQueue(from: entered, body).get()
        }
    }

    /// Runs `work` inside the queue later: on a private queue's serial dispatch queue, on the
    /// main queue, or (confined) at the context's next drain (``drain()``).
    func runAsync(_ work: @escaping @Sendable () -> Void) {
        switch kind {
        case .privateQueue:
            guard let serial, let gate else { return }
            serial.async { [identity] in
                // A worker thread inside no queue: no one waits for it, so it only waits.
                if !gate.tryAcquire() { SyncRendezvous.shared.acquire(gate) }
                defer { gate.release() }
                EnteredQueues.current.with(identity, work)
            }
        case .mainQueue:
            DispatchQueue.main.async(execute: work)
        case .confined:
            inbox.withLock { $0.append(work) }
            inboxCount.add(1, ordering: .releasing)
        }
    }

    /// Marks the main queue, so a block can tell it runs there: once `dispatchMain()` (or an
    /// async `main`) parks the main thread, libdispatch runs the main queue's blocks — and the
    /// main actor's jobs — on worker threads, so `Thread.isMainThread` alone cannot say.
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether the current thread runs the main queue: the main thread, or a block of the main
    /// queue (the main actor's jobs among them).
    static var isOnMainQueue: Bool {
        Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) == true
    }

    /// Whether a confined queue holds work for its next drain (one atomic load).
    var hasQueuedWork: Bool { inboxCount.load(ordering: .acquiring) > 0 }

    /// Runs the work waiting in a confined queue's inbox, in the order it came; work queued
    /// meanwhile waits for the next drain.
    func drain() {
        let work = inbox.withLock { items -> [@Sendable () -> Void] in
            let taken = items
            items.removeAll()
            return taken
        }
        guard !work.isEmpty else { return }
        inboxCount.subtract(work.count, ordering: .releasing)
        for item in work { item() }
    }
}
