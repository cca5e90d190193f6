import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The context queues the current thread is inside, innermost last: one per thread, kept in
/// thread-specific storage (`pthread_getspecific`).
///
/// A queue is entered by ``ContextQueue/runSync(_:)`` (on the caller's thread) and by the work
/// items ``ContextQueue/runAsync(_:)`` runs. Asking "am I inside this queue?" is one
/// thread-specific read and a scan of a list a few entries long; it is what makes
/// `performAndWait` re-entrant (`parent.performAndWait { child.performAndWait {
/// parent.performAndWait { … } } }` runs inline) and what the debug detector asks.
///
/// Only its own thread touches an instance, so it needs no lock. A block that
/// ``SyncRendezvous`` runs on another thread for a waiting caller (on the main queue, or on the
/// thread holding the queue the caller waits for) takes the caller's entries along for its
/// duration (the caller is blocked meanwhile): work of the queues the caller is inside may run
/// inline there too, and the debug detector counts the block as inside them.
///
/// It also lists the queues whose context is halfway through an operation on this thread (a
/// child context calling its parent in the middle of a fetch, fault or save): while this
/// thread waits for another queue it runs no other thread's block on those (see
/// ``SyncRendezvous``).
final class EnteredQueues {
    /// The queues entered, innermost last (a queue is there once per entry).
    private(set) var entries: [ObjectIdentifier] = []
    /// The queues whose context is halfway through an operation (once per operation).
    private(set) var busy: [ObjectIdentifier] = []

    private init() {}

    /// Whether `queue` is among the entered queues.
    func contains(_ queue: ObjectIdentifier) -> Bool {
        // Innermost first: the common question is about the queue entered last.
        var index = entries.count
        while index > 0 {
            index -= 1
            if entries[index] == queue { return true }
        }
        return false
    }

    /// Runs `body` with `queues` entered (in order) on top of the current entries.
    func with<T, E: Error>(_ queues: [ObjectIdentifier], _ body: () throws(E) -> T) throws(E) -> T {
        let depth = entries.count
        entries += queues
        defer { entries.removeSubrange(depth...) }
        return try body()
    }

    /// Runs `body` with `queues` entered and `busy` marked as halfway through an operation:
    /// a block run for a waiting thread takes that thread's state along.
    func with<T, E: Error>(
        _ queues: [ObjectIdentifier], busy marked: [ObjectIdentifier], _ body: () throws(E) -> T
    ) throws(E) -> T {
        let depth = busy.count
        busy += marked
        defer { busy.removeSubrange(depth...) }
        return try with(queues, body)
    }

    /// Runs `body` with `queue` marked as halfway through an operation.
    func marking<T, E: Error>(_ queue: ObjectIdentifier, _ body: () throws(E) -> T) throws(E) -> T {
        busy.append(queue)
        defer { busy.removeLast() }
        return try body()
    }

    /// Runs `body` with `queue` entered.
    func with<T, E: Error>(_ queue: ObjectIdentifier, _ body: () throws(E) -> T) throws(E) -> T {
        entries.append(queue)
        defer { entries.removeLast() }
        return try body()
    }

    /// The key of the thread-specific slot; its destructor releases a finished thread's
    /// instance.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
                Unmanaged<EnteredQueues>.fromOpaque(pointer).release()
            #else
                if let pointer { Unmanaged<EnteredQueues>.fromOpaque(pointer).release() }
            #endif
        }
        // Only fails when the process ran out of keys (PTHREAD_KEYS_MAX, 1,024 on Linux):
        // nothing could work then.
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    /// The current thread's instance, made on first use.
    static var current: EnteredQueues {
        if let existing = existing { return existing }
        let made = EnteredQueues()
        pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
        return made
    }

    /// The current thread's instance, if it ever entered a queue (makes nothing).
    static var existing: EnteredQueues? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<EnteredQueues>.fromOpaque(pointer).takeUnretainedValue()
    }
}
