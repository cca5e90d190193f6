import CLibPQ
import Foundation

/// Whether a connection can still be used: what a pool checks before lending one out.
extension PostgresConnection {
    /// Whether the connection is still open: reads, without waiting, whatever the server sent
    /// while the connection was idle (a server that ended the session, by
    /// `pg_terminate_backend` or a restart, has sent its last error and closed the socket,
    /// which then reads as its end), then asks libpq for the connection's state. No statement
    /// is sent.
    ///
    /// ```swift
    /// if !connection.isUsable { connection = try PostgresConnection(url: url) }
    /// ```
    public var isUsable: Bool {
        guard PQstatus(handle) == CONNECTION_OK else { return false }
        let socket = PQsocket(handle)
        guard socket >= 0 else { return false }
        // Each pass reads what has arrived; the end of a closed socket shows in a later pass
        // (libpq's read stops at the data before it).
        for _ in 0..<4 {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 0) > 0 else { break }
            guard PQconsumeInput(handle) != 0 else { return false }
        }
        return PQstatus(handle) == CONNECTION_OK
    }
}
