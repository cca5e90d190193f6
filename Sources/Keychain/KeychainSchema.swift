/// The keychain database's tables.
///
/// - `keychain_meta (name, value)`: `format` (1), the scrypt salt and parameters
///   (`scrypt.salt`, `scrypt.log2n`, `scrypt.r`, `scrypt.p`), and the wrapped class keys
///   (`key.whenUnlocked.passphrase`, `key.afterFirstUnlock.passphrase`,
///   `key.afterFirstUnlock.keyFile`).
/// - `keychain_item`: one row per item. Clear columns: `uuid` (the item's identity in the
///   authenticated data), `class`, `access_group`, `accessibility`, `service`, `server`,
///   `protocol`, `port`, `path`, `created`, `modified`. `account_index` is the blind index
///   HMAC-SHA256(indexKey, account). `attributes` is AES-256-GCM of account, label and comment;
///   `secret` is AES-256-GCM of the data. Both blobs authenticate every clear column.
enum KeychainSchema {
    /// The format this code writes and reads.
    static let format: Int64 = 1

    /// Creates the tables when missing.
    static let createSQL = """
        CREATE TABLE IF NOT EXISTS keychain_meta (
            name TEXT PRIMARY KEY NOT NULL,
            value BLOB NOT NULL
        );
        CREATE TABLE IF NOT EXISTS keychain_item (
            id INTEGER PRIMARY KEY,
            uuid BLOB NOT NULL UNIQUE,
            class TEXT NOT NULL,
            access_group TEXT NOT NULL,
            accessibility TEXT NOT NULL,
            service TEXT NOT NULL DEFAULT '',
            server TEXT NOT NULL DEFAULT '',
            protocol TEXT NOT NULL DEFAULT '',
            port INTEGER NOT NULL DEFAULT 0,
            path TEXT NOT NULL DEFAULT '',
            account_index BLOB NOT NULL,
            created REAL NOT NULL,
            modified REAL NOT NULL,
            attributes BLOB NOT NULL,
            secret BLOB NOT NULL,
            UNIQUE (class, access_group, service, server, protocol, port, path, account_index)
        );
        CREATE INDEX IF NOT EXISTS keychain_item_service ON keychain_item (class, service);
        CREATE INDEX IF NOT EXISTS keychain_item_server ON keychain_item (class, server);
        """

    /// Names of `keychain_meta` rows.
    enum Meta {
        static let format = "format"
        static let salt = "scrypt.salt"
        static let log2N = "scrypt.log2n"
        static let r = "scrypt.r"
        static let p = "scrypt.p"
        static let whenUnlocked = "key.whenUnlocked.passphrase"
        static let afterFirstUnlock = "key.afterFirstUnlock.passphrase"
        static let afterFirstUnlockKeyFile = "key.afterFirstUnlock.keyFile"
    }
}
