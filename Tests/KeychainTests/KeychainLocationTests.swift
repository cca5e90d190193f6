import Foundation
import Keychain
import Testing

@Suite struct KeychainLocationTests {
    @Test func standardPlacementFollowsXDG() throws {
        let data = try KeychainLocation.standard(environment: ["XDG_DATA_HOME": "/srv/data"])
        #expect(data.databaseURL.path == "/srv/data/objectgraph/keychain/keychain.sqlite")
        #expect(data.keyFileURL.path == "/srv/data/objectgraph/keychain/keychain.key")
        let home = try KeychainLocation.standard(environment: ["HOME": "/home/ada"])
        #expect(
            home.databaseURL.path
                == "/home/ada/.local/share/objectgraph/keychain/keychain.sqlite")
        // Relative values are ignored, as the XDG spec says.
        let relative = try KeychainLocation.standard(
            environment: ["XDG_DATA_HOME": "data", "HOME": "/home/ada"])
        #expect(relative.directory.path == "/home/ada/.local/share/objectgraph/keychain")
        let custom = KeychainLocation(
            directory: URL(fileURLWithPath: "/tmp/k"),
            keyFileURL: URL(fileURLWithPath: "/run/k.key"))
        #expect(custom.keyFileURL.path == "/run/k.key")
    }

    @Test func filesArePrivateToTheUser() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        let store = try fixture.unlockedStore()
        try store.add(.genericPassword(service: "s", account: "a", data: Data()))
        let manager = FileManager.default
        let folderMode =
            try manager.attributesOfItem(atPath: fixture.location.directory.path)[
                .posixPermissions] as? Int
        let fileMode =
            try manager.attributesOfItem(atPath: fixture.location.databaseURL.path)[
                .posixPermissions] as? Int
        #expect(folderMode == 0o700)
        #expect(fileMode == 0o600)
        #expect(try store.location == fixture.location)
        #expect(try store.exists)
    }
}
