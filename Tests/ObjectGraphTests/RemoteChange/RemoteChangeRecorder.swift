import Foundation

@testable import ObjectGraph

/// Records the ``StoreCoordinator/remoteChangeNotification``s one coordinator posts, and opens
/// coordinators on a store with remote change notifications on or off.
final class RemoteChangeRecorder: @unchecked Sendable {
    // `@unchecked`: `observer` is set once in `init` and only read again in `deinit`;
    // `changes` is `Locked`.
    private let changes: Locked<[StoreRemoteChange]>
    private let observer: NSObjectProtocol

    /// Starts recording `coordinator`'s notifications.
    init(_ coordinator: StoreCoordinator) {
        let changes = Locked([StoreRemoteChange]())
        self.changes = changes
        observer = NotificationCenter.default.addObserver(
            forName: StoreCoordinator.remoteChangeNotification, object: coordinator, queue: nil
        ) { [changes] note in
            if let change = StoreRemoteChange(note) { changes.withLock { $0.append(change) } }
        }
    }

    deinit {
        NotificationCenter.default.removeObserver(observer)
    }

    /// What was posted so far.
    var recorded: [StoreRemoteChange] { changes.withLock { $0 } }

    /// Waits until `condition` holds, up to `seconds`; returns whether it did.
    static func eventually(within seconds: Double = 5, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() >= deadline { return false }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return true
    }

    /// A coordinator of ``TestModels/league()`` on the SQLite file `url`, posting remote
    /// changes when `posting`.
    static func coordinator(_ url: URL, posting: Bool = true) throws -> StoreCoordinator {
        let coordinator = StoreCoordinator(model: TestModels.league())
        var options = StoreOptions()
        options.postsRemoteChangeNotifications = posting
        try coordinator.addStore(type: .sqlite, at: url, options: options)
        return coordinator
    }
}
