import Synchronization

/// Who hears of the saves made through a coordinator: contexts that merge other contexts'
/// saves (``StoreCoordinator/saveObservers``).
///
/// The saving context posts its did-save notification after the stores committed; each handler
/// gets it with the saving context's identity (so a context can skip its own saves) and runs
/// on the saving thread, so handlers only hand the notification on (to the receiving context's
/// queue). The coordinator carries the notification without reading it: it is the contexts'
/// type, which this layer does not name, so it travels as `any Sendable` and the contexts' side
/// (`ManagedContext+AutomaticMerge.swift`) gives it its type back.
final class SaveObservers: Sendable {
    /// A handler: the notification and the identity of the context that saved.
    typealias Handler = @Sendable (any Sendable, ObjectIdentifier) -> Void

    private struct Entries {
        var next = 0
        var handlers: [Int: Handler] = [:]
    }

    private let entries = Locked(Entries())
    /// How many handlers there are (read without the lock: a save with no one listening pays
    /// one load).
    private let count = Atomic<Int>(0)

    init() {}

    /// Whether anyone listens.
    var isEmpty: Bool { count.load(ordering: .acquiring) == 0 }

    /// Adds `handler`; returns the token that removes it.
    func add(_ handler: @escaping Handler) -> Int {
        let token = entries.withLock { entries in
            let token = entries.next
            entries.next += 1
            entries.handlers[token] = handler
            return token
        }
        count.add(1, ordering: .releasing)
        return token
    }

    /// Removes the handler `token` names (nothing when it is gone already).
    func remove(_ token: Int) {
        let removed = entries.withLock { $0.handlers.removeValue(forKey: token) != nil }
        if removed { count.subtract(1, ordering: .releasing) }
    }

    /// Calls every handler with `notification` from `sender`, outside the lock (a handler may
    /// add or remove handlers).
    func post(_ notification: any Sendable, from sender: ObjectIdentifier) {
        let handlers = entries.withLock { Array($0.handlers.values) }
        for handler in handlers { handler(notification, sender) }
    }
}
