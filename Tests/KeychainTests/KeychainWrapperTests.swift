import Foundation
import Keychain
import Testing

@Suite struct KeychainWrapperTests {
    struct Token: Codable, Equatable {
        var value: String
        var expires: Date
    }

    @Test func setReadRemoveStringsDataAndCodable() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        let keychain = Keychain(service: "com.example.api", store: try fixture.unlockedStore())
        #expect(try keychain.string(for: "ada") == nil)
        try keychain.set("first", for: "ada")
        try keychain.set("second", for: "ada")  // updates
        #expect(try keychain.string(for: "ada") == "second")
        try keychain.set(Data([0, 1, 2]), for: "raw")
        #expect(try keychain.data(for: "raw") == Data([0, 1, 2]))
        #expect(status { _ = try keychain.string(for: "raw") } == nil)
        try keychain.set(Data([0xFF, 0xFE]), for: "binary")
        #expect(status { _ = try keychain.string(for: "binary") } == .decode)
        let token = Token(value: "abc", expires: Date(timeIntervalSince1970: 1_000_000))
        try keychain.set(token, for: "token")
        #expect(try keychain.value(Token.self, for: "token") == token)
        #expect(status { _ = try keychain.value(Token.self, for: "ada") } == .decode)
        #expect(try keychain.allAccounts() == ["ada", "raw", "binary", "token"])
        #expect(try keychain.contains("ada"))
        #expect(try keychain.remove(for: "ada"))
        #expect(try keychain.remove(for: "ada") == false)
        #expect(try keychain.contains("ada") == false)
        // Another service's items are not touched by removeAll.
        let other = Keychain(service: "com.example.other", store: keychain.store)
        try other.set("kept", for: "ada")
        #expect(try keychain.removeAll() == 3)
        #expect(try keychain.allAccounts().isEmpty)
        #expect(try other.string(for: "ada") == "kept")
    }

    @Test func accessibilityAndGroupOfTheWrapper() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        let store = try fixture.unlockedStore(
            KeychainApplication(identifier: "com.example.app", accessGroups: ["group.shared"]))
        var keychain = Keychain(service: "s", store: store, accessibility: .afterFirstUnlock)
        keychain.label = "Shared login"
        try keychain.set("v", for: "ada")
        var query = KeychainQuery.genericPassword(service: "s", account: "ada")
        query.returning = .attributes
        let attributes = try #require(try store.copyMatching(query).first?.attributes)
        #expect(attributes.accessibility == .afterFirstUnlock)
        #expect(attributes.accessGroup == "group.shared")
        #expect(attributes.label == "Shared login")
    }

    @Test func noSecretAppearsInErrorsOrDescriptions() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        let secret = "hunter2-very-secret"
        let account = "secret-account-name"
        let store = try fixture.unlockedStore()
        var item = KeychainItem.genericPassword(
            service: "svc", account: account, data: Data(text: secret))
        try store.add(item)
        var texts: [String] = []
        texts.append(errorText { try store.add(item) } ?? "")
        texts.append(
            errorText {
                _ = try store.copyMatching(.genericPassword(service: "no", account: account))
            }
                ?? "")
        texts.append(
            errorText {
                try store.update(
                    matching: .genericPassword(service: "no", account: account),
                    with: KeychainUpdate(data: Data(text: secret)))
            } ?? "")
        texts.append(errorText { try fixture.store().unlock(passphrase: secret) } ?? "")
        texts.append(
            errorText { try store.changePassphrase(from: secret, to: secret) } ?? "")
        store.lock()
        texts.append(
            errorText { _ = try store.copyMatching(.genericPassword(account: account)) } ?? "")
        try store.unlock(passphrase: KeychainFixture.passphrase)
        var query = KeychainQuery.genericPassword(service: "svc", account: account)
        query.returning = .all
        let match = try #require(try store.copyMatching(query).first)
        #expect(match.string == secret)
        item.label = "label"
        texts += [
            "\(match)", String(reflecting: match), dumped(match), "\(item)", dumped(item),
            "\(KeychainUpdate(data: Data(text: secret), account: account))",
            "\(Keychain(service: "svc", store: store))",
        ]
        #expect(texts.allSatisfy { !$0.isEmpty })
        for text in texts {
            #expect(!text.contains(secret), "secret in: \(text)")
            #expect(!text.contains(account), "account in: \(text)")
            #expect(!text.contains(KeychainFixture.passphrase), "passphrase in: \(text)")
            #expect(!text.contains(Data(secret.utf8).base64EncodedString()))
        }
    }

    private func dumped<T>(_ value: T) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }
}
