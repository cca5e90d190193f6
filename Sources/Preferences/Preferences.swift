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
///   `<id>.plist.lock`, re-reads the file and merges in only the keys this process changed,
///   so nobody's keys are lost. A change written by another process is seen on the next read
///   (every read checks whether the file changed).
/// - Within a process, every instance for the same file shares one state: values, pending
///   changes, registered defaults, observers, ``autosaveDelay`` and error reporting. A change
///   through one instance is seen (and observed) through all of them at once.
/// - To change a value based on the current one (a counter, a list to append to), use
///   ``update(forKey:_:)``: the read and the write happen under the writers' lock, so
///   concurrent updates from other threads or processes are never lost. A read followed by
///   ``set(_:forKey:)`` can lose them.
/// - Reading never changes a file. A corrupt or truncated file is reported once through
///   ``lastError`` and ``errorHandler`` (``PreferencesError/unreadableFile(path:reason:)``)
///   and shows no stored values; registered defaults stay available. The next write moves it
///   aside as `<id>.plist.corrupt-<time>` (``PreferencesError/corruptFile(path:movedTo:reason:)``)
///   and makes a fresh file.
/// - Dates are kept from year 0001 through 9999 (``PreferenceDate/supportedRange``), to the
///   whole second (the XML property-list `<date>`); others are refused with
///   ``PreferencesError/dateOutOfRange(key:value:)``.
/// - Any thread may use an instance.
public final class Preferences: Sendable {
    /// The identifier, which names the file (`<identifier>.plist`).
    public let identifier: String
    /// The property-list file.
    public let fileURL: URL
    /// The container whose preferences folder holds the file, if one was given.
    public let container: AppContainer?

    /// The state shared with every other instance for the same file.
    let store: PreferencesStore

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
        self.store = StoreRegistry.shared.store(for: fileURL, container: container)
    }

    /// How long after a change the automatic write happens, in seconds (default 0.25).
    public var autosaveDelay: TimeInterval {
        get { store.autosaveDelay }
        set { store.autosaveDelay = newValue }
    }

    /// The latest error met while reading the file or writing it in the background (a corrupt
    /// file that was moved aside, a failed autosave), or `nil`.
    public var lastError: PreferencesError? { store.lastError }

    /// Called once for each error that ``lastError`` records, on the thread that met it.
    public var errorHandler: (@Sendable (PreferencesError) -> Void)? {
        get { store.errorHandler }
        set { store.errorHandler = newValue }
    }

    // MARK: Reading

    /// The stored value for `key`, or its registered default, or `nil`.
    public func object(forKey key: String) -> PreferenceValue? {
        store.object(forKey: key)
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
        store.dictionaryRepresentation()
    }

    // MARK: Writing

    /// Stores `value` for `key` (`nil` removes it). The file is written shortly after.
    ///
    /// ```swift
    /// preferences.set(true, forKey: "showsSidebar")
    /// preferences.set(["a.txt", "b.txt"], forKey: "recentFiles")
    /// ```
    ///
    /// A value holding a date outside ``PreferenceDate/supportedRange`` is not stored: the
    /// value for `key` stays as it was and ``lastError`` (and ``errorHandler``) get
    /// ``PreferencesError/dateOutOfRange(key:value:)``.
    public func set<T: PreferenceConvertible>(_ value: T?, forKey key: String) {
        guard let value else {
            store.remove(key)
            return
        }
        do {
            try store.change(key, to: value.preferenceValue)
        } catch {
            store.report(error)
        }
    }

    /// Removes the stored value for `key`; its registered default, if any, shows again.
    public func removeObject(forKey key: String) {
        store.remove(key)
    }

    /// Removes every stored value (registered defaults stay).
    public func removeAll() {
        store.removeAll()
    }

    /// Sets the values used for keys that have no stored value. They are kept in memory only
    /// (shared by the instances for this file); register them at each launch.
    public func register(defaults: [String: PreferenceValue]) {
        store.register(defaults: defaults)
    }

    // MARK: Synchronising

    /// Writes this process's changes now, merged into the file under the writers' lock, and
    /// reloads what other processes wrote.
    ///
    /// - Throws: ``PreferencesError`` when the folder or file cannot be written; the changes
    ///   stay pending and are retried by the next write.
    public func synchronize() throws {
        try store.synchronize()
    }
}
