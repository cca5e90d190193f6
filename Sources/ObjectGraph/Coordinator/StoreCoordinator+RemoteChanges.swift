import Foundation

/// Remote change notifications (Core Data's `NSPersistentStoreRemoteChange`): a coordinator
/// whose store was added with ``StoreOptions/postsRemoteChangeNotifications`` learns, without
/// the app polling, that another process or another coordinator committed to the store's file.
///
/// The store detects (its file watch and mark, ``RemoteChangeDetectingStore``), the coordinator
/// posts (here), the contexts merge (``ManagedContext/automaticallyMergesRemoteChanges``).
extension StoreCoordinator {
    /// Posted, on a thread of the coordinator's own, when another process or another
    /// coordinator commits to a store added with ``StoreOptions/postsRemoteChangeNotifications``
    /// (Core Data's `NSPersistentStoreRemoteChange`, under Core Data's name). The notification's
    /// `object` is the coordinator; its `userInfo` holds the store's identifier under
    /// ``storeUUIDKey`` and its URL under ``storeURLKey`` (``StoreRemoteChange/init(_:)`` reads
    /// both). Saves through this coordinator post nothing. Move to your own queue before
    /// working with contexts.
    ///
    /// ```swift
    /// let observer = NotificationCenter.default.addObserver(
    ///     forName: StoreCoordinator.remoteChangeNotification, object: coordinator, queue: nil
    /// ) { note in
    ///     guard let change = StoreRemoteChange(note) else { return }
    ///     background.perform { context in try? context.mergeChanges(fromRemoteChange: change) }
    /// }
    /// ```
    public static let remoteChangeNotification = Notification.Name(
        "NSPersistentStoreRemoteChangeNotification")
    /// The key of the changed store's identifier (a `String`) in a
    /// ``remoteChangeNotification``'s `userInfo` (Core Data's `NSStoreUUIDKey`).
    public static let storeUUIDKey = "NSStoreUUID"
    /// The key of the changed store's URL (a `URL`) in a ``remoteChangeNotification``'s
    /// `userInfo` (Core Data's `NSPersistentStoreURLKey`).
    public static let storeURLKey = "storeURL"
    /// The key of the store's newest history token (a ``HistoryToken``) in a
    /// ``remoteChangeNotification``'s `userInfo`, present when the store was added with
    /// ``StoreOptions/tracksHistory`` (Core Data's `NSPersistentHistoryTokenKey`).
    public static let historyTokenKey = "historyToken"

    /// The remote changes of this coordinator's stores from now on, as an asynchronous
    /// sequence (the Swift-concurrency form of ``remoteChangeNotification``). The stream ends
    /// when the coordinator goes; it buffers the newest 256 changes its consumer has not read.
    ///
    /// ```swift
    /// Task {
    ///     for await change in coordinator.remoteChanges() {
    ///         try await background.perform { try $0.mergeChanges(fromRemoteChange: change) }
    ///     }
    /// }
    /// ```
    public func remoteChanges() -> AsyncStream<StoreRemoteChange> {
        remoteChangeCenter.stream()
    }

    /// Starts watching `store`, just opened, when `options` ask for remote change notifications
    /// and the store can tell (see ``RemoteChangeDetectingStore``); `nil` otherwise. The watch
    /// holds the coordinator weakly, so it never keeps it alive.
    static func startWatch(
        of store: any PersistentStore, options: StoreOptions, for coordinator: StoreCoordinator
    ) throws -> (any StoreFileWatch)? {
        guard options.postsRemoteChangeNotifications,
            let detecting = store.remoteChangeDetecting
        else { return nil }
        let identifier = store.description.identifier
        return try detecting.watchFile { [weak coordinator] in
            coordinator?.checkForRemoteChange(inStore: identifier)
        }
    }

    /// Keeps `watch` for `store`, with the store's mark as it is now. Under the coordinator's
    /// lock (with the store just added), so no check of the store comes before it.
    func beginWatch(_ watch: any StoreFileWatch, of store: any PersistentStore) throws {
        let mark = try store.remoteChangeDetecting?.remoteChangeMark() ?? 0
        remoteChangeCenter.begin(store.description.identifier, file: watch, mark: mark)
    }

    /// Called by a store's watch after activity on its file: reads the store's mark under the
    /// lock and, when another connection committed since the last read, tells everyone
    /// (outside the lock). A store that is gone, or whose mark cannot be read now, is left for
    /// the next activity.
    func checkForRemoteChange(inStore identifier: String) {
        let change = withStoresLocked { stores -> StoreRemoteChange? in
            guard let store = Self.store(identifiedBy: identifier, in: stores),
                let url = store.description.url,
                let mark = try? store.remoteChangeDetecting?.remoteChangeMark(),
                remoteChangeCenter.record(mark, for: identifier)
            else { return nil }
            // The newest transaction in the store's history (when it keeps one): where a
            // context's history-based merge reads up to.
            let token = try? store.history?.currentHistoryToken()
            return StoreRemoteChange(
                storeIdentifier: identifier, storeURL: url, historyToken: token ?? nil)
        }
        if let change { remoteChangeCenter.post(change, from: self) }
    }
}
