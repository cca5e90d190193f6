import Foundation

/// Keeps an observation of a preference alive; cancels it when cancelled or released.
///
/// ```swift
/// let observation = preferences.observe("theme") { value in apply(value) }
/// // … later
/// observation.cancel()
/// ```
public final class PreferenceObservation: @unchecked Sendable {
    // `lock` protects `cancellation`, which is called at most once.
    private let lock = NSLock()
    private var cancellation: (@Sendable () -> Void)?

    init(cancellation: @escaping @Sendable () -> Void) {
        self.cancellation = cancellation
    }

    deinit { cancel() }

    /// Stops the observation; calling it again does nothing.
    public func cancel() {
        let action = lock.withLock { () -> (@Sendable () -> Void)? in
            defer { cancellation = nil }
            return cancellation
        }
        action?()
    }
}

extension Preferences {
    /// Calls `handler` with the new value (or `nil` once removed) each time the value a
    /// reader sees for `key` changes in this process (through any instance for this file): a
    /// set, a removal, or a newly registered default. The handler runs on the thread that made the change, after the
    /// change is visible. Keep the returned observation as long as you want the calls.
    public func observe(
        _ key: String, handler: @escaping @Sendable (PreferenceValue?) -> Void
    ) -> PreferenceObservation {
        let store = self.store
        let id = store.addObserver(key, PreferencesStore.Observer(handler: handler, finish: nil))
        return PreferenceObservation { [weak store] in store?.removeObserver(key, id: id) }
    }

    /// Like ``observe(_:handler:)``, with the value converted to `type` (`nil` when removed
    /// or not convertible).
    public func observe<T: PreferenceConvertible>(
        _ key: String, as type: T.Type, handler: @escaping @Sendable (T?) -> Void
    ) -> PreferenceObservation {
        observe(key) { value in handler(value.flatMap(T.init(preferenceValue:))) }
    }

    /// The changes of `key` made in this process, as an asynchronous sequence; it ends when
    /// every instance for this file is released, and stops observing when the iteration ends.
    ///
    /// ```swift
    /// for await theme in preferences.changes(forKey: "theme") { apply(theme) }
    /// ```
    public func changes(forKey key: String) -> AsyncStream<PreferenceValue?> {
        let store = self.store
        return AsyncStream { continuation in
            let id = store.addObserver(
                key,
                PreferencesStore.Observer(
                    handler: { value in continuation.yield(value) },
                    finish: { continuation.finish() }))
            continuation.onTermination = { [weak store] _ in store?.removeObserver(key, id: id) }
        }
    }

    /// Like ``changes(forKey:)``, with the values converted to `type`.
    public func changes<T: PreferenceConvertible>(forKey key: String, as type: T.Type)
        -> AsyncStream<T?>
    {
        let values = changes(forKey: key)
        return AsyncStream { continuation in
            let task = Task {
                for await value in values {
                    continuation.yield(value.flatMap(T.init(preferenceValue:)))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
