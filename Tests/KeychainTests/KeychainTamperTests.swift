import Foundation
import Keychain
import SQLiteDatabase
import Testing

/// Edits the keychain file behind the store's back, as an attacker with the file would.
@Suite struct KeychainTamperTests {
    /// A keychain with two items, and a connection to its file.
    struct Tampered {
        let fixture: KeychainFixture
        let store: KeychainStore
        let db: Database

        init() throws {
            fixture = try KeychainFixture()
            store = try fixture.unlockedStore()
            try store.add(
                .genericPassword(service: "bank", account: "ada", data: Data(text: "ada-secret")))
            try store.add(
                .genericPassword(service: "bank", account: "bob", data: Data(text: "bob-secret")))
            db = try Database(
                path: fixture.location.databaseURL.path, options: .init(busyTimeout: 5))
        }

        func id(of account: String) throws -> Int64 {
            // Rows are in insertion order: ada first.
            let ids = try db.fetchAll(sql: "SELECT id FROM keychain_item ORDER BY id")
                .map { try $0.decode(Int64.self, at: 0) }
            return ids[account == "ada" ? 0 : 1]
        }

        func blob(_ column: String, of account: String) throws -> Data {
            try #require(
                try db.fetchValue(
                    Data.self, sql: "SELECT \(column) FROM keychain_item WHERE id = ?",
                    arguments: [try id(of: account)]))
        }

        func set(_ column: String, of account: String, to value: (any DatabaseValueConvertible)?)
            throws
        {
            try db.execute(
                sql: "UPDATE keychain_item SET \(column) = ? WHERE id = ?",
                arguments: [value, try id(of: account)])
        }

        func remove() {
            try? db.close()
            fixture.remove()
        }
    }

    static let ada = KeychainQuery.genericPassword(service: "bank", account: "ada")

    @Test func flippedCiphertextIsADecodeError() throws {
        let tampered = try Tampered()
        defer { tampered.remove() }
        var secret = [UInt8](try tampered.blob("secret", of: "ada"))
        secret[14] ^= 0x01
        try tampered.set("secret", of: "ada", to: Data(secret))
        let error = try #require(
            errorText { _ = try tampered.store.copyMatching(Self.ada) })
        #expect(error.contains("decode"))
        #expect(status { _ = try tampered.store.copyMatching(Self.ada) } == .decode)
        // Attributes alone are still intact and readable; bob is untouched.
        #expect(try tampered.store.copyMatching(withReturn(Self.ada, .attributes)).count == 1)
        let bob = KeychainQuery.genericPassword(service: "bank", account: "bob")
        #expect(try tampered.store.copyMatching(bob).first?.string == "bob-secret")
        // Updating the damaged item refuses too.
        #expect(
            status {
                try tampered.store.update(
                    matching: Self.ada, with: KeychainUpdate(label: "relabelled"))
            } == .decode)
    }

    @Test func deleteByLabelOfATamperedRowIsADecodeError() throws {
        let tampered = try Tampered()
        defer { tampered.remove() }
        var attributes = [UInt8](try tampered.blob("attributes", of: "ada"))
        attributes[attributes.count - 1] ^= 0x01
        try tampered.set("attributes", of: "ada", to: Data(attributes))
        var byLabel = KeychainQuery.genericPassword(service: "bank")
        byLabel.label = "any"
        #expect(status { try tampered.store.delete(matching: byLabel) } == .decode)
        // Nothing was deleted: the transaction rolled back.
        var all = KeychainQuery.genericPassword(service: "bank")
        all.matchLimit = .all
        all.returning = []
        #expect(status { _ = try tampered.store.copyMatching(all) } == .decode)
        // Deleting by account needs no decryption, so the damaged item can be removed.
        #expect(try tampered.store.delete(matching: Self.ada) == 1)
        #expect(try tampered.store.copyMatching(all).count == 1)
    }

    @Test func swappedSecretsAreDetected() throws {
        let tampered = try Tampered()
        defer { tampered.remove() }
        let adaSecret = try tampered.blob("secret", of: "ada")
        let bobSecret = try tampered.blob("secret", of: "bob")
        try tampered.set("secret", of: "ada", to: bobSecret)
        try tampered.set("secret", of: "bob", to: adaSecret)
        #expect(status { _ = try tampered.store.copyMatching(Self.ada) } == .decode)
        let text = errorText { _ = try tampered.store.copyMatching(Self.ada) } ?? ""
        #expect(!text.contains("secret\"") && !text.contains("bob-secret"))
    }

    @Test func editedClearAttributesAreDetected() throws {
        for (column, value) in [
            ("service", "elsewhere"), ("accessibility", "afterFirstUnlock"),
            ("modified", "0"), ("access_group", "com.example.app"),
        ] as [(String, String)] {
            let tampered = try Tampered()
            defer { tampered.remove() }
            if column == "access_group" {
                // Move bob's encrypted attributes onto ada's row instead.
                try tampered.set(
                    "attributes", of: "ada", to: try tampered.blob("attributes", of: "bob"))
            } else if column == "modified" {
                try tampered.set(column, of: "ada", to: 12.5)
            } else {
                try tampered.set(column, of: "ada", to: value)
            }
            var all = KeychainQuery.genericPassword()
            all.matchLimit = .all
            all.returning = .attributes
            #expect(
                status { _ = try tampered.store.copyMatching(all) } == .decode,
                "editing \(column) must be detected")
        }
    }

    @Test func editedAccountIndexIsDetected() throws {
        let tampered = try Tampered()
        defer { tampered.remove() }
        // Point ada's row at bob's account index: a lookup of bob now finds two rows, and ada's
        // must not pass as bob's.
        try tampered.set("account_index", of: "ada", to: Data(repeating: 1, count: 32))
        #expect(status { _ = try tampered.store.copyMatching(Self.ada) } == .itemNotFound)
        var all = KeychainQuery.genericPassword(service: "bank")
        all.matchLimit = .all
        #expect(status { _ = try tampered.store.copyMatching(all) } == .decode)
    }

    @Test("stored scrypt parameters costing more than it writes are refused before any work")
    func costlyStoredParametersAreTampering() throws {
        let tampered = try Tampered()
        defer { tampered.remove() }
        // Within every per-value range, but 2^22·16·16 is 1,024 times the most ObjectGraph
        // writes: gigabytes and minutes of scrypt before this was refused.
        for (name, value) in [("scrypt.log2n", 22), ("scrypt.r", 16), ("scrypt.p", 16)] {
            try tampered.db.execute(
                sql: "UPDATE keychain_meta SET value = ? WHERE name = ?", arguments: [value, name])
        }
        #expect(
            status { try tampered.fixture.store().unlock(passphrase: KeychainFixture.passphrase) }
                == .decode)
    }

    @Test func damagedKeyDataIsReported() throws {
        let tampered = try Tampered()
        defer { tampered.remove() }
        try tampered.db.execute(
            sql: "UPDATE keychain_meta SET value = ? WHERE name = 'scrypt.log2n'",
            arguments: [60])
        #expect(status { try tampered.fixture.store().unlock(passphrase: "x") } == .decode)
        try tampered.db.execute(
            sql: "UPDATE keychain_meta SET value = ? WHERE name = 'scrypt.log2n'",
            arguments: [10])
        var wrapped = [UInt8](
            try #require(
                try tampered.db.fetchValue(
                    Data.self,
                    sql:
                        "SELECT value FROM keychain_meta WHERE name = 'key.whenUnlocked.passphrase'"
                )))
        wrapped[20] ^= 0x80
        try tampered.db.execute(
            sql: "UPDATE keychain_meta SET value = ? WHERE name = 'key.whenUnlocked.passphrase'",
            arguments: [Data(wrapped)])
        #expect(
            status { try tampered.fixture.store().unlock(passphrase: KeychainFixture.passphrase) }
                == .authFailed)
    }

    @Test func nothingSecretIsStoredInClear() throws {
        let tampered = try Tampered()
        defer { tampered.remove() }
        var labelled = KeychainItem.genericPassword(
            service: "bank", account: "carol-account", data: Data(text: "carol-password"))
        labelled.label = "carol-label"
        labelled.comment = "carol-comment"
        try tampered.store.add(labelled)
        try tampered.db.close()
        let bytes = try tampered.fixture.fileContents().reduce(Data(), +)
        for needle in ["carol-account", "carol-password", "carol-label", "carol-comment"] {
            #expect(bytes.range(of: Data(needle.utf8)) == nil, "\(needle) is stored in clear")
        }
        #expect(bytes.range(of: Data("bank".utf8)) != nil)
    }
}
