import AppContainer
import Foundation
import Keychain
import Testing

@Suite struct KeychainAccessGroupTests {
    static let mail = KeychainApplication(
        identifier: "com.example.mail", accessGroups: ["com.example.shared"])
    static let notes = KeychainApplication(identifier: "com.example.notes")
    static let calendar = KeychainApplication(
        identifier: "com.example.calendar", accessGroups: ["com.example.shared"])

    @Test func appsSeeTheirOwnAndSharedGroupsOnly() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        let mail = try fixture.unlockedStore(Self.mail)
        let notes = try fixture.unlockedStore(Self.notes)
        let calendar = try fixture.unlockedStore(Self.calendar)

        // Mail's default group is its first entitled group.
        try mail.add(.genericPassword(service: "sync", account: "ada", data: Data(text: "m")))
        var own = KeychainItem.genericPassword(service: "sync", account: "ada", data: Data())
        own.accessGroup = "com.example.mail"
        try mail.add(own)
        try notes.add(.genericPassword(service: "sync", account: "ada", data: Data(text: "n")))

        var query = KeychainQuery.genericPassword(service: "sync")
        query.matchLimit = .all
        query.returning = .attributes
        #expect(
            Set(try mail.copyMatching(query).compactMap { $0.attributes?.accessGroup })
                == ["com.example.shared", "com.example.mail"])
        #expect(
            try notes.copyMatching(query).compactMap { $0.attributes?.accessGroup }
                == ["com.example.notes"])
        #expect(
            try calendar.copyMatching(query).compactMap { $0.attributes?.accessGroup }
                == ["com.example.shared"])

        // Naming a group the app is not entitled to.
        query.accessGroup = "com.example.mail"
        #expect(status { _ = try notes.copyMatching(query) } == .missingEntitlement)
        #expect(status { try notes.delete(matching: query) } == .missingEntitlement)
        var foreign = KeychainItem.genericPassword(service: "x", account: "y", data: Data())
        foreign.accessGroup = "com.example.mail"
        #expect(status { try notes.add(foreign) } == .missingEntitlement)

        // Notes cannot update or delete mail's items.
        let sync = KeychainQuery.genericPassword(service: "sync", account: "ada")
        try notes.delete(matching: sync)
        #expect(status { try notes.delete(matching: sync) } == .itemNotFound)
        #expect(try mail.copyMatching(withReturn(sync, .attributes)).count == 1)

        // The owner identity (the CLI) sees every group.
        let owner = try fixture.unlockedStore(.owner())
        var everything = KeychainQuery.genericPassword(service: "sync")
        everything.matchLimit = .all
        #expect(try owner.copyMatching(everything).count == 2)
    }

    @Test func itemsOutliveTheAppContainer() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        let container = try AppContainer(
            identifier: "com.example.app", environment: fixture.environment)
        let documents = try container.url(for: .documents)
        try Data("notes".utf8).write(to: documents.appendingPathComponent("notes.txt"))
        let keychain = Keychain(service: "com.example.app", store: try fixture.unlockedStore())
        try keychain.set("token", for: "ada")

        // Uninstall: the whole container goes.
        try FileManager.default.removeItem(at: container.location(of: .applicationSupport))
        try? FileManager.default.removeItem(at: container.location(of: .preferences))
        #expect(!FileManager.default.fileExists(atPath: documents.path))
        #expect(
            !fixture.location.directory.path.hasPrefix(
                container.location(of: .applicationSupport).path))

        // Reinstall: a new process finds the item.
        let reinstalled = Keychain(service: "com.example.app", store: try fixture.unlockedStore())
        #expect(try reinstalled.string(for: "ada") == "token")
    }
}
