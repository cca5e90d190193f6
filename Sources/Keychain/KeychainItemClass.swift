/// The kind of a keychain item (`kSecClass`).
public enum KeychainItemClass: String, Sendable, Hashable, CaseIterable {
    /// A password for a service: keyed by service and account (`kSecClassGenericPassword`).
    case genericPassword = "genp"
    /// A password for a server: keyed by server, protocol, port, path and account
    /// (`kSecClassInternetPassword`).
    case internetPassword = "inet"
}

/// When an item's secret can be read (`kSecAttrAccessible`).
///
/// The keychain keeps one key per class:
/// - ``whenUnlocked`` items are encrypted with a key wrapped only by the passphrase: reading
///   or writing their secret needs ``KeychainStore/unlock(passphrase:)`` in this process.
/// - ``afterFirstUnlock`` items are encrypted with a key wrapped by the passphrase *and* by
///   the key file, so unattended programs can read them with the key file alone.
public enum KeychainAccessibility: String, Sendable, Hashable, CaseIterable {
    /// Only while the keychain is unlocked by its passphrase (Apple's default).
    case whenUnlocked
    /// After the passphrase or the owner's key file unlocked the keychain (for background
    /// work and services).
    case afterFirstUnlock
}

/// How many items a query returns (`kSecMatchLimit`).
public enum KeychainMatchLimit: Sendable, Hashable {
    /// The first match (in the order items were added).
    case one
    /// Every match.
    case all
}

/// What a query returns for each match (`kSecReturnData`, `kSecReturnAttributes`).
public struct KeychainReturn: OptionSet, Sendable, Hashable {
    /// The raw bit set.
    public let rawValue: Int
    /// Creates a set from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The secret data.
    public static let data = KeychainReturn(rawValue: 1)
    /// The attributes (never the secret).
    public static let attributes = KeychainReturn(rawValue: 2)
    /// Data and attributes.
    public static let all: KeychainReturn = [.data, .attributes]
}
