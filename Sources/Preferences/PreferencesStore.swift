import AppContainer
import Foundation

/// The state of one preferences file in this process, shared by every ``Preferences``
/// instance for that file: values, pending changes, registered defaults, observers and error
/// reporting. It reads the file, writes it under the writers' lock, and autosaves.
final class PreferencesStore: @unchecked Sendable {
    // Thread safety: `lock` protects `state`, and nothing else reads or writes it. `flushLock`
    // serialises this store's writes to the file (every read-modify-write of the file happens
    // under it); it is taken before `lock`, never while holding it. It is recursive because
    // the error handler and observers run while a write still holds it, after the `flock` is
    // released, and may synchronize again. Across processes, the
    // `flock` on the lock file serialises writers; it is taken holding `flushLock` only, and
    // `lock` is never held while waiting for it, so the three cannot deadlock. Reads take no
    // `flock` and never change a file.

    let file: PreferencesFile
    let container: AppContainer?
    private let lock = NSLock()
    private var state = State()
    private let flushLock = NSRecursiveLock()

    init(file: PreferencesFile, container: AppContainer?) {
        self.file = file
        self.container = container
    }

    deinit {
        let (hasChanges, observers) = lock.withLock {
            (!state.pending.isEmpty, state.observers.values.flatMap(\.values))
        }
        if hasChanges { try? synchronize() }
        for observer in observers { observer.finish?() }
    }

    var autosaveDelay: TimeInterval {
        get { lock.withLock { state.autosaveDelay } }
        set { lock.withLock { state.autosaveDelay = max(0, newValue) } }
    }

    var lastError: PreferencesError? {
        lock.withLock { state.lastError }
    }

    var errorHandler: (@Sendable (PreferencesError) -> Void)? {
        get { lock.withLock { state.errorHandler } }
        set { lock.withLock { state.errorHandler = newValue } }
    }

    // MARK: Reading and writing values

    func object(forKey key: String) -> PreferenceValue? {
        access { state, _ in state.effective(key) }
    }

    func dictionaryRepresentation() -> [String: PreferenceValue] {
        access { state, _ in state.registered.merging(state.persisted) { _, stored in stored } }
    }

    /// Stores `value` for `key`, or throws ``PreferencesError/dateOutOfRange(key:value:)``
    /// (and changes nothing) when it holds a date a property list cannot keep.
    func change(_ key: String, to value: PreferenceValue) throws(PreferencesError) {
        try PreferenceDate.check(value.propertyListObject, key: key)
        apply(key, value)
    }

    func remove(_ key: String) {
        apply(key, nil)
    }

    /// Records `error` in `lastError` and hands it to the error handler.
    func report(_ error: PreferencesError) {
        access(refresh: false) { state, outbox in
            state.report(error, onlyIfNew: false, into: &outbox)
        }
    }

    private func apply(_ key: String, _ value: PreferenceValue?) {
        access { state, outbox in
            let old = state.effective(key)
            state.pending.updateValue(value, forKey: key)
            if let value {
                state.persisted[key] = value
            } else {
                state.persisted.removeValue(forKey: key)
            }
            state.notify(key, old: old, into: &outbox)
            scheduleAutosave(&state)
        }
    }

    func removeAll() {
        access { state, outbox in
            for key in state.persisted.keys {
                let old = state.effective(key)
                state.pending.updateValue(nil, forKey: key)
                state.persisted.removeValue(forKey: key)
                state.notify(key, old: old, into: &outbox)
            }
            scheduleAutosave(&state)
        }
    }

    func register(defaults: [String: PreferenceValue]) {
        access { state, outbox in
            for (key, value) in defaults {
                let old = state.effective(key)
                state.registered[key] = value
                state.notify(key, old: old, into: &outbox)
            }
        }
    }

    // MARK: Observers

    func addObserver(_ key: String, _ observer: Observer) -> UInt64 {
        lock.withLock {
            state.nextObserverID += 1
            let id = state.nextObserverID
            state.observers[key, default: [:]][id] = observer
            return id
        }
    }

    func removeObserver(_ key: String, id: UInt64) {
        lock.withLock {
            state.observers[key]?.removeValue(forKey: id)
            if state.observers[key]?.isEmpty == true { state.observers.removeValue(forKey: key) }
        }
    }

    // MARK: Saving

    private func scheduleAutosave(_ state: inout State) {
        guard !state.autosaveScheduled else { return }
        state.autosaveScheduled = true
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + state.autosaveDelay) {
            [weak self] in
            self?.autosave()
        }
    }

    private func autosave() {
        lock.withLock { state.autosaveScheduled = false }
        flushReportingErrors()
    }

    /// Writes pending changes, recording a failure in `lastError` instead of throwing.
    func flushReportingErrors() {
        do {
            try synchronize()
        } catch {
            let failure =
                (error as? PreferencesError)
                ?? .fileSystem(path: file.url.path, operation: "saving", reason: "\(error)")
            access(refresh: false) { state, outbox in
                state.report(failure, onlyIfNew: true, into: &outbox)
            }
        }
    }

    /// Writes pending changes merged into the file under the writers' lock (re-read the file,
    /// apply only this store's changed keys, write atomically), then takes the merged result
    /// as the current values. With nothing pending, reloads the file if it changed.
    func synchronize() throws {
        try flushLock.withLock {
            let changes = lock.withLock { state.pending }
            if changes.isEmpty {
                access { _, _ in }
                return
            }
            try write(changes, updating: nil) { _ in }
        }
    }

    /// Replaces the value of `key` by what `transform` returns for its current value (read from
    /// the file, with this store's pending changes on top, else the registered default), all
    /// under the writers' lock, and writes the file with the pending changes; `nil` removes
    /// the key. Returns the new value. Nothing is written when `transform` throws.
    func update(
        _ key: String, _ transform: (PreferenceValue?) throws -> PreferenceValue?
    ) throws -> PreferenceValue? {
        try flushLock.withLock {
            let (changes, registered) = lock.withLock { (state.pending, state.registered[key]) }
            var result: PreferenceValue?
            try write(changes, updating: key) { dictionary in
                let stored = dictionary[key].flatMap(PreferenceValue.init(propertyListObject:))
                result = try transform(stored ?? registered)
                if let result {
                    dictionary[key] = result.propertyListObject
                } else {
                    dictionary.removeValue(forKey: key)
                }
            }
            return result
        }
    }

    /// The one read-modify-write of the file, holding `flushLock` and then the writers'
    /// `flock`: reads the file, applies `changes` and then `edit`, encodes the result (which
    /// checks its dates), moves a corrupt file aside, and writes atomically. Then takes the
    /// result as the current values, drops the pending changes written, and notifies the
    /// observers of `updatedKey`.
    private func write(
        _ changes: [String: PreferenceValue?], updating updatedKey: String?,
        edit: (inout [String: Any]) throws -> Void
    ) throws {
        try makeFolder()
        var corruption: PreferencesError?
        let file = self.file
        let written: ([String: PreferenceValue], FileStamp)
        do {
            written = try file.withExclusiveLock {
                () throws -> ([String: PreferenceValue], FileStamp) in
                var dictionary: [String: Any] = [:]
                var corruptReason: String?
                switch try file.load() {
                case .missing:
                    break
                case .dictionary(let stored, _):
                    dictionary = stored
                case .corrupt(let reason, _):
                    corruptReason = reason
                }
                for (key, change) in changes {
                    if let change {
                        dictionary[key] = change.propertyListObject
                    } else {
                        dictionary.removeValue(forKey: key)
                    }
                }
                try edit(&dictionary)
                let data = try file.encode(dictionary)
                if let corruptReason {
                    let aside = try file.moveAside()
                    corruption = .corruptFile(
                        path: file.url.path, movedTo: aside.path, reason: corruptReason)
                }
                return (State.values(from: dictionary), try file.save(data))
            }
        } catch {
            // The file may have been moved aside before the write failed: say so.
            if let corruption { report(corruption) }
            throw error
        }
        let (values, stamp) = written
        access(refresh: false) { state, outbox in
            if let corruption { state.report(corruption, onlyIfNew: false, into: &outbox) }
            let old = updatedKey.map { state.effective($0) }
            for (key, change) in changes {
                if let current = state.pending[key], current == change {
                    state.pending.removeValue(forKey: key)
                }
            }
            state.install(values, stamp: stamp)
            if let updatedKey { state.notify(updatedKey, old: old ?? nil, into: &outbox) }
        }
    }

    private func makeFolder() throws {
        let folder = file.url.deletingLastPathComponent()
        if let container {
            do {
                _ = try container.url(for: .preferences)
            } catch let error as AppContainerError {
                throw PreferencesError.container(error)
            }
        } else {
            do {
                try FileManager.default.createDirectory(
                    at: folder, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            } catch {
                throw PreferencesError.fileSystem(
                    path: folder.path, operation: "creating the folder",
                    reason: error.localizedDescription)
            }
        }
    }

    // MARK: State access

    /// Runs `body` on the state under `lock` (after loading the file if it changed), then,
    /// outside the lock, delivers the errors and change notifications it collected.
    private func access<T>(refresh: Bool = true, _ body: (inout State, inout Outbox) -> T) -> T {
        var outbox = Outbox()
        lock.lock()
        if refresh { reloadIfChanged(&state, &outbox) }
        let result = body(&state, &outbox)
        lock.unlock()
        outbox.deliver()
        return result
    }

    /// Reloads the file if it is not the version last read. A file that does not parse is
    /// reported (once per version) and left as it is: reading never changes a file; the next
    /// write moves it aside. Until then no stored values are seen.
    private func reloadIfChanged(_ state: inout State, _ outbox: inout Outbox) {
        let current = file.currentStamp()
        if state.loaded, current == state.stamp { return }
        do {
            switch try file.load() {
            case .missing:
                state.install([:], stamp: nil)
            case .dictionary(let stored, let stamp):
                state.install(State.values(from: stored), stamp: stamp)
            case .corrupt(let reason, let stamp):
                state.install([:], stamp: stamp)
                let error = PreferencesError.unreadableFile(path: file.url.path, reason: reason)
                state.report(error, onlyIfNew: true, into: &outbox)
            }
        } catch {
            let failure =
                (error as? PreferencesError)
                ?? .fileSystem(path: file.url.path, operation: "reading", reason: "\(error)")
            state.report(failure, onlyIfNew: true, into: &outbox)
            // Keep the values last read; do not retry until the file changes.
            state.stamp = current
            state.loaded = true
        }
    }
}
