import AppContainer
import Foundation

/// Where a keychain lives: its folder, database file and key file.
///
/// The standard place is `$XDG_DATA_HOME/objectgraph/keychain/` (default
/// `~/.local/share/objectgraph/keychain/`): one keychain per user, outside every app's
/// container, so removing an app's folders keeps its items.
///
/// ```swift
/// let location = try KeychainLocation.standard(environment: ["XDG_DATA_HOME": "/tmp/data"])
/// location.databaseURL.path  // /tmp/data/objectgraph/keychain/keychain.sqlite
/// location.keyFileURL.path   // /tmp/data/objectgraph/keychain/keychain.key
/// ```
public struct KeychainLocation: Sendable, Hashable, CustomStringConvertible {
    /// The folder holding the database (created with mode 0700).
    public let directory: URL
    /// The key file for unattended unlocking (see ``KeychainStore/createKeyFile()``).
    public let keyFileURL: URL

    /// A keychain in `directory`; the key file defaults to `keychain.key` in it.
    public init(directory: URL, keyFileURL: URL? = nil) {
        self.directory = directory.standardizedFileURL
        self.keyFileURL =
            keyFileURL?.standardizedFileURL
            ?? self.directory.appendingPathComponent("keychain.key", isDirectory: false)
    }

    /// The user's keychain: `$XDG_DATA_HOME/objectgraph/keychain` (default
    /// `~/.local/share/objectgraph/keychain`), resolved from `environment`.
    ///
    /// - Throws: `.io` when no home folder can be found.
    public static func standard(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> KeychainLocation {
        do {
            let objectgraph = try AppContainer(identifier: "objectgraph", environment: environment)
            return KeychainLocation(
                directory: objectgraph.location(of: .applicationSupport)
                    .appendingPathComponent("keychain", isDirectory: true))
        } catch {
            throw KeychainError(.io, "cannot place the keychain: \(error)")
        }
    }

    /// The SQLite database, `keychain.sqlite`.
    public var databaseURL: URL {
        directory.appendingPathComponent("keychain.sqlite", isDirectory: false)
    }

    /// The database path.
    public var description: String { databaseURL.path }
}
