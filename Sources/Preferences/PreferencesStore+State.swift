import Foundation

extension PreferencesStore {
    /// Everything mutable about an instance; guarded by the store's `lock`.
    struct State {
        /// Registered defaults (memory only).
        var registered: [String: PreferenceValue] = [:]
        /// The file's values as last read, overlaid with ``pending``.
        var persisted: [String: PreferenceValue] = [:]
        /// This instance's changes not yet written: a value, or `nil` for a removal.
        var pending: [String: PreferenceValue?] = [:]
        /// The version of the file ``persisted`` came from (`nil`: no file).
        var stamp: FileStamp?
        /// Whether the file was read at least once.
        var loaded = false
        var lastError: PreferencesError?
        var errorHandler: (@Sendable (PreferencesError) -> Void)?
        var observers: [String: [UInt64: Observer]] = [:]
        var nextObserverID: UInt64 = 0
        var autosaveScheduled = false
        var autosaveDelay: TimeInterval = 0.25

        /// The value a reader sees for `key`.
        func effective(_ key: String) -> PreferenceValue? {
            persisted[key] ?? registered[key]
        }

        /// Takes the file's `values`, keeping this instance's pending changes on top.
        mutating func install(_ values: [String: PreferenceValue], stamp: FileStamp?) {
            persisted = values
            for (key, change) in pending {
                if let change {
                    persisted[key] = change
                } else {
                    persisted.removeValue(forKey: key)
                }
            }
            self.stamp = stamp
            loaded = true
        }

        /// Queues notifications for `key` if its value is no longer `old`.
        func notify(_ key: String, old: PreferenceValue?, into outbox: inout Outbox) {
            let new = effective(key)
            guard old != new, let list = observers[key] else { return }
            for id in list.keys.sorted() {
                if let observer = list[id] { outbox.notifications.append((observer.handler, new)) }
            }
        }

        /// Records `error` and queues it for the error handler (once, if `onlyIfNew` and it is
        /// the error already recorded).
        mutating func report(
            _ error: PreferencesError, onlyIfNew: Bool, into outbox: inout Outbox
        ) {
            if onlyIfNew, lastError == error { return }
            lastError = error
            if let errorHandler { outbox.errors.append((errorHandler, error)) }
        }

        /// The convertible values of a dictionary read from a property list.
        static func values(from dictionary: [String: Any]) -> [String: PreferenceValue] {
            var values: [String: PreferenceValue] = [:]
            for (key, object) in dictionary {
                if let value = PreferenceValue(propertyListObject: object) { values[key] = value }
            }
            return values
        }
    }

    /// One observer of a key.
    struct Observer: Sendable {
        let handler: @Sendable (PreferenceValue?) -> Void
        /// Ends an `AsyncStream` when the preferences go away.
        let finish: (@Sendable () -> Void)?
    }

    /// Calls to make once the lock is released.
    struct Outbox {
        var errors: [(@Sendable (PreferencesError) -> Void, PreferencesError)] = []
        var notifications: [(@Sendable (PreferenceValue?) -> Void, PreferenceValue?)] = []

        func deliver() {
            for (handler, error) in errors { handler(error) }
            for (handler, value) in notifications { handler(value) }
        }
    }
}
