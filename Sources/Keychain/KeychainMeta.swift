import Foundation
import SQLiteDatabase

/// The `keychain_meta` rows: salt, scrypt parameters and wrapped keys.
struct KeychainMeta: Sendable, Equatable {
    var format: Int64?
    var salt: [UInt8] = []
    var scrypt = ScryptParameters()
    var wrappedWhenUnlocked: [UInt8] = []
    var wrappedAfterFirstUnlock: [UInt8] = []
    var wrappedAfterFirstUnlockByKeyFile: [UInt8]?

    /// Whether the keychain has been created (its keys exist).
    var isCreated: Bool { format != nil }

    /// Reads the rows.
    ///
    /// - Throws: `.decode` when a row is missing or has the wrong type, or the format is not
    ///   one this code knows.
    static func load(_ db: Database) throws -> KeychainMeta {
        var values: [String: DatabaseValue] = [:]
        for row in try db.fetchAll(sql: "SELECT name, value FROM keychain_meta") {
            if case .text(let name)? = row[0], let value = row[1] {
                values[name] = value
            }
        }
        var meta = KeychainMeta()
        guard let format = values[KeychainSchema.Meta.format] else { return meta }
        guard case .integer(let number) = format, number == KeychainSchema.format else {
            throw KeychainError(.decode, "the keychain's format is not one this version reads")
        }
        meta.format = number
        func blob(_ name: String) throws -> [UInt8] {
            guard case .blob(let data)? = values[name] else {
                throw KeychainError(.decode, "the keychain's \(name) is missing or not a blob")
            }
            return [UInt8](data)
        }
        func integer(_ name: String) throws -> Int {
            guard case .integer(let value)? = values[name], let int = Int(exactly: value) else {
                throw KeychainError(.decode, "the keychain's \(name) is missing or not an integer")
            }
            return int
        }
        meta.salt = try blob(KeychainSchema.Meta.salt)
        meta.scrypt = ScryptParameters(
            log2N: try integer(KeychainSchema.Meta.log2N), r: try integer(KeychainSchema.Meta.r),
            p: try integer(KeychainSchema.Meta.p))
        do {
            try meta.scrypt.validate()
        } catch {
            throw KeychainError(.decode, "the keychain's stored scrypt parameters are invalid")
        }
        meta.wrappedWhenUnlocked = try blob(KeychainSchema.Meta.whenUnlocked)
        meta.wrappedAfterFirstUnlock = try blob(KeychainSchema.Meta.afterFirstUnlock)
        if values[KeychainSchema.Meta.afterFirstUnlockKeyFile] != nil {
            meta.wrappedAfterFirstUnlockByKeyFile = try blob(
                KeychainSchema.Meta.afterFirstUnlockKeyFile)
        }
        return meta
    }

    /// Writes the passphrase part: format, salt, parameters and both passphrase-wrapped keys.
    func savePassphraseWrapping(_ db: Database) throws {
        let rows: [(String, DatabaseValue)] = [
            (KeychainSchema.Meta.format, .integer(KeychainSchema.format)),
            (KeychainSchema.Meta.salt, .blob(Data(salt))),
            (KeychainSchema.Meta.log2N, .integer(Int64(scrypt.log2N))),
            (KeychainSchema.Meta.r, .integer(Int64(scrypt.r))),
            (KeychainSchema.Meta.p, .integer(Int64(scrypt.p))),
            (KeychainSchema.Meta.whenUnlocked, .blob(Data(wrappedWhenUnlocked))),
            (KeychainSchema.Meta.afterFirstUnlock, .blob(Data(wrappedAfterFirstUnlock))),
        ]
        for (name, value) in rows {
            try Self.save(name, value, db)
        }
    }

    /// Inserts or replaces one row.
    static func save(_ name: String, _ value: DatabaseValue, _ db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO keychain_meta (name, value) VALUES (?, ?)",
            arguments: StatementArguments(positional: [.text(name), value]))
    }

    /// The authenticated data of a wrapped key: its purpose, so that wrapped keys cannot be
    /// swapped between rows.
    static func wrappingAAD(_ name: String) -> [UInt8] {
        var writer = ByteWriter()
        writer.append("objectgraph.keychain.v1.wrapped-key")
        writer.append(name)
        return writer.bytes
    }
}
