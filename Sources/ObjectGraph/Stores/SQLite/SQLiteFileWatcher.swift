import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Watches a SQLite store's file on a thread of its own and calls `onActivity` when another
/// connection may have committed to it: after inotify events on the file, its `-wal` or its
/// `-journal` (``FolderActivity``; `-shm` is left out, readers write it too), and then a few
/// more times as the file settles (``checkDelays``): a writer appends its commit to the `-wal`
/// (the event) and only then publishes it in the `-shm` index, which no event reports, so a
/// check made at once can come too early. Without inotify it calls `onActivity` every
/// ``pollingInterval`` seconds.
///
/// ``stop()`` (also on release) wakes the thread through a pipe and waits for it to end.
final class SQLiteFileWatcher: StoreFileWatch {
    /// When, after the last event, `onActivity` is called (seconds): at once, then while a
    /// commit may still be being published.
    static let checkDelays: [Double] = [0.002, 0.01, 0.03, 0.15, 0.6]
    /// The least time between two calls while events keep coming (seconds).
    static let minimumSpacing = 0.01
    /// How often `onActivity` is called without inotify (seconds).
    static let pollingInterval = 0.5

    private let loop: Loop

    /// Starts watching the SQLite file at `path`.
    /// - Throws: ``StoreError/cannotOpen(path:reason:)`` when the thread's wake-up pipe cannot
    ///   be made (no file descriptor left).
    init(path: String, onActivity: @escaping @Sendable () -> Void) throws {
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent
        let activity = FolderActivity(
            folder: url.deletingLastPathComponent().path,
            names: [name, name + "-wal", name + "-journal"])
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            activity.close()
            throw StoreError.cannotOpen(
                path: path,
                reason: "cannot watch for remote changes: no pipe (errno \(errno))")
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        loop = Loop(activity: activity, wake: (ends[0], ends[1]), onActivity: onActivity)
        let thread = Thread { [loop] in loop.run() }
        thread.name = "ObjectGraph remote changes"
        thread.start()
    }

    deinit { loop.stop() }

    /// Whether the watch uses inotify (else it checks every ``pollingInterval`` seconds).
    var usesInotify: Bool { loop.usesInotify }
    /// The kernel's ID of the watch's thread while it runs, `nil` before and after (for tests:
    /// `/proc/self/task/<id>`).
    var threadID: Int32? { loop.threadID }
    /// Whether the watch's thread has finished its work.
    var hasEnded: Bool { loop.hasEnded }

    func stop() { loop.stop() }

    /// The thread's work and the state it shares with ``stop()``.
    private final class Loop: @unchecked Sendable {
        // `@unchecked`: `activity` is used only by the thread running `run()` (which closes
        // it); the pipe's descriptors are written by `stop()` and closed by `run()` under
        // `state`'s lock; `onActivity` and `ended` are immutable and thread-safe.
        private struct State: Sendable {
            var stopping = false
            var closed = false
            var thread: ObjectIdentifier?
            var threadID: Int32?
            var usesInotify = false
        }

        private let activity: FolderActivity
        private let wake: (read: Int32, write: Int32)
        private let onActivity: @Sendable () -> Void
        private let state = Locked(State())
        private let ended = DispatchSemaphore(value: 0)

        init(
            activity: FolderActivity, wake: (Int32, Int32),
            onActivity: @escaping @Sendable () -> Void
        ) {
            self.activity = activity
            self.wake = wake
            self.onActivity = onActivity
        }

        var usesInotify: Bool { state.withLock { $0.usesInotify } }
        var threadID: Int32? { state.withLock { $0.threadID } }
        var hasEnded: Bool { state.withLock { $0.closed } }

        /// Asks the thread to end and, unless called on it, waits until it has.
        func stop() {
            let onThread = state.withLock { state -> Bool in
                if !state.stopping, !state.closed {
                    state.stopping = true
                    var byte: UInt8 = 1
                    _ = write(wake.write, &byte, 1)
                }
                return state.thread == ObjectIdentifier(Thread.current)
            }
            guard !onThread else { return }
            ended.wait()
            ended.signal()  // for the next caller
        }

        /// Waits for events and calls `onActivity` as the type's comment says, until stopped.
        func run() {
            state.withLock {
                $0.thread = ObjectIdentifier(Thread.current)
                $0.threadID = Self.kernelThreadID()
                $0.usesInotify = activity.isWatching
            }
            var due: UInt64?  // when to call `onActivity` next (monotonic nanoseconds)
            var step = 0
            var lastEvent: UInt64 = 0
            var lastCall: UInt64 = 0
            while !state.withLock({ $0.stopping }) {
                let now = Self.now()
                let timeout: Int32
                if let due {
                    timeout = due > now ? Int32(min((due - now) / 1_000_000 + 1, 60_000)) : 0
                } else {
                    timeout =
                        activity.isWatching ? -1 : Int32(SQLiteFileWatcher.pollingInterval * 1000)
                }
                var waiting = [
                    pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: activity.descriptor, events: Int16(POLLIN), revents: 0),
                ]
                let ready = poll(&waiting, 2, timeout)
                if ready < 0, errno != EINTR { break }
                if waiting[0].revents != 0 { break }
                let after = Self.now()
                if waiting[1].revents != 0, activity.drain() {
                    lastEvent = after
                    step = 0
                    due = max(
                        after + Self.nanoseconds(SQLiteFileWatcher.checkDelays[0]),
                        lastCall + Self.nanoseconds(SQLiteFileWatcher.minimumSpacing))
                    continue
                }
                if let scheduled = due {
                    guard after >= scheduled else { continue }
                } else if activity.isWatching {
                    continue
                }
                lastCall = after
                onActivity()
                step += 1
                if due != nil, step < SQLiteFileWatcher.checkDelays.count {
                    due = lastEvent + Self.nanoseconds(SQLiteFileWatcher.checkDelays[step])
                } else {
                    due = nil
                }
            }
            state.withLock { state in
                state.closed = true
                state.threadID = nil
                activity.close()
                close(wake.read)
                close(wake.write)
            }
            ended.signal()
        }

        /// Monotonic nanoseconds.
        private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

        private static func nanoseconds(_ seconds: Double) -> UInt64 { UInt64(seconds * 1e9) }

        /// The kernel's ID of the calling thread (`/proc/thread-self` names `<pid>/task/<tid>`),
        /// `nil` where there is no such file.
        private static func kernelThreadID() -> Int32? {
            guard
                let target = try? FileManager.default.destinationOfSymbolicLink(
                    atPath: "/proc/thread-self"),
                let last = target.split(separator: "/").last
            else { return nil }
            return Int32(last)
        }
    }
}
