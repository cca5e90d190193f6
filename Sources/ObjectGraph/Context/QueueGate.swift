import Synchronization

/// The lock of a private context queue: held for each piece of the queue's work, synchronous or
/// asynchronous.
///
/// A futex-style lock in one atomic word: `0` free, `1` held, `2` held while some thread may wait
/// in ``SyncRendezvous`` for it. Taking a free gate is one compare-and-exchange and releasing an
/// uncontended one is one exchange (no lock, no wake-up); a thread that finds it held waits in
/// the rendezvous, which a release of a gate marked `2` wakes. Unlike a mutex, any thread may
/// release it, and a waiting thread can do other work (run requests posted to the queues it is
/// inside) instead of sleeping in the lock.
///
/// Sendable: its one stored property is an atomic.
final class QueueGate: Sendable {
    private let state = Atomic<Int>(0)

    /// Takes the gate if it is free (the uncontended path).
    @inline(__always)
    func tryAcquire() -> Bool {
        state.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
    }

    /// Takes the gate if it is free, else marks it as waited for, so its release wakes the
    /// rendezvous. Called only by a thread about to wait in ``SyncRendezvous`` (under its lock).
    func acquireOrMarkWaited() -> Bool {
        state.exchange(2, ordering: .acquiringAndReleasing) == 0
    }

    /// Releases the gate, waking the threads waiting for it, if any.
    @inline(__always)
    func release() {
        if state.exchange(0, ordering: .releasing) == 2 { SyncRendezvous.shared.wake() }
    }
}
