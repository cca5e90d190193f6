/// A store that can tell when another connection commits to its file (the SQLite store): the
/// store detects, the coordinator posts (``StoreCoordinator/remoteChangeNotification``), the
/// contexts merge (``ManagedContext/automaticallyMergesRemoteChanges``).
///
/// Detection has two halves: a watch of the file (``watchFile(onActivity:)``), which only says
/// that something may have happened and runs without the coordinator's lock, and a mark
/// (``remoteChangeMark()``), read under the lock, which says whether another connection
/// committed since the mark was last read.
protocol RemoteChangeDetectingStore: AnyObject {
    /// A number that changes when another connection (another coordinator, another process)
    /// commits to the store's file, and stays the same when this store commits. Read under the
    /// coordinator's lock.
    func remoteChangeMark() throws -> Int64

    /// Starts watching the store's file on a thread of the watch's own: `onActivity` is called
    /// there, soon after the file may have changed (and again a few times while it settles),
    /// never under the coordinator's lock. The watch runs until it is stopped or released.
    /// - Throws: ``StoreError/cannotOpen(path:reason:)`` when the watch cannot start.
    func watchFile(onActivity: @escaping @Sendable () -> Void) throws -> any StoreFileWatch
}

/// A running watch of a store's file (``RemoteChangeDetectingStore/watchFile(onActivity:)``).
protocol StoreFileWatch: AnyObject, Sendable {
    /// Ends the watch: no `onActivity` call starts afterwards, and the watch's thread has
    /// ended when this returns (unless called from that thread, inside `onActivity`; then it
    /// ends as soon as `onActivity` returns). Calling it again does nothing.
    func stop()
}
