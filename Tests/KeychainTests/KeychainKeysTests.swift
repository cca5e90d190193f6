import Foundation
import Keychain
import Testing

@Suite struct KeychainKeysTests {
    @Test func aLockedOrMissingKeychainSaysSo() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        #expect(try store.exists == false)
        #expect(store.lockState == .locked)
        #expect(
            status { _ = try store.copyMatching(.genericPassword(service: "s")) }
                == .noSuchKeychain)
        #expect(status { try store.unlock(passphrase: "x") } == .noSuchKeychain)
        try store.create(passphrase: KeychainFixture.passphrase, scrypt: .fast)
        #expect(store.lockState == .unlocked)
        #expect(
            status { try store.create(passphrase: "other", scrypt: .fast) } == .duplicateKeychain)
        store.lock()
        #expect(store.lockState == .locked)
        #expect(
            status { _ = try store.copyMatching(.genericPassword(service: "s")) }
                == .interactionNotAllowed)
        #expect(
            status { try store.add(.genericPassword(service: "s", account: "a", data: Data())) }
                == .interactionNotAllowed)
    }

    @Test func emptyPassphraseIsAParameterError() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        #expect(status { try fixture.store().create(passphrase: "", scrypt: .fast) } == .param)
        #expect(
            status {
                try fixture.store().create(
                    passphrase: "x", scrypt: ScryptParameters(log2N: 40, r: 8, p: 1))
            } == .param)
        // Each value in range, the work over the most a keychain may ask for.
        #expect(
            status {
                try fixture.store().create(
                    passphrase: "x", scrypt: ScryptParameters(log2N: 18, r: 8, p: 1))
            } == .param)
    }

    @Test func wrongPassphraseFailsAndChangesNothing() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        let store = try fixture.unlockedStore()
        try store.add(.genericPassword(service: "s", account: "a", data: Data(text: "kept")))
        let fileBefore = try fixture.fileContents()
        let other = fixture.store()
        #expect(status { try other.unlock(passphrase: "wrong passphrase") } == .authFailed)
        #expect(other.lockState == .locked)
        #expect(
            status { try other.changePassphrase(from: "wrong passphrase", to: "new") }
                == .authFailed)
        #expect(other.lockState == .locked)
        #expect(try fixture.fileContents() == fileBefore)
        try other.unlock(passphrase: KeychainFixture.passphrase)
        #expect(try other.copyMatching(.genericPassword(service: "s")).first?.string == "kept")
    }

    @Test func changingThePassphraseKeepsItems() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        let store = try fixture.unlockedStore()
        try store.add(.genericPassword(service: "s", account: "a", data: Data(text: "v")))
        try store.changePassphrase(
            from: KeychainFixture.passphrase, to: "a new passphrase",
            scrypt: ScryptParameters(log2N: 11, r: 4, p: 2))
        #expect(store.lockState == .unlocked)
        let reopened = fixture.store()
        #expect(
            status { try reopened.unlock(passphrase: KeychainFixture.passphrase) } == .authFailed)
        try reopened.unlock(passphrase: "a new passphrase")
        #expect(try reopened.copyMatching(.genericPassword(service: "s")).first?.string == "v")
        #expect(
            status { try reopened.changePassphrase(from: "a new passphrase", to: "") } == .param)
        try reopened.unlock(passphrase: "a new passphrase")
    }

    @Test func keyFileOpensOnlyAfterFirstUnlockItems() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        let store = try fixture.unlockedStore()
        try store.add(
            .genericPassword(
                service: "s", account: "daemon", data: Data(text: "background"),
                accessibility: .afterFirstUnlock))
        try store.add(
            .genericPassword(service: "s", account: "user", data: Data(text: "interactive")))
        try store.createKeyFile()
        let keyFile = fixture.location.keyFileURL
        let permissions =
            try FileManager.default.attributesOfItem(atPath: keyFile.path)[
                .posixPermissions] as? Int
        #expect(permissions == 0o600)

        // A fresh store (another process, say) uses the key file by itself.
        let unattended = fixture.store()
        let daemon = try unattended.copyMatching(
            .genericPassword(service: "s", account: "daemon"))
        #expect(daemon.first?.string == "background")
        #expect(unattended.lockState == .afterFirstUnlock)
        // The "when unlocked" item's attributes are visible, its secret is not.
        let user = KeychainQuery.genericPassword(service: "s", account: "user")
        #expect(try unattended.copyMatching(withReturn(user, .attributes)).count == 1)
        #expect(status { _ = try unattended.copyMatching(user) } == .interactionNotAllowed)
        #expect(
            status {
                try unattended.add(
                    .genericPassword(service: "s", account: "new", data: Data()))
            } == .interactionNotAllowed)
        try unattended.add(
            .genericPassword(
                service: "s", account: "new", data: Data(), accessibility: .afterFirstUnlock))
        try unattended.unlock(passphrase: KeychainFixture.passphrase)
        #expect(try unattended.copyMatching(user).first?.string == "interactive")
    }

    @Test func anInsecureOrForeignKeyFileIsRefused() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        let store = try fixture.unlockedStore()
        try store.createKeyFile()
        let keyFile = fixture.location.keyFileURL
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o644], ofItemAtPath: keyFile.path)
        #expect(status { try fixture.store().unlock() } == .insecureKeyFile)
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o600], ofItemAtPath: keyFile.path)
        try fixture.store().unlock()
        // Another key file of the right shape does not unlock it.
        let stranger = fixture.root.appendingPathComponent("stranger.key")
        try Data(repeating: 7, count: 32).write(to: stranger)
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o600], ofItemAtPath: stranger.path)
        #expect(status { try fixture.store().unlock(keyFile: stranger) } == .authFailed)
        // Once removed, only the passphrase works.
        try store.removeKeyFile()
        #expect(status { try fixture.store().unlock() } == .authFailed)
        #expect(
            status { _ = try fixture.store().copyMatching(.genericPassword()) }
                == .interactionNotAllowed)
    }

    @Test func changingAccessibilityReencryptsTheSecret() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        let store = try fixture.unlockedStore()
        try store.createKeyFile()
        let query = KeychainQuery.genericPassword(service: "s", account: "a")
        try store.add(.genericPassword(service: "s", account: "a", data: Data(text: "x")))
        #expect(status { _ = try fixture.store().copyMatching(query) } == .interactionNotAllowed)
        try store.update(matching: query, with: KeychainUpdate(accessibility: .afterFirstUnlock))
        #expect(try fixture.store().copyMatching(query).first?.string == "x")
    }

    @Test func racingCreationsAgreeOnOneKeychain() async throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        let created = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    (try? fixture.store().unlock(
                        passphrase: KeychainFixture.passphrase, createIfMissing: .fast)) ?? false
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(created.filter { $0 }.count == 1)
        try fixture.store().unlock(passphrase: KeychainFixture.passphrase)
    }
}
