import Foundation
import Keychain
import Testing

/// The statuses of each operation not covered elsewhere.
@Suite struct KeychainStatusTests {
    @Test func updateAndDeleteWhenLockedOrNotEntitled() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        let store = try fixture.unlockedStore()
        try store.add(.genericPassword(service: "s", account: "a", data: Data(text: "x")))
        try store.createKeyFile()
        let query = KeychainQuery.genericPassword(service: "s", account: "a")

        // With the key file only, a "when unlocked" item cannot be re-encrypted...
        let unattended = fixture.store()
        #expect(
            status { try unattended.update(matching: query, with: KeychainUpdate(label: "l")) }
                == .interactionNotAllowed)
        // ...but it can be deleted (no secret is needed for that).
        try store.add(.genericPassword(service: "s", account: "b", data: Data()))
        #expect(try unattended.delete(matching: .genericPassword(service: "s", account: "b")) == 1)

        // Without any key, nothing works.
        try store.removeKeyFile()
        let locked = fixture.store()
        #expect(status { try locked.delete(matching: query) } == .interactionNotAllowed)
        #expect(
            status { try locked.update(matching: query, with: KeychainUpdate(label: "l")) }
                == .interactionNotAllowed)

        // Not entitled.
        var foreign = query
        foreign.accessGroup = "com.example.other"
        #expect(
            status { try store.update(matching: foreign, with: KeychainUpdate(label: "l")) }
                == .missingEntitlement)
        #expect(status { try store.delete(matching: foreign) } == .missingEntitlement)
        #expect(try store.copyMatching(query).first?.string == "x")
    }

    @Test func anUnusableLocationIsAnIOError() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        // A file where the keychain's folder should be.
        let blocker = fixture.root.appendingPathComponent("blocker")
        try Data("not a folder".utf8).write(to: blocker)
        let store = KeychainStore(
            location: KeychainLocation(directory: blocker.appendingPathComponent("keychain")))
        #expect(status { try store.create(passphrase: "p", scrypt: .fast) } == .io)
        #expect(status { try store.unlock(passphrase: "p") } == .io)
        #expect(status { _ = try store.copyMatching(.genericPassword()) } == .io)
        #expect(
            status { try store.add(.genericPassword(service: "s", account: "a", data: Data())) }
                == .io)
        // A file that is not a database.
        let folder = fixture.root.appendingPathComponent("garbage", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let garbage = KeychainLocation(directory: folder)
        try Data(repeating: 0x41, count: 4096).write(to: garbage.databaseURL)
        #expect(status { try KeychainStore(location: garbage).unlock(passphrase: "p") } == .io)
    }
}
