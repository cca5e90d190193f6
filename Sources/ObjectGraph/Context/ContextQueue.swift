import Foundation
import Synchronization

/// Where a context's work runs: how ``ManagedContext/performAndWait(_:)``, ``BackgroundContext``,
/// ``ContextExecutor`` and merges enter a context of each ``ManagedContext/ConcurrencyType``.
///
/// - `.privateQueue`: work runs under `gate`, a lock held for the length of each piece of work.
///   ``runSync(_:)`` takes it on the caller's own thread (as libdispatch's `sync` and Core
///   Data's `performAndWait` do: no thread hop, no wait when the queue is free);
///   ``runAsync(_:)`` hands work to `serial`, a serial dispatch queue whose items take the same
///   gate, so asynchronous items and synchronous entries exclude each other and each kind runs
///   in order.
/// - `.mainQueue`: the main queue (the main thread, or whichever thread libdispatch runs the
///   main queue's blocks on once `dispatchMain()` parked the main thread). ``runSync(_:)`` runs
///   inline there, and from elsewhere with `DispatchQueue.main.sync`; ``runAsync(_:)`` is `DispatchQueue.main.async`. The main
///   queue must be served (an app's run loop, `dispatchMain()`, an async `main`, the test
///   runner), as in Core Data.
/// - `.confined`: no queue; synchronous work runs inline, asynchronous work waits in an inbox
///   the context drains at its next ``ManagedContext/processPendingChanges()``, fetch or save.
///
/// Re-entrancy comes from ``EnteredQueues``: work entered on a thread records the queue there,
/// and a synchronous entry of a queue the thread is inside runs inline instead of taking the
/// gate again. A block run on the main queue for a waiting caller carries the caller's
/// entries, so `A.performAndWait { main.performAndWait { A.performAndWait { … } } }` works too.
///
/// Sendable: `kind` and `label` are constants, `serial` and `gate` are thread-safe, the inbox
/// is ``Locked``, its count an atomic.
final class ContextQueue: Sendable {
    /// How the queue binds work.
    let kind: ManagedContext.ConcurrencyType
    /// The serial dispatch queue asynchronous work of a private queue runs on.
    private let serial: DispatchQueue?
    /// Held while a piece of a private queue's work runs, synchronous or asynchronous.
    private let gate: NSLock?
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
            gate = NSLock()
        } else {
            serial = nil
            gate = nil
        }
    }

    private var identity: ObjectIdentifier { ObjectIdentifier(self) }

    /// Whether the current thread is inside this queue: in a block of it (entered on this
    /// thread, or carried by a caller waiting on it), or, for the main queue, on the main
    /// thread. Always true for a confined queue (the compiler checks its isolation).
    var isCurrent: Bool {
        switch kind {
        case .confined: return true
        case .mainQueue:
            return Self.isOnMainQueue
        case .privateQueue:
            return EnteredQueues.existing?.contains(identity) ?? false
        }
    }

    /// Runs `body` inside the queue and waits for it: inline when the thread is inside the
    /// queue already (or the queue is confined), else on this thread once the queue is free
    /// (a private queue), or on the main queue.
    func runSync<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        switch kind {
        case .confined:
            return try body()
        case .privateQueue:
            let entered = EnteredQueues.current
            if entered.contains(identity) { return try body() }
            // `gate` is set for a private queue (see `init`).
            guard let gate else { return try body() }
            gate.lock()
            defer { gate.unlock() }
            return try entered.with(identity, body)
        case .mainQueue:
            if Self.isOnMainQueue { return try body() }
            let carried = (EnteredQueues.existing?.entries ?? []) + [identity]
            // `body` (not `Sendable`) runs on the main queue while this thread waits for it,
            // so the two never run at once: the caller's state is only lent. Named through a
            // constant, `DispatchQueue.main.sync` would make the block main-actor isolated and
            // refuse to take `body` along.
            let main = DispatchQueue.main
            let result: Result<T, E> = main.sync {
                EnteredQueues.current.with(carried) { () -> Result<T, E> in
                    do throws(E) { return .success(try body()) } catch { return .failure(error) }
                }
            }
            return try result.get()
        }
    }

    /// Runs `work` inside the queue later: on a private queue's serial dispatch queue, on the
    /// main queue, or (confined) at the context's next drain (``drain()``).
    func runAsync(_ work: @escaping @Sendable () -> Void) {
        switch kind {
        case .privateQueue:
            guard let serial, let gate else { return }
            serial.async { [identity] in
                gate.lock()
                defer { gate.unlock() }
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
