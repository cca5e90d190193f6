import CLibPQ
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A connection of its own that `LISTEN`s on one channel and hands each notification
/// (`NOTIFY channel, 'payload'`, or `pg_notify`) to a closure, on a thread of its own that
/// waits on the connection's socket with `poll()` (libpq's `PQconsumeInput` and `PQnotifies`):
/// nothing polls the server.
///
/// When the connection drops, the thread connects again (waiting 0.1 s, then longer, up to
/// 2 s, between attempts) and `LISTEN`s again; notifications sent meanwhile are lost, so
/// `onConnect` is called with `true` after each reconnection: look at what may have changed
/// while away (a history token tells).
///
/// ```swift
/// let listener = try PostgresListener(url: url, channel: "orders") { notification in
///     print(notification.payload)
/// }
/// // … another connection: SELECT pg_notify('orders', 'order 7 shipped')
/// listener.stop()
/// ```
///
/// ``stop()`` (also on release) wakes the thread through a pipe and waits for it to end.
public final class PostgresListener: Sendable {
    /// One notification as received.
    public struct Notification: Sendable, Hashable {
        /// The channel it was sent on.
        public var channel: String
        /// Its payload (empty when none was given).
        public var payload: String
        /// The process ID of the server process (backend) of the connection that sent it.
        public var senderProcessID: Int32
    }

    /// The channel listened to.
    public let channel: String
    private let loop: Loop

    /// Connects to `url`, runs `LISTEN` on `channel` (any text; quoted as an identifier), and
    /// starts the listening thread. When this returns, every notification committed from now
    /// on reaches `onNotification`.
    /// - Parameters:
    ///   - url: the database to listen on.
    ///   - password: the password when not in the URL (as ``PostgresConnection/init(url:password:)``).
    ///   - channel: the channel to `LISTEN` on.
    ///   - onNotification: called on the listener's thread for each notification.
    ///   - onConnect: called on the listener's thread after each reconnection (`true`), and
    ///     with `false` when a reconnection attempt fails.
    /// - Throws: ``PostgresError`` when the first connection or its `LISTEN` fails, or no pipe
    ///   can be made to wake the thread.
    public init(
        url: PostgresURL, password: String? = nil, channel: String,
        onNotification: @escaping @Sendable (Notification) -> Void,
        onConnect: @escaping @Sendable (Bool) -> Void = { _ in }
    ) throws(PostgresError) {
        self.channel = channel
        let connect = { () throws(PostgresError) -> PostgresConnection in
            let connection = try PostgresConnection(url: url, password: password)
            try connection.run("LISTEN " + PostgresIdentifier.quoted(channel))
            return connection
        }
        let first = try connect()
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw PostgresError(
                .connection, "\(url): cannot listen on \(channel): no pipe (errno \(errno))")
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        loop = Loop(
            connection: first, connect: connect, wake: (ends[0], ends[1]),
            onNotification: onNotification, onConnect: onConnect)
        let thread = Thread { [loop] in loop.run() }
        thread.name = "PostgresListener \(channel)"
        thread.start()
    }

    deinit { loop.stop() }

    /// Ends listening: no callback starts afterwards, the connection is closed, and the
    /// thread has ended when this returns (unless called from a callback, on the thread
    /// itself; it ends as soon as the callback returns). Calling it again does nothing.
    public func stop() { loop.stop() }

    /// How many times the listener has connected again after losing its connection.
    public var reconnections: Int { loop.reconnections }

    /// The server process ID of the listening connection now (`nil` while disconnected).
    public var serverProcessID: Int32? { loop.serverProcessID }

    /// The thread's work and the state it shares with ``stop()``.
    private final class Loop: @unchecked Sendable {
        // `@unchecked`: `connection` is used only by the thread running `run()` (and by
        // `serverProcessID` under `lock`, which `run()` holds while it replaces the
        // connection); `state` is guarded by `lock`; the pipe's descriptors are written by
        // `stop()` and closed by `run()` under `lock`; the closures are immutable.
        private struct State {
            var stopping = false
            var closed = false
            var thread: ObjectIdentifier?
            var reconnections = 0
        }

        private var connection: PostgresConnection?
        private let connect: () throws(PostgresError) -> PostgresConnection
        private let wake: (read: Int32, write: Int32)
        private let onNotification: @Sendable (Notification) -> Void
        private let onConnect: @Sendable (Bool) -> Void
        private let lock = NSLock()
        private var state = State()
        private let ended = DispatchSemaphore(value: 0)

        init(
            connection: PostgresConnection,
            connect: @escaping () throws(PostgresError) -> PostgresConnection,
            wake: (Int32, Int32), onNotification: @escaping @Sendable (Notification) -> Void,
            onConnect: @escaping @Sendable (Bool) -> Void
        ) {
            self.connection = connection
            self.connect = connect
            self.wake = wake
            self.onNotification = onNotification
            self.onConnect = onConnect
        }

        var reconnections: Int { lock.withLock { state.reconnections } }

        var serverProcessID: Int32? {
            lock.withLock { connection.map { PQbackendPID($0.handle) } }
        }

        func stop() {
            let onThread = lock.withLock { () -> Bool in
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

        private var stopping: Bool { lock.withLock { state.stopping } }

        func run() {
            lock.withLock { state.thread = ObjectIdentifier(Thread.current) }
            var delay = 0.1
            while !stopping {
                guard let handle = lock.withLock({ connection?.handle }) else {
                    // Disconnected: wait (woken early by stop()), then try again.
                    if waitForWake(milliseconds: Int32(delay * 1000)) { break }
                    do {
                        let made = try connect()
                        lock.withLock {
                            connection = made
                            state.reconnections += 1
                        }
                        delay = 0.1
                        onConnect(true)
                    } catch {
                        delay = min(delay * 2, 2)
                        onConnect(false)
                    }
                    continue
                }
                let socket = PQsocket(handle)
                guard socket >= 0, PQstatus(handle) == CONNECTION_OK else {
                    lock.withLock { connection = nil }
                    continue
                }
                var waiting = [
                    pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
                ]
                let ready = poll(&waiting, 2, -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    break
                }
                if waiting[0].revents != 0 { break }
                guard waiting[1].revents != 0 else { continue }
                guard PQconsumeInput(handle) != 0, PQstatus(handle) == CONNECTION_OK else {
                    lock.withLock { connection = nil }
                    continue
                }
                while let notice = PQnotifies(handle) {
                    let item = Notification(
                        channel: String(cString: notice.pointee.relname),
                        payload: notice.pointee.extra.map { String(cString: $0) } ?? "",
                        senderProcessID: notice.pointee.be_pid)
                    PQfreemem(notice)
                    onNotification(item)
                }
            }
            lock.withLock {
                state.closed = true
                connection = nil
                close(wake.read)
                close(wake.write)
            }
            ended.signal()
        }

        /// Waits up to `milliseconds` for ``stop()``; `true` when it came.
        private func waitForWake(milliseconds: Int32) -> Bool {
            var waiting = [pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&waiting, 1, milliseconds)
            return ready > 0 && waiting[0].revents != 0
        }
    }
}
