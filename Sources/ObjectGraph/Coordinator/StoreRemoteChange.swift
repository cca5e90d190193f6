import Foundation

/// Another process, or another coordinator of this process, committed to one of a
/// coordinator's stores (Core Data's `NSPersistentStoreCoordinator.RemoteChangeMessage`): what
/// ``StoreCoordinator/remoteChanges()`` yields and ``StoreCoordinator/remoteChangeNotification``
/// carries in its `userInfo`.
///
/// ```swift
/// for await change in coordinator.remoteChanges() {
///     try viewContext.mergeChanges(fromRemoteChange: change)
/// }
/// ```
public struct StoreRemoteChange: Sendable, Hashable {
    /// The changed store's identifier (its UUID, ``StoreDescription/identifier``).
    public var storeIdentifier: String
    /// The changed store's file.
    public var storeURL: URL
    /// The token of the newest transaction in the store's persistent history when the change
    /// was seen; `nil` when the store keeps no history (``StoreOptions/tracksHistory``).
    public var historyToken: HistoryToken?

    /// Creates a change of the store `storeIdentifier` at `storeURL`, whose history (if it
    /// keeps one) ends at `historyToken`.
    public init(storeIdentifier: String, storeURL: URL, historyToken: HistoryToken? = nil) {
        self.storeIdentifier = storeIdentifier
        self.storeURL = storeURL
        self.historyToken = historyToken
    }

    /// The change a ``StoreCoordinator/remoteChangeNotification`` carries, or `nil` for a
    /// notification without one.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(
    ///     forName: StoreCoordinator.remoteChangeNotification, object: coordinator, queue: nil
    /// ) { note in
    ///     guard let change = StoreRemoteChange(note) else { return }
    ///     print("\(change.storeURL.path) changed")
    /// }
    /// ```
    public init?(_ notification: Notification) {
        guard notification.name == StoreCoordinator.remoteChangeNotification,
            let identifier = notification.userInfo?[StoreCoordinator.storeUUIDKey] as? String,
            let url = notification.userInfo?[StoreCoordinator.storeURLKey] as? URL
        else { return nil }
        self.init(
            storeIdentifier: identifier, storeURL: url,
            historyToken: notification.userInfo?[StoreCoordinator.historyTokenKey]
                as? HistoryToken)
    }

    /// The notification's `userInfo`: Core Data's keys for the store's UUID and URL, and its
    /// history token when there is one.
    var userInfo: [AnyHashable: Any] {
        var info: [AnyHashable: Any] = [
            StoreCoordinator.storeUUIDKey: storeIdentifier, StoreCoordinator.storeURLKey: storeURL,
        ]
        if let historyToken { info[StoreCoordinator.historyTokenKey] = historyToken }
        return info
    }
}
