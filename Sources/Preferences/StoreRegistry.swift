import AppContainer
import Foundation

/// The live ``PreferencesStore`` of each preferences file in this process, so that every
/// ``Preferences`` instance for a file shares one state; and the at-exit save of their pending
/// changes (`atexit`; best effort: a crash or `_exit` skips it).
final class StoreRegistry: @unchecked Sendable {
    static let shared = StoreRegistry()

    /// A weak reference, so the registry keeps no store alive.
    private final class Entry {
        weak var store: PreferencesStore?
        init(_ store: PreferencesStore) { self.store = store }
    }

    // `lock` protects `entries` and `installed`.
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    private var installed = false

    /// The store for the file at `url`, made if no instance holds one.
    func store(for url: URL, container: AppContainer?) -> PreferencesStore {
        let key = url.standardizedFileURL.path
        return lock.withLock {
            if !installed {
                installed = true
                atexit { StoreRegistry.shared.flushAll() }
            }
            if let store = entries[key]?.store { return store }
            let store = PreferencesStore(file: PreferencesFile(url: url), container: container)
            entries[key] = Entry(store)
            entries = entries.filter { $0.value.store != nil }
            return store
        }
    }

    /// Writes every live store's pending changes.
    func flushAll() {
        let live = lock.withLock { entries.values.compactMap(\.store) }
        for store in live {
            store.flushReportingErrors()
        }
    }
}
