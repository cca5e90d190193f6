import Foundation
import Synchronization

/// A coordinator's side of remote change notifications
/// (``StoreOptions/postsRemoteChangeNotifications``): the running watch of each store that asked
/// for them with the mark last read from it, the contexts and streams to tell, and counters the
/// tests read.
///
/// Locks: `watches` and `streams` are `Locked`; the coordinator may hold its own lock while it
/// calls ``record(_:for:)`` (its lock first, never the other way), and no watch is stopped (which
/// waits for the watch's thread) under either lock.
final class RemoteChangeCenter: Sendable {
    /// A store's running watch and the mark read from the store when it last checked.
    private struct Watch: Sendable {
        let file: any StoreFileWatch
        var mark: Int64
    }

    /// The streams of ``StoreCoordinator/remoteChanges()`` still listening.
    private struct Streams: Sendable {
        var next = 0
        var continuations: [Int: AsyncStream<StoreRemoteChange>.Continuation] = [:]
    }

    private let watches = Locked([String: Watch]())
    private let streams = Locked(Streams())
    /// Contexts merging remote changes (``ManagedContext/automaticallyMergesRemoteChanges``):
    /// each handler gets the ``StoreRemoteChange`` (as `any Sendable`) on the watch's thread.
    let observers = SaveObservers()
    /// How many times a store's mark was read after activity on its file.
    let checks = Atomic<Int>(0)
    /// How many remote changes were posted.
    let posts = Atomic<Int>(0)

    init() {}

    deinit {
        endAll()
        let ending = streams.withLock { streams in
            defer { streams.continuations.removeAll() }
            return Array(streams.continuations.values)
        }
        for continuation in ending { continuation.finish() }
    }

    /// How many stores are watched.
    var watchCount: Int { watches.withLock { $0.count } }

    /// The running watch of the store `identifier`, if any (for tests).
    func watch(of identifier: String) -> (any StoreFileWatch)? {
        watches.withLock { $0[identifier]?.file }
    }

    /// Keeps `file`, the running watch of the store `identifier`, whose mark is now `mark`.
    func begin(_ identifier: String, file: any StoreFileWatch, mark: Int64) {
        let replaced = watches.withLock { watches in
            defer { watches[identifier] = Watch(file: file, mark: mark) }
            return watches[identifier]?.file
        }
        replaced?.stop()
    }

    /// Records `mark`, just read from the store `identifier`; returns whether it differs from
    /// the one before (another connection committed). `false` for a store no longer watched.
    func record(_ mark: Int64, for identifier: String) -> Bool {
        checks.add(1, ordering: .relaxed)
        return watches.withLock { watches in
            guard let previous = watches[identifier]?.mark, previous != mark else { return false }
            watches[identifier]?.mark = mark
            return true
        }
    }

    /// Stops and forgets the watch of the store `identifier` (nothing when there is none); its
    /// thread has ended when this returns, unless this runs on it.
    func end(_ identifier: String) {
        watches.withLock { $0.removeValue(forKey: identifier) }?.file.stop()
    }

    /// Stops and forgets every watch.
    func endAll() {
        let ending = watches.withLock { watches in
            defer { watches.removeAll() }
            return watches.values.map(\.file)
        }
        for file in ending { file.stop() }
    }

    /// A new stream of the remote changes posted from now on; it ends when the coordinator
    /// goes, and stops listening when its consumer stops iterating.
    func stream() -> AsyncStream<StoreRemoteChange> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: StoreRemoteChange.self, bufferingPolicy: .bufferingNewest(256))
        let key = streams.withLock { streams in
            defer { streams.next += 1 }
            streams.continuations[streams.next] = continuation
            return streams.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.streams.withLock { $0.continuations.removeValue(forKey: key) }
        }
        return stream
    }

    /// Tells everyone about `change` of one of `coordinator`'s stores, in this order: the
    /// merging contexts (which only queue the merge), observers of
    /// ``StoreCoordinator/remoteChangeNotification``, then the streams.
    func post(_ change: StoreRemoteChange, from coordinator: StoreCoordinator) {
        posts.add(1, ordering: .relaxed)
        observers.post(change, from: ObjectIdentifier(coordinator))
        NotificationCenter.default.post(
            name: StoreCoordinator.remoteChangeNotification, object: coordinator,
            userInfo: change.userInfo)
        let listening = streams.withLock { Array($0.continuations.values) }
        for continuation in listening { continuation.yield(change) }
    }
}
