import Foundation
import Keychain
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The key file is written through a staging file beside it: a killed writer's left-over (a
/// private copy of a key) goes with the next `createKeyFile`, a held one stays.
@Suite struct KeyFileStagingTests {
    @Test("createKeyFile removes a killed writer's staging file and keeps a held one")
    func staleStagingFiles() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        let store = try fixture.unlockedStore()
        let keyFile = fixture.location.keyFileURL
        let folder = keyFile.deletingLastPathComponent()
        let prefix = ".\(keyFile.lastPathComponent).tmp-"
        let dead = folder.appendingPathComponent(prefix + "999999-Ab12Cd")
        try Data(repeating: 7, count: 32).write(to: dead)
        let living = folder.appendingPathComponent(prefix + "\(getpid())-Ef34Gh")
        try Data(repeating: 8, count: 32).write(to: living)
        let descriptor = open(living.path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try #require(flock(descriptor, LOCK_EX | LOCK_NB) == 0)

        try store.createKeyFile()

        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix(prefix) }
        #expect(names == [living.lastPathComponent])
        let permissions =
            try FileManager.default.attributesOfItem(atPath: keyFile.path)[.posixPermissions]
            as? Int
        #expect(permissions == 0o600)
    }
}
