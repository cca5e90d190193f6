import Foundation

/// Where a ``SQLLog`` sends its entries: a function called once per statement, on the thread
/// that ran it. Handlers compare by identity.
///
/// ```swift
/// let lines = Mutex<[String]>([])
/// let handler = SQLLogHandler { entry in lines.withLock { $0.append(entry.description) } }
/// let log = SQLLog(level: .statements, handler: handler)
/// ```
///
/// The handler runs inside SQLite's statement step: it must not use the database that called it.
public final class SQLLogHandler: Sendable, Hashable {
    /// The function entries go to.
    private let write: @Sendable (SQLLogEntry) -> Void

    /// Creates a handler that calls `write` with each entry.
    public init(_ write: @escaping @Sendable (SQLLogEntry) -> Void) {
        self.write = write
    }

    /// Sends `entry` to the handler.
    public func callAsFunction(_ entry: SQLLogEntry) {
        write(entry)
    }

    /// Writes each entry's lines (``SQLLogEntry/description``) to standard error, one
    /// `write` call per entry so that entries of different threads do not interleave.
    public static let standardError = SQLLogHandler { entry in
        FileHandle.standardError.write(Data((entry.description + "\n").utf8))
    }

    /// Whether the two are the same handler.
    public static func == (lhs: SQLLogHandler, rhs: SQLLogHandler) -> Bool {
        lhs === rhs
    }

    /// Hashes the handler's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
