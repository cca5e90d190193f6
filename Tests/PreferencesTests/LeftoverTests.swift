import Foundation
import Preferences
import Testing

/// Temporary files of a killed writer are removed by the next write of the same preferences.
@Suite struct LeftoverTests {
    /// Creates `name` beside `file` holding a few bytes, modified `age` seconds ago.
    private static func leftover(_ name: String, beside file: URL, age: TimeInterval) throws -> URL
    {
        let url = file.deletingLastPathComponent().appendingPathComponent(name)
        try Data("<?xml half".utf8).write(to: url)
        try FileManager.default.setAttributes(
            [.modificationDate: Date() - age], ofItemAtPath: url.path)
        return url
    }

    @Test func aKilledWritersTemporaryFilesGoWithTheNextWrite() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        preferences.set("first", forKey: "name")
        try preferences.synchronize()
        let file = preferences.fileURL
        let name = file.lastPathComponent
        // A staging file no process holds a lock on (its writer was killed), and one in the
        // shape earlier versions wrote, old enough that no writer can still be using it.
        let staged = try Self.leftover(".\(name).tmp-999999-AbC123", beside: file, age: 0)
        let unnamed = try Self.leftover(".\(name).Xy12Zq", beside: file, age: 120)
        // A young file of that shape may belong to a writer of an earlier version: it stays.
        let young = try Self.leftover(".\(name).Qw34Er", beside: file, age: 0)

        preferences.set("second", forKey: "name")
        try preferences.synchronize()

        let fileManager = FileManager.default
        #expect(!fileManager.fileExists(atPath: staged.path))
        #expect(!fileManager.fileExists(atPath: unnamed.path))
        #expect(fileManager.fileExists(atPath: young.path))
        let names = try fileManager.contentsOfDirectory(
            atPath: file.deletingLastPathComponent().path)
        #expect(!names.contains { $0.contains(".tmp-") })
        #expect(try folder.preferences().string(forKey: "name") == "second")
    }
}
