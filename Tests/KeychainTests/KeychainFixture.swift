import AppContainer
import Foundation
import Keychain

/// A keychain in a fresh temporary folder, removed by ``remove()``.
struct KeychainFixture {
    let root: URL
    let location: KeychainLocation
    static let passphrase = "correct horse battery staple"
    static let app = KeychainApplication(identifier: "com.example.app")

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("KeychainTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        location = try KeychainLocation.standard(environment: Self.environment(root))
    }

    /// `XDG_DATA_HOME` and `XDG_CONFIG_HOME` under the root.
    var environment: [String: String] { Self.environment(root) }

    static func environment(_ root: URL) -> [String: String] {
        [
            "XDG_DATA_HOME": root.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
            "HOME": root.path,
        ]
    }

    /// A store for `application` (not unlocked).
    func store(_ application: KeychainApplication = KeychainFixture.app) -> KeychainStore {
        KeychainStore(location: location, application: application)
    }

    /// A store for `application`, the keychain created (with fast scrypt) if needed and
    /// unlocked.
    func unlockedStore(_ application: KeychainApplication = KeychainFixture.app) throws
        -> KeychainStore
    {
        let store = store(application)
        try store.unlock(passphrase: Self.passphrase, createIfMissing: .fast)
        return store
    }

    /// The bytes of the database and its WAL file.
    func fileContents() throws -> [Data] {
        let path = location.databaseURL.path
        return [
            try Data(contentsOf: URL(fileURLWithPath: path)),
            (try? Data(contentsOf: URL(fileURLWithPath: path + "-wal"))) ?? Data(),
        ]
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }
}

/// The status of the `KeychainError` thrown by `body`, or nil when it throws something else
/// or nothing.
func status(_ body: () throws -> Void) -> KeychainStatus? {
    do {
        try body()
        return nil
    } catch let error as KeychainError {
        return error.status
    } catch {
        return nil
    }
}

/// The error thrown by `body`, as text (for checking that no secret appears in it).
func errorText(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch {
        return "\(error) \(String(reflecting: error)) \(error.localizedDescription)"
    }
}

extension Data {
    init(text: String) { self.init(text.utf8) }
}
