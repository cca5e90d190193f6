import Archive
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `Archive.write` goes through a staging file beside the archive: a killed writer's left-over
/// goes with the next write, a living writer's stays, and a failed write leaves the old file
/// and nothing else.
@Suite struct ArchiveStagingTests {
    /// The names in `folder`, sorted.
    static func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test("the next write removes a killed writer's staging file; a held one and others stay")
    func staleStagingFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("notes.plist")
        try Archive.write(["a"], to: url)
        // A writer killed mid-write leaves its file, unlocked (its lock died with it).
        let dead = folder.url.appendingPathComponent(".notes.plist.tmp-999999-Ab12Cd")
        try Data("partial".utf8).write(to: dead)
        // A writer that is still writing holds its lock.
        let living = folder.url.appendingPathComponent(".notes.plist.tmp-\(getpid())-Ef34Gh")
        try Data("in progress".utf8).write(to: living)
        let descriptor = open(living.path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try #require(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        // Another archive's staging file is not this write's business.
        let other = folder.url.appendingPathComponent(".other.plist.tmp-999999-Ij56Kl")
        try Data("partial".utf8).write(to: other)

        try Archive.write(["a", "b"], to: url)

        #expect(try Archive.read([String].self, from: url) == ["a", "b"])
        #expect(
            try Self.names(in: folder.url) == [
                ".notes.plist.tmp-\(getpid())-Ef34Gh", ".other.plist.tmp-999999-Ij56Kl",
                "notes.plist",
            ])
    }

    @Test("a write that fails after its data is written leaves the old file and no temporary")
    func failedWriteLeavesOldFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // The destination is a folder holding a file: the final rename fails.
        let url = folder.url.appendingPathComponent("blocked.plist")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        let inside = url.appendingPathComponent("keep")
        try Data("old".utf8).write(to: inside)
        #expect(throws: ArchiveError.self) { try Archive.write(["new"], to: url) }
        #expect(try Data(contentsOf: inside) == Data("old".utf8))
        #expect(try Self.names(in: folder.url) == ["blocked.plist"])
    }

    @Test("a replaced archive keeps its permissions; a new one is 0644")
    func permissions() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("secret.plist")
        try Archive.write(["a"], to: url)
        func mode() throws -> Int {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            return try #require(attributes[.posixPermissions] as? Int)
        }
        #expect(try mode() == 0o644)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        try Archive.write(["b"], to: url)
        #expect(try mode() == 0o600)
        #expect(try Self.names(in: folder.url) == ["secret.plist"])
    }
}
