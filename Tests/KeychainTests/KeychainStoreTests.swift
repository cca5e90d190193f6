import Foundation
import Keychain
import Testing

@Suite struct KeychainStoreTests {
    @Test func addThenCopyReturnsDataAndAttributes() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        let store = try fixture.unlockedStore()
        var item = KeychainItem.genericPassword(
            service: "com.example.api", account: "ada", data: Data(text: "s3cret"))
        item.label = "API token"
        item.comment = "for tests"
        let before = Date()
        try store.add(item)
        var query = KeychainQuery.genericPassword(service: "com.example.api", account: "ada")
        query.returning = .all
        let matches = try store.copyMatching(query)
        #expect(matches.count == 1)
        let match = try #require(matches.first)
        #expect(match.string == "s3cret")
        let attributes = try #require(match.attributes)
        #expect(attributes.itemClass == .genericPassword)
        #expect(attributes.service == "com.example.api")
        #expect(attributes.account == "ada")
        #expect(attributes.label == "API token")
        #expect(attributes.comment == "for tests")
        #expect(attributes.accessGroup == "com.example.app")
        #expect(attributes.accessibility == .whenUnlocked)
        #expect(attributes.creationDate.timeIntervalSince1970 >= before.timeIntervalSince1970 - 1)
        #expect(attributes.modificationDate == attributes.creationDate)
    }

    @Test func addFailsOnDuplicate() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        let store = try fixture.unlockedStore()
        let item = KeychainItem.genericPassword(service: "s", account: "a", data: Data(text: "1"))
        try store.add(item)
        #expect(status { try store.add(item) } == .duplicateItem)
        // Same account, other service: not a duplicate.
        try store.add(.genericPassword(service: "t", account: "a", data: Data(text: "2")))
        // An internet password with the same account is another class: not a duplicate.
        try store.add(.internetPassword(server: "s", account: "a", data: Data(text: "3")))
    }

    @Test func copyUpdateDeleteFailOnMissing() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        let store = try fixture.unlockedStore()
        let query = KeychainQuery.genericPassword(service: "nothing", account: "nobody")
        #expect(status { _ = try store.copyMatching(query) } == .itemNotFound)
        #expect(
            status { try store.update(matching: query, with: KeychainUpdate(data: Data())) }
                == .itemNotFound)
        #expect(status { try store.delete(matching: query) } == .itemNotFound)
        #expect(status { try store.update(matching: query, with: KeychainUpdate()) } == .param)
    }

    @Test func updateChangesDataAndAttributes() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        let store = try fixture.unlockedStore()
        try store.add(.genericPassword(service: "mail", account: "ada", data: Data(text: "old")))
        let query = KeychainQuery.genericPassword(service: "mail", account: "ada")
        let created = try #require(
            try store.copyMatching(withReturn(query, .attributes)).first?.attributes)
        try store.update(
            matching: query,
            with: KeychainUpdate(data: Data(text: "new"), label: "Mail", comment: "changed"))
        let match = try #require(try store.copyMatching(withReturn(query, .all)).first)
        #expect(match.string == "new")
        #expect(match.attributes?.label == "Mail")
        #expect(match.attributes?.comment == "changed")
        #expect(match.attributes?.creationDate == created.creationDate)
        #expect((match.attributes?.modificationDate ?? .distantPast) >= created.modificationDate)
        // Renaming the account moves the item.
        try store.update(matching: query, with: KeychainUpdate(account: "lovelace"))
        #expect(status { _ = try store.copyMatching(query) } == .itemNotFound)
        let renamed = KeychainQuery.genericPassword(service: "mail", account: "lovelace")
        #expect(try store.copyMatching(renamed).first?.string == "new")
    }

    @Test func updateToAnExistingAccountIsADuplicate() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        let store = try fixture.unlockedStore()
        try store.add(.genericPassword(service: "s", account: "a", data: Data(text: "1")))
        try store.add(.genericPassword(service: "s", account: "b", data: Data(text: "2")))
        let query = KeychainQuery.genericPassword(service: "s", account: "a")
        #expect(
            status { try store.update(matching: query, with: KeychainUpdate(account: "b")) }
                == .duplicateItem)
        // Nothing changed.
        #expect(try store.copyMatching(query).first?.string == "1")
    }

    @Test func deleteRemovesEveryMatch() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        let store = try fixture.unlockedStore()
        for account in ["a", "b", "c"] {
            try store.add(.genericPassword(service: "s", account: account, data: Data()))
        }
        try store.add(.genericPassword(service: "other", account: "a", data: Data()))
        #expect(try store.delete(matching: .genericPassword(service: "s", account: "b")) == 1)
        #expect(try store.delete(matching: .genericPassword(service: "s")) == 2)
        #expect(try store.copyMatching(.genericPassword(service: "other")).count == 1)
    }

    @Test func matchLimitsOneAndAll() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        let store = try fixture.unlockedStore()
        for account in ["first", "second", "third"] {
            try store.add(
                .genericPassword(service: "s", account: account, data: Data(text: account)))
        }
        var query = KeychainQuery.genericPassword(service: "s")
        query.returning = .all
        let one = try store.copyMatching(query)
        #expect(one.count == 1)
        #expect(one.first?.attributes?.account == "first")
        query.matchLimit = .all
        let all = try store.copyMatching(query)
        #expect(all.map { $0.attributes?.account } == ["first", "second", "third"])
        #expect(all.map(\.string) == ["first", "second", "third"])
        // Attributes only: no data is decrypted or returned.
        query.returning = .attributes
        #expect(try store.copyMatching(query).allSatisfy { $0.data == nil })
        query.returning = .data
        #expect(try store.copyMatching(query).allSatisfy { $0.attributes == nil })
    }

    @Test func attributeQueries() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        let store = try fixture.unlockedStore()
        var labelled = KeychainItem.genericPassword(service: "s", account: "a", data: Data())
        labelled.label = "work"
        labelled.comment = "c1"
        try store.add(labelled)
        var other = KeychainItem.genericPassword(service: "s", account: "b", data: Data())
        other.label = "home"
        other.accessibility = .afterFirstUnlock
        try store.add(other)
        var query = KeychainQuery.genericPassword(service: "s")
        query.matchLimit = .all
        query.returning = .attributes
        query.label = "home"
        #expect(try store.copyMatching(query).map { $0.attributes?.account } == ["b"])
        query.label = nil
        query.comment = "c1"
        #expect(try store.copyMatching(query).map { $0.attributes?.account } == ["a"])
        query.comment = nil
        query.accessibility = .afterFirstUnlock
        #expect(try store.copyMatching(query).map { $0.attributes?.account } == ["b"])
        query.accessibility = nil
        query.label = "nowhere"
        #expect(status { _ = try store.copyMatching(query) } == .itemNotFound)
        // Delete by label only deletes the labelled one.
        var byLabel = KeychainQuery.genericPassword(service: "s")
        byLabel.label = "work"
        #expect(try store.delete(matching: byLabel) == 1)
        #expect(try store.copyMatching(.genericPassword(service: "s", account: "b")).count == 1)
    }

    @Test func internetPasswords() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        let store = try fixture.unlockedStore()
        try store.add(
            .internetPassword(
                server: "example.com", account: "ada", protocol: "https", port: 443,
                path: "/login", data: Data(text: "web")))
        try store.add(
            .internetPassword(
                server: "example.com", account: "ada", protocol: "imap", port: 993,
                data: Data(text: "mail")))
        #expect(
            status {
                try store.add(
                    .internetPassword(
                        server: "example.com", account: "ada", protocol: "https", port: 443,
                        path: "/login", data: Data()))
            } == .duplicateItem)
        var query = KeychainQuery.internetPassword(server: "example.com", account: "ada")
        query.matchLimit = .all
        query.returning = .all
        #expect(try store.copyMatching(query).count == 2)
        query.protocol = "imap"
        let imap = try #require(try store.copyMatching(query).first)
        #expect(imap.string == "mail")
        #expect(imap.attributes?.port == 993)
        #expect(imap.attributes?.server == "example.com")
        #expect(imap.attributes?.itemClass == .internetPassword)
        query.protocol = nil
        query.port = 443
        query.path = "/login"
        #expect(try store.copyMatching(query).first?.string == "web")
        // Generic-password queries do not see internet passwords.
        #expect(
            status { _ = try store.copyMatching(.genericPassword(account: "ada")) }
                == .itemNotFound)
        try store.update(matching: query, with: KeychainUpdate(data: Data(text: "web2")))
        #expect(try store.copyMatching(query).first?.string == "web2")
        #expect(try store.delete(matching: .internetPassword(server: "example.com")) == 2)
    }

    @Test func emptyDataAndUnicodeRoundTrip() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        let store = try fixture.unlockedStore()
        try store.add(.genericPassword(service: "s", account: "ünïcødé 🔑", data: Data()))
        let match = try store.copyMatching(
            .genericPassword(service: "s", account: "ünïcødé 🔑"))
        #expect(match.first?.data == Data())
    }
}

func withReturn(_ query: KeychainQuery, _ returning: KeychainReturn) -> KeychainQuery {
    var query = query
    query.returning = returning
    return query
}
