import Foundation
import SQLiteDatabase

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The user's keychain: encrypted passwords and small secrets in one SQLite database per user,
/// with the semantics of Apple's `SecItemAdd`, `SecItemUpdate`, `SecItemCopyMatching` and
/// `SecItemDelete`. ``Keychain`` is the friendly wrapper over it.
///
/// ```swift
/// let store = KeychainStore(application: KeychainApplication(identifier: "com.example.mail"))
/// try store.unlock(passphrase: passphrase, createIfMissing: .interactive)
/// try store.add(.genericPassword(service: "imap.example.com", account: "ada",
///                                data: Data("s3cret".utf8)))
/// var query = KeychainQuery.genericPassword(service: "imap.example.com", account: "ada")
/// query.returning = [.data, .attributes]
/// let match = try store.copyMatching(query)[0]
/// try store.delete(matching: query)
/// ```
///
/// ## Storage
///
/// The database is `$XDG_DATA_HOME/objectgraph/keychain/keychain.sqlite` (see
/// ``KeychainLocation``), in a folder of mode 0700, file mode 0600, outside every app
/// container. It is opened in WAL mode with a busy timeout, and every change runs in an
/// immediate transaction, so several processes can use it at once.
///
/// ## Encryption
///
/// - Each item has two AES-256-GCM blobs, each with a fresh random 96-bit nonce: the secret
///   data, and the *sensitive attributes* **account, label and comment**. The clear columns
///   (item UUID, class, access group, accessibility, service, server, protocol, port, path,
///   account index, creation and modification dates) are the additional authenticated data of
///   both, so editing any of them, or swapping blobs between rows, makes reading the item fail
///   with ``KeychainStatus/decode``; tampered data is never returned.
/// - Service, server, protocol, port and path are stored in clear (they are how apps find
///   their items, like on macOS). The account is found through a blind index:
///   HMAC-SHA256 of the account under a key derived from the master key.
///
/// ## Keys and accessibility
///
/// There are two random 256-bit *class keys*:
/// - the **when-unlocked** key encrypts the secrets of ``KeychainAccessibility/whenUnlocked``
///   items; it is wrapped (AES-256-GCM) only by the passphrase key;
/// - the **after-first-unlock** key encrypts the secrets of
///   ``KeychainAccessibility/afterFirstUnlock`` items, and (through subkeys derived from it)
///   every item's sensitive attributes and the blind index. It is wrapped twice: by the
///   passphrase key and by the key file.
///
/// The passphrase key comes from scrypt (``ScryptParameters``, salt and parameters stored in
/// the database). The key file (``createKeyFile()``) holds 32 random bytes, mode 0600, checked
/// on use. Unlocking by passphrase (``unlock(passphrase:)``) opens both class keys in this
/// instance; the key file opens only the after-first-unlock key, and is used automatically
/// when the store is locked and the file exists. Reading a when-unlocked secret without the
/// passphrase fails with ``KeychainStatus/interactionNotAllowed``.
/// ``changePassphrase(from:to:scrypt:)`` re-wraps both class keys in one transaction (items
/// are not re-encrypted); a wrong passphrase fails with ``KeychainStatus/authFailed`` and
/// changes nothing. Keys live in buffers overwritten with `OPENSSL_cleanse` when released
/// (``lock()`` releases them); Swift strings and `Data` handed in or out cannot be wiped.
///
/// ## Access groups
///
/// A store acts for one ``KeychainApplication``: it sees the items of the app's own group and
/// of its entitled groups, and no others; naming another group fails with
/// ``KeychainStatus/missingEntitlement``.
///
/// ## What this protects on Linux, and what it does not
///
/// It protects secrets **at rest**: a copied database, a backup, a stolen or discarded disk
/// reveals no secret, account, label or comment without the passphrase (or, for
/// after-first-unlock items, the key file — keep the key file off the disk you worry about,
/// e.g. on tmpfs or provisioned by the service manager, if that matters). File modes keep
/// **other users** out (and the encryption still holds if they get in). Tampering with rows is
/// detected.
///
/// It does **not** protect against another program running as the same user: it can read the
/// database and the key file (and so decrypt after-first-unlock items), read this process's
/// memory, capture the passphrase as it is typed, or claim any app identity — access groups
/// keep cooperating apps apart, they are not a security boundary. Deleting rows, or putting
/// back an older copy of a row or of the whole file, is not detected. Service, server,
/// protocol, port, path, dates, group and item count are visible in clear. Root can do
/// anything.
public final class KeychainStore: @unchecked Sendable {
    // @unchecked Sendable: the mutable state (`queue`, `keys`) is only touched with `mutex`
    // held; everything else is immutable and Sendable.

    /// The app the store acts for.
    public let application: KeychainApplication
    /// Where the keychain is, or why it could not be placed.
    private let resolvedLocation: Result<KeychainLocation, KeychainError>

    private let mutex = NSLock()
    private var queue: DatabaseQueue?
    private var keys = ClassKeys()

    /// A store for the keychain at `location`. Nothing is opened until first use.
    public init(location: KeychainLocation, application: KeychainApplication = .current) {
        self.resolvedLocation = .success(location)
        self.application = application
    }

    /// A store for the user's keychain, placed from `environment` (`XDG_DATA_HOME`, `HOME`).
    /// A placement failure (no home folder) is reported by the first operation (`.io`).
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        application: KeychainApplication = .current
    ) {
        self.resolvedLocation = Result { try KeychainLocation.standard(environment: environment) }
            .mapError { $0 as? KeychainError ?? KeychainError(.io, "\($0)") }
        self.application = application
    }

    /// The user's keychain for this process (``KeychainApplication/current``), shared by
    /// every ``Keychain`` created without a store.
    public static let standard = KeychainStore()

    /// The keychain's location.
    public var location: KeychainLocation {
        get throws { try resolvedLocation.get() }
    }

    // MARK: - Lock state

    /// How far the keychain is unlocked in this store.
    public enum LockState: Sendable, Hashable {
        /// No key is available.
        case locked
        /// The key file opened the after-first-unlock key: "when unlocked" secrets are out of
        /// reach.
        case afterFirstUnlock
        /// The passphrase opened every key.
        case unlocked
    }

    /// The current state.
    public var lockState: LockState {
        mutex.withLock {
            if keys.whenUnlocked != nil { return .unlocked }
            return keys.afterFirstUnlock != nil ? .afterFirstUnlock : .locked
        }
    }

    /// Forgets every key (their buffers are overwritten). Later operations need an unlock,
    /// except that an existing key file is used again for after-first-unlock access.
    public func lock() {
        mutex.withLock { keys = ClassKeys() }
    }

    /// Keeps the keys opened by an unlock.
    func install(_ newKeys: ClassKeys) {
        mutex.withLock { keys = newKeys }
    }

    /// The keys at hand, without unlocking anything.
    var currentKeys: ClassKeys {
        mutex.withLock { keys }
    }

    // MARK: - The database

    /// The database queue, opened (and the schema created) on first use.
    func database() throws -> DatabaseQueue {
        let location = try self.location
        mutex.lock()
        defer { mutex.unlock() }
        if let queue { return queue }
        let opened = try Self.openDatabase(location)
        queue = opened
        return opened
    }

    private static func openDatabase(_ location: KeychainLocation) throws -> DatabaseQueue {
        let path = location.databaseURL.path
        do {
            try FileManager.default.createDirectory(
                at: location.directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw KeychainError(
                .io, "cannot create the keychain folder \(location.directory.path): \(error)")
        }
        // Create the file private before SQLite does (its -wal and -shm files copy the mode).
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw KeychainError(.io, "cannot open the keychain \(path): \(reason)")
        }
        close(descriptor)
        do {
            let queue = try DatabaseQueue(
                path: path, options: Database.Options(busyTimeout: 30, journalMode: .wal))
            try queue.write { db in try db.execute(sql: KeychainSchema.createSQL) }
            return queue
        } catch let error as DatabaseError {
            throw KeychainError(.io, "cannot open the keychain \(path): \(error)")
        }
    }

    /// Runs read-only work, turning database errors into `.io` errors.
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T {
        let queue = try database()
        return try Self.mappingDatabaseErrors(queue.path) { try queue.read(body) }
    }

    /// Runs work in an immediate transaction, turning database errors into `.io` errors.
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T {
        let queue = try database()
        return try Self.mappingDatabaseErrors(queue.path) { try queue.write(body) }
    }

    private static func mappingDatabaseErrors<T>(_ path: String, _ body: () throws -> T) throws
        -> T
    {
        do {
            return try body()
        } catch let error as DatabaseError {
            // The description holds the SQL, never the bound arguments.
            throw KeychainError(.io, "the keychain \(path) failed: \(error)")
        }
    }
}

/// The class keys opened in a store, and the subkeys derived from the after-first-unlock key.
struct ClassKeys: Sendable {
    var whenUnlocked: SecretBytes?
    var afterFirstUnlock: SecretBytes?
    /// HMAC key of the account blind index.
    var index: SecretBytes?
    /// AES key of the sensitive attributes.
    var attributes: SecretBytes?

    init() {}

    init(whenUnlocked: SecretBytes?, afterFirstUnlock: SecretBytes) throws {
        self.whenUnlocked = whenUnlocked
        self.afterFirstUnlock = afterFirstUnlock
        index = try Crypto.deriveKey(
            from: afterFirstUnlock, label: "objectgraph.keychain.v1.blind-index")
        attributes = try Crypto.deriveKey(
            from: afterFirstUnlock, label: "objectgraph.keychain.v1.attributes")
    }

    /// The key of an accessibility class, if open.
    func classKey(_ accessibility: KeychainAccessibility) -> SecretBytes? {
        switch accessibility {
        case .whenUnlocked: return whenUnlocked
        case .afterFirstUnlock: return afterFirstUnlock
        }
    }
}
