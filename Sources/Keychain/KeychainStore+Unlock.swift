import Archive
import Foundation
import SQLiteDatabase

extension KeychainStore {
    // MARK: - Creating and unlocking

    /// Whether the keychain has been created (it has keys).
    public var exists: Bool {
        get throws { try read { try KeychainMeta.load($0) }.isCreated }
    }

    /// Creates the keychain's keys, protected by `passphrase`, and leaves the store unlocked.
    ///
    /// - Parameters:
    ///   - passphrase: not empty; its UTF-8 bytes feed scrypt.
    ///   - scrypt: the cost, stored with the salt (``ScryptParameters/fast`` in tests only).
    /// - Throws: `.duplicateKeychain` when the keychain already has keys, `.param` for an empty
    ///   passphrase or bad parameters, `.io`.
    public func create(passphrase: String, scrypt: ScryptParameters = .interactive) throws {
        var meta = KeychainMeta()
        meta.format = KeychainSchema.format
        meta.salt = try Crypto.randomBytes(16)
        meta.scrypt = scrypt
        let passphraseKey = try derive(passphrase, salt: meta.salt, scrypt: scrypt)
        let whenUnlocked = try Crypto.randomKey()
        let afterFirstUnlock = try Crypto.randomKey()
        meta.wrappedWhenUnlocked = try Self.wrap(
            whenUnlocked, with: passphraseKey, name: KeychainSchema.Meta.whenUnlocked)
        meta.wrappedAfterFirstUnlock = try Self.wrap(
            afterFirstUnlock, with: passphraseKey, name: KeychainSchema.Meta.afterFirstUnlock)
        let location = try self.location
        try write { [meta] db in
            guard try !KeychainMeta.load(db).isCreated else {
                throw KeychainError(.duplicateKeychain, "the keychain \(location) already exists")
            }
            try meta.savePassphraseWrapping(db)
        }
        install(try ClassKeys(whenUnlocked: whenUnlocked, afterFirstUnlock: afterFirstUnlock))
    }

    /// Unlocks every class of item with the passphrase, for this store (in this process).
    ///
    /// - Throws: `.authFailed` for a wrong passphrase (nothing changes), `.noSuchKeychain` when
    ///   the keychain has not been created, `.decode` when its key data is damaged, `.io`.
    public func unlock(passphrase: String) throws {
        let meta = try read { try KeychainMeta.load($0) }
        guard meta.isCreated else {
            throw KeychainError(
                .noSuchKeychain, "the keychain \(try location) has not been created yet")
        }
        let passphraseKey = try derive(passphrase, salt: meta.salt, scrypt: meta.scrypt)
        let (whenUnlocked, afterFirstUnlock) = try Self.unwrapBoth(meta, with: passphraseKey)
        install(try ClassKeys(whenUnlocked: whenUnlocked, afterFirstUnlock: afterFirstUnlock))
    }

    /// Unlocks with the passphrase, first creating the keychain with it when there is none
    /// (safe when several processes race to create it).
    ///
    /// - Returns: whether the keychain was created.
    @discardableResult
    public func unlock(passphrase: String, createIfMissing scrypt: ScryptParameters) throws
        -> Bool
    {
        do {
            try unlock(passphrase: passphrase)
            return false
        } catch let error as KeychainError where error.status == .noSuchKeychain {
            do {
                try create(passphrase: passphrase, scrypt: scrypt)
                return true
            } catch let error as KeychainError where error.status == .duplicateKeychain {
                try unlock(passphrase: passphrase)
                return false
            }
        }
    }

    /// Unlocks the after-first-unlock class with the key file (by default
    /// ``KeychainLocation/keyFileURL``), for unattended programs. Operations do this by
    /// themselves when the store is locked and the default key file exists.
    ///
    /// - Throws: `.insecureKeyFile` when the file is not private to the user (mode 0600),
    ///   `.authFailed` when it is not the keychain's registered key file, `.noSuchKeychain`,
    ///   `.io`.
    public func unlock(keyFile: URL? = nil) throws {
        let url = try keyFile ?? location.keyFileURL
        let meta = try read { try KeychainMeta.load($0) }
        guard meta.isCreated else {
            throw KeychainError(
                .noSuchKeychain, "the keychain \(try location) has not been created yet")
        }
        guard let wrapped = meta.wrappedAfterFirstUnlockByKeyFile else {
            throw KeychainError(.authFailed, "the keychain \(try location) has no key file")
        }
        let fileKey = try KeyFile.read(url)
        let afterFirstUnlock: SecretBytes
        do {
            afterFirstUnlock = try Self.unwrap(
                wrapped, with: fileKey, name: KeychainSchema.Meta.afterFirstUnlockKeyFile)
        } catch let error as KeychainError where error.status == .decode {
            throw KeychainError(
                .authFailed, "the key file \(url.path) does not unlock the keychain")
        }
        let current = currentKeys
        install(
            try ClassKeys(whenUnlocked: current.whenUnlocked, afterFirstUnlock: afterFirstUnlock))
    }

    // MARK: - Changing the passphrase and the key file

    /// Replaces the passphrase: both class keys are re-wrapped under the new one in a single
    /// transaction (items are not touched). The store is unlocked afterwards.
    ///
    /// - Parameters:
    ///   - oldPassphrase: the current passphrase.
    ///   - newPassphrase: the passphrase that unlocks the store from now on (not empty).
    ///   - scrypt: new scrypt parameters, or nil to keep the current ones. A new salt is drawn.
    /// - Throws: `.authFailed` when `oldPassphrase` is wrong or another process changed the
    ///   passphrase meanwhile (nothing changes), `.param` for an empty new passphrase,
    ///   `.noSuchKeychain`, `.io`.
    public func changePassphrase(
        from oldPassphrase: String, to newPassphrase: String, scrypt: ScryptParameters? = nil
    ) throws {
        let meta = try read { try KeychainMeta.load($0) }
        guard meta.isCreated else {
            throw KeychainError(
                .noSuchKeychain, "the keychain \(try location) has not been created yet")
        }
        let oldKey = try derive(oldPassphrase, salt: meta.salt, scrypt: meta.scrypt)
        let (whenUnlocked, afterFirstUnlock) = try Self.unwrapBoth(meta, with: oldKey)
        var updated = meta
        updated.salt = try Crypto.randomBytes(16)
        updated.scrypt = scrypt ?? meta.scrypt
        let newKey = try derive(newPassphrase, salt: updated.salt, scrypt: updated.scrypt)
        updated.wrappedWhenUnlocked = try Self.wrap(
            whenUnlocked, with: newKey, name: KeychainSchema.Meta.whenUnlocked)
        updated.wrappedAfterFirstUnlock = try Self.wrap(
            afterFirstUnlock, with: newKey, name: KeychainSchema.Meta.afterFirstUnlock)
        try write { [meta, updated] db in
            guard try KeychainMeta.load(db) == meta else {
                throw KeychainError(
                    .authFailed, "the passphrase was changed by another process meanwhile")
            }
            try updated.savePassphraseWrapping(db)
        }
        install(try ClassKeys(whenUnlocked: whenUnlocked, afterFirstUnlock: afterFirstUnlock))
    }

    /// Creates (or replaces) the key file at ``KeychainLocation/keyFileURL``: 32 random bytes,
    /// mode 0600, that wrap the after-first-unlock key so that unattended programs can read
    /// ``KeychainAccessibility/afterFirstUnlock`` items without the passphrase. A previous key
    /// file stops working.
    ///
    /// - Throws: `.interactionNotAllowed` when the store is locked, `.io`.
    public func createKeyFile() throws {
        guard let afterFirstUnlock = currentKeys.afterFirstUnlock else {
            throw KeychainError(
                .interactionNotAllowed,
                "unlock the keychain \(try location) before creating a key file")
        }
        let url = try location.keyFileURL
        let fileKey = try Crypto.randomKey()
        let wrapped = try Self.wrap(
            afterFirstUnlock, with: fileKey, name: KeychainSchema.Meta.afterFirstUnlockKeyFile)
        let temporary: StagedFile
        do {
            temporary = try KeyFile.writeTemporary(fileKey, for: url)
        } catch let error as KeychainError {
            throw error
        } catch {
            throw KeychainError(.io, "cannot write the key file \(url.path): \(error)")
        }
        do {
            try write { db in
                try KeychainMeta.save(
                    KeychainSchema.Meta.afterFirstUnlockKeyFile, .blob(Data(wrapped)), db)
            }
        } catch {
            temporary.discard()
            throw error
        }
        try KeyFile.install(temporary)
    }

    /// Removes the key file and its wrapping: only the passphrase unlocks the keychain then.
    public func removeKeyFile() throws {
        let url = try location.keyFileURL
        try write { db in
            try db.execute(
                sql: "DELETE FROM keychain_meta WHERE name = ?",
                arguments: [KeychainSchema.Meta.afterFirstUnlockKeyFile])
        }
        try? FileManager.default.removeItem(at: url)
    }

    // MARK: - Key wrapping

    /// scrypt(passphrase), with the passphrase's bytes wiped afterwards.
    private func derive(_ passphrase: String, salt: [UInt8], scrypt: ScryptParameters) throws
        -> SecretBytes
    {
        var bytes = Array(passphrase.utf8)
        defer { SecretBytes.cleanse(&bytes) }
        return try Crypto.scrypt(passphrase: bytes, salt: salt, parameters: scrypt)
    }

    static func wrap(_ key: SecretBytes, with wrappingKey: SecretBytes, name: String) throws
        -> [UInt8]
    {
        try Crypto.seal(key.bytes, key: wrappingKey, aad: KeychainMeta.wrappingAAD(name))
    }

    static func unwrap(_ wrapped: [UInt8], with wrappingKey: SecretBytes, name: String) throws
        -> SecretBytes
    {
        let bytes = try Crypto.open(
            wrapped, key: wrappingKey, aad: KeychainMeta.wrappingAAD(name), what: "a wrapped key")
        let key = SecretBytes(bytes)
        guard key.count == Crypto.keyLength else {
            throw KeychainError(.decode, "a wrapped key has the wrong length")
        }
        return key
    }

    /// Both class keys from the passphrase key; a failure means a wrong passphrase.
    private static func unwrapBoth(_ meta: KeychainMeta, with passphraseKey: SecretBytes) throws
        -> (SecretBytes, SecretBytes)
    {
        do {
            let whenUnlocked = try unwrap(
                meta.wrappedWhenUnlocked, with: passphraseKey,
                name: KeychainSchema.Meta.whenUnlocked)
            let afterFirstUnlock = try unwrap(
                meta.wrappedAfterFirstUnlock, with: passphraseKey,
                name: KeychainSchema.Meta.afterFirstUnlock)
            return (whenUnlocked, afterFirstUnlock)
        } catch let error as KeychainError where error.status == .decode {
            throw KeychainError(.authFailed, "the passphrase does not unlock the keychain")
        }
    }
}
