import Foundation
import ObjectGraph
import PostgresClient

/// Store types and locations named on the command line (`--to`, `--from`, `--type`, and the
/// store arguments: a file path or a `postgresql://` URL).
enum StoreFileKind {
    /// The type named `name` (`sqlite`, `xml`, `binary`, `memory`, `postgres`), or `nil`.
    static func type(named name: String) -> StoreType? {
        switch name.lowercased() {
        case "sqlite": return .sqlite
        case "xml": return .xml
        case "binary", "bin", "objectgraph": return .binary
        case "memory", "inmemory", "in-memory": return .inMemory
        case "postgres", "postgresql", "pg": return .postgres
        default: return nil
        }
    }

    /// Whether the store argument `location` is a PostgreSQL URL (`postgresql://…` or
    /// `postgres://…`) rather than a file path.
    static func isPostgresURL(_ location: String) -> Bool {
        let lowered = location.lowercased()
        return lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://")
    }

    /// The URL of the store argument `location`: a PostgreSQL URL as it is, else a file URL.
    /// - Throws: ``StoreError/cannotOpen(path:reason:)`` for a PostgreSQL URL that cannot be
    ///   read (naming it with its password replaced by `***`).
    static func url(for location: String) throws -> URL {
        guard isPostgresURL(location) else { return URL(fileURLWithPath: location) }
        do {
            _ = try PostgresURL(string: location)
        } catch {
            throw StoreError.cannotOpen(path: displayName(location), reason: "\(error)")
        }
        guard let url = URL(string: location) else {
            throw StoreError.cannotOpen(path: displayName(location), reason: "not a URL")
        }
        return url
    }

    /// What output and messages name the store argument `location` by: the path, or the URL
    /// with its password replaced by `***` (a password is never printed).
    static func displayName(_ location: String) -> String {
        guard isPostgresURL(location) else { return location }
        return (try? PostgresURL(string: location).description)
            ?? PostgresURL.redacted(location)
    }

    /// Checks the store `path` names before anything opens it, for every command that reads a
    /// store: a file must exist and be a regular file (reading a FIFO would block for good).
    /// Returns its type from its first bytes or extension, or `nil` when neither tells; a
    /// PostgreSQL URL is `.postgres` (when it can be read).
    ///
    /// - Throws: ``StoreError/cannotOpen(path:reason:)`` naming the path and what it is.
    static func checkedSource(_ path: String) throws -> StoreType? {
        if isPostgresURL(path) {
            _ = try url(for: path)
            return .postgres
        }
        guard PathKind(atPath: path) != .missing else {
            throw StoreError.cannotOpen(path: path, reason: "no such file")
        }
        if let reason = PathKind.refusal(ofPath: path) {
            throw StoreError.cannotOpen(path: path, reason: reason)
        }
        return StoreType(detectingFileAt: URL(fileURLWithPath: path))
    }
}
