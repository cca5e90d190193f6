import Foundation

/// The live ``Preferences`` instances, whose pending changes are written when the process
/// exits (`atexit`; best effort: a crash or `_exit` skips it).
final class AutosaveRegistry: @unchecked Sendable {
    static let shared = AutosaveRegistry()

    /// A weak reference, so the registry keeps nobody alive.
    private final class Entry {
        weak var preferences: Preferences?
        init(_ preferences: Preferences) { self.preferences = preferences }
    }

    // `lock` protects `entries` and `installed`.
    private let lock = NSLock()
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var installed = false

    func add(_ preferences: Preferences) {
        lock.withLock {
            if !installed {
                installed = true
                atexit { AutosaveRegistry.shared.flushAll() }
            }
            entries[ObjectIdentifier(preferences)] = Entry(preferences)
        }
    }

    func remove(_ identifier: ObjectIdentifier) {
        lock.withLock { _ = entries.removeValue(forKey: identifier) }
    }

    /// Writes every live instance's pending changes.
    func flushAll() {
        let live = lock.withLock { entries.values.compactMap(\.preferences) }
        for preferences in live {
            preferences.flushReportingErrors()
        }
    }
}
