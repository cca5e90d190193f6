import AppContainer
import Foundation

/// Typed settings of an app, kept as an Apple property list (`<id>.plist`) in the app's
/// preferences folder: the `UserDefaults` of ObjectGraph.
///
/// ```swift
/// let preferences = try Preferences(identifier: "com.example.notes")
/// preferences.register(defaults: ["fontSize": 13, "theme": "light"])
/// preferences.set(15, forKey: "fontSize")
/// preferences.integer(forKey: "fontSize")   // 15
/// try preferences.synchronize()             // or let the autosave do it
/// ```
///
/// - Writes are atomic (a temporary file renamed over the old one) and happen on
///   ``synchronize()``, automatically ``autosaveDelay`` seconds after a change, and at exit.
/// - Several processes may share the file: a write takes an exclusive `flock` on
///   `<id>.plist.lock`, re-reads the file and merges in only the keys this instance changed,
///   so nobody's keys are lost. A change written by another process is seen on the next read
///   (every read checks whether the file changed).
/// - A corrupt or truncated file is moved aside as `<id>.plist.corrupt-<time>`, reported once
///   through ``lastError`` and ``errorHandler``; registered defaults stay available and later
///   writes make a fresh file.
/// - Any thread may use an instance.
public final class Preferences: @unchecked Sendable {
    // Thread safety: `lock` protects `state`, and nothing else reads or writes it. `flushLock`
    // serialises this instance's writes to the file; it is taken before `lock`, never while
    // holding it. Across processes, the `flock` on the lock file serialises writers; `lock` is
    // never taken while holding it, so the three cannot deadlock.

    /// The identifier, which names the file (`<identifier>.plist`).
    public let identifier: String
    /// The property-list file.
    public let fileURL: URL
    /// The container whose preferences folder holds the file, if one was given.
    public let container: AppContainer?

    let file: PreferencesFile
    let lock = NSLock()
    var state = State()
    private let flushLock = NSLock()

    /// The preferences of app `identifier` in its XDG container
    /// (`$XDG_CONFIG_HOME/<id>/<id>.plist`).
    ///
    /// - Throws: ``PreferencesError/container(_:)`` for an unsafe identifier or when no home
    ///   folder can be found.
    public convenience init(
        identifier: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        do {
            self.init(container: try AppContainer(identifier: identifier, environment: environment))
        } catch let error as AppContainerError {
            throw PreferencesError.container(error)
        }
    }

    /// The preferences of the app whose container is given
    /// (`<preferences folder>/<identifier>.plist`).
    public convenience init(container: AppContainer) {
        self.init(
            identifier: container.identifier, folder: container.location(of: .preferences),
            container: container)
    }

    init(identifier: String, folder: URL, container: AppContainer?) {
        self.identifier = identifier
        self.container = container
        self.fileURL = folder.appendingPathComponent("\(identifier).plist")
        self.file = PreferencesFile(url: fileURL)
        AutosaveRegistry.shared.add(self)
    }

    deinit {
        AutosaveRegistry.shared.remove(ObjectIdentifier(self))
        let (hasChanges, observers) = lock.withLock {
            (!state.pending.isEmpty, state.observers.values.flatMap(\.values))
        }
        if hasChanges { try? synchronize() }
        for observer in observers { observer.finish?() }
    }

    /// How long after a change the automatic write happens, in seconds (default 0.25).
    public var autosaveDelay: TimeInterval {
        get { lock.withLock { state.autosaveDelay } }
        set { lock.withLock { state.autosaveDelay = max(0, newValue) } }
    }

    /// The latest error met while reading the file or writing it in the background (a corrupt
    /// file that was moved aside, a failed autosave), or `nil`.
    public var lastError: PreferencesError? {
        lock.withLock { state.lastError }
    }

    /// Called once for each error that ``lastError`` records, on the thread that met it.
    public var errorHandler: (@Sendable (PreferencesError) -> Void)? {
        get { lock.withLock { state.errorHandler } }
        set { lock.withLock { state.errorHandler = newValue } }
    }

    // MARK: Reading

    /// The stored value for `key`, or its registered default, or `nil`.
    public func object(forKey key: String) -> PreferenceValue? {
        access { state, _ in state.effective(key) }
    }

    /// The value for `key` converted to `type`, or `nil` when there is none or it does not
    /// convert.
    ///
    /// ```swift
    /// let recent = preferences.value([String].self, forKey: "recentFiles") ?? []
    /// ```
    public func value<T: PreferenceConvertible>(_ type: T.Type, forKey key: String) -> T? {
        object(forKey: key).flatMap(T.init(preferenceValue:))
    }

    /// The Boolean for `key`, or `false`.
    public func bool(forKey key: String) -> Bool { value(Bool.self, forKey: key) ?? false }
    /// The integer for `key`, or 0.
    public func integer(forKey key: String) -> Int { value(Int.self, forKey: key) ?? 0 }
    /// The double for `key`, or 0.
    public func double(forKey key: String) -> Double { value(Double.self, forKey: key) ?? 0 }
    /// The float for `key`, or 0.
    public func float(forKey key: String) -> Float { value(Float.self, forKey: key) ?? 0 }
    /// The string for `key` (numbers are written out), or `nil`.
    public func string(forKey key: String) -> String? { value(String.self, forKey: key) }
    /// The URL for `key`, or `nil`.
    public func url(forKey key: String) -> URL? { value(URL.self, forKey: key) }
    /// The data for `key`, or `nil`.
    public func data(forKey key: String) -> Data? { value(Data.self, forKey: key) }
    /// The date for `key`, or `nil`.
    public func date(forKey key: String) -> Date? { value(Date.self, forKey: key) }
    /// The array for `key`, or `nil`.
    public func array(forKey key: String) -> [PreferenceValue]? {
        value([PreferenceValue].self, forKey: key)
    }
    /// The dictionary for `key`, or `nil`.
    public func dictionary(forKey key: String) -> [String: PreferenceValue]? {
        value([String: PreferenceValue].self, forKey: key)
    }
    /// The array of strings for `key`, or `nil` if it is not one.
    public func stringArray(forKey key: String) -> [String]? {
        guard case .array(let values)? = object(forKey: key) else { return nil }
        var strings: [String] = []
        for value in values {
            guard case .string(let string) = value else { return nil }
            strings.append(string)
        }
        return strings
    }

    /// Every key with its value: registered defaults overlaid with stored values.
    public func dictionaryRepresentation() -> [String: PreferenceValue] {
        access { state, _ in state.registered.merging(state.persisted) { _, stored in stored } }
    }

    // MARK: Writing

    /// Stores `value` for `key` (`nil` removes it). The file is written shortly after.
    ///
    /// ```swift
    /// preferences.set(true, forKey: "showsSidebar")
    /// preferences.set(["a.txt", "b.txt"], forKey: "recentFiles")
    /// ```
    public func set<T: PreferenceConvertible>(_ value: T?, forKey key: String) {
        change(key, to: value?.preferenceValue)
    }

    /// Removes the stored value for `key`; its registered default, if any, shows again.
    public func removeObject(forKey key: String) {
        change(key, to: nil)
    }

    /// Removes every stored value (registered defaults stay).
    public func removeAll() {
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

    /// Sets the values used for keys that have no stored value. They are kept in memory only;
    /// register them at each launch.
    public func register(defaults: [String: PreferenceValue]) {
        access { state, outbox in
            for (key, value) in defaults {
                let old = state.effective(key)
                state.registered[key] = value
                state.notify(key, old: old, into: &outbox)
            }
        }
    }

    func change(_ key: String, to value: PreferenceValue?) {
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

    /// Writes pending changes, recording a failure in ``lastError`` instead of throwing.
    func flushReportingErrors() {
        do {
            try synchronize()
        } catch {
            let failure =
                (error as? PreferencesError)
                ?? .fileSystem(path: fileURL.path, operation: "saving", reason: "\(error)")
            access(refresh: false) { state, outbox in
                state.report(failure, onlyIfNew: true, into: &outbox)
            }
        }
    }

    // MARK: Synchronising

    /// Writes this instance's changes now, merged into the file under the writers' lock, and
    /// reloads what other processes wrote.
    ///
    /// - Throws: ``PreferencesError`` when the folder or file cannot be written; the changes
    ///   stay pending and are retried by the next write.
    public func synchronize() throws {
        flushLock.lock()
        defer { flushLock.unlock() }
        let changes = lock.withLock { state.pending }
        if changes.isEmpty {
            access { _, _ in }
            return
        }
        try makeFolder()
        var corruption: PreferencesError?
        let file = self.file
        let (values, stamp) = try file.withExclusiveLock {
            () throws -> ([String: PreferenceValue], FileStamp) in
            var dictionary: [String: Any] = [:]
            switch try file.load() {
            case .missing:
                break
            case .dictionary(let stored, _):
                dictionary = stored
            case .corrupt(let reason, _):
                let aside = try file.moveAside()
                corruption = .corruptFile(path: file.url.path, movedTo: aside.path, reason: reason)
            }
            for (key, change) in changes {
                if let change {
                    dictionary[key] = change.propertyListObject
                } else {
                    dictionary.removeValue(forKey: key)
                }
            }
            let stamp = try file.save(dictionary)
            return (State.values(from: dictionary), stamp)
        }
        access(refresh: false) { state, outbox in
            if let corruption { state.report(corruption, onlyIfNew: false, into: &outbox) }
            for (key, change) in changes {
                if let current = state.pending[key], current == change {
                    state.pending.removeValue(forKey: key)
                }
            }
            state.install(values, stamp: stamp)
        }
    }

    private func makeFolder() throws {
        let folder = fileURL.deletingLastPathComponent()
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
    func access<T>(refresh: Bool = true, _ body: (inout State, inout Outbox) -> T) -> T {
        var outbox = Outbox()
        lock.lock()
        if refresh { reloadIfChanged(&state, &outbox) }
        let result = body(&state, &outbox)
        lock.unlock()
        outbox.deliver()
        return result
    }

    /// Reloads the file if it is not the version last read; a corrupt file is moved aside
    /// (after checking again under the writers' lock) and reported.
    private func reloadIfChanged(_ state: inout State, _ outbox: inout Outbox) {
        let current = file.currentStamp()
        if state.loaded, current == state.stamp { return }
        do {
            switch try file.load() {
            case .missing:
                state.install([:], stamp: nil)
            case .dictionary(let stored, let stamp):
                state.install(State.values(from: stored), stamp: stamp)
            case .corrupt(_, let stamp):
                let file = self.file
                let recovered = try file.withExclusiveLock { () throws -> FileContents in
                    let again = try file.load()
                    if case .corrupt(let reason, _) = again {
                        let aside = try file.moveAside()
                        let error = PreferencesError.corruptFile(
                            path: file.url.path, movedTo: aside.path, reason: reason)
                        state.report(error, onlyIfNew: false, into: &outbox)
                        return .missing
                    }
                    return again
                }
                switch recovered {
                case .dictionary(let stored, let newStamp):
                    state.install(State.values(from: stored), stamp: newStamp)
                case .missing, .corrupt:
                    state.install([:], stamp: recovered.isMissing ? nil : stamp)
                }
            }
        } catch {
            let failure =
                (error as? PreferencesError)
                ?? .fileSystem(path: fileURL.path, operation: "reading", reason: "\(error)")
            state.report(failure, onlyIfNew: true, into: &outbox)
            // Keep the values last read; do not retry until the file changes.
            state.stamp = current
            state.loaded = true
        }
    }
}

extension FileContents {
    var isMissing: Bool {
        if case .missing = self { return true }
        return false
    }
}
