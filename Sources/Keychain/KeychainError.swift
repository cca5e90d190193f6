/// What went wrong in a keychain operation, after the `errSec…` codes of Apple's Security
/// framework.
public enum KeychainStatus: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// An item with the same primary key (class, access group, service or server…, account)
    /// already exists (`errSecDuplicateItem`).
    case duplicateItem
    /// No item matches the query (`errSecItemNotFound`).
    case itemNotFound
    /// The passphrase or key file does not unlock the keychain (`errSecAuthFailed`).
    case authFailed
    /// Stored data cannot be decrypted or decoded: the row was tampered with or is corrupt
    /// (`errSecDecode`). Such data is never returned.
    case decode
    /// The keychain file or key file cannot be read or written (`errSecIO`).
    case io
    /// A parameter is invalid: an empty passphrase, an unusable value (`errSecParam`).
    case param
    /// The keychain is locked for what was asked: nothing unlocked it, or a "when unlocked"
    /// item needs the passphrase and only the key file was used (`errSecInteractionNotAllowed`).
    case interactionNotAllowed
    /// The app is not entitled to the access group it named (`errSecMissingEntitlement`).
    case missingEntitlement
    /// The keychain has not been created yet (`errSecNoSuchKeychain`).
    case noSuchKeychain
    /// The keychain already exists and cannot be created again (`errSecDuplicateKeychain`).
    case duplicateKeychain
    /// The key file is not a private file of this user (mode 0600, owned by the user).
    case insecureKeyFile

    /// The status name, such as `itemNotFound`.
    public var description: String { rawValue }
}

/// An error from the keychain: a ``KeychainStatus`` and a message saying what and where.
///
/// Messages name services, servers, access groups and paths, never secrets, passphrases or
/// account names (account names are encrypted at rest, so they stay out of errors too).
///
/// ```swift
/// do {
///     try store.add(.genericPassword(service: "api", account: "ada", data: token))
/// } catch let error as KeychainError where error.status == .duplicateItem {
///     try store.update(matching: .genericPassword(service: "api", account: "ada"),
///                      with: KeychainUpdate(data: token))
/// }
/// ```
public struct KeychainError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public let status: KeychainStatus
    /// A sentence saying what failed and where.
    public let message: String

    /// Creates an error.
    public init(_ status: KeychainStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    /// `<status>: <message>`.
    public var description: String { "\(status): \(message)" }
}
