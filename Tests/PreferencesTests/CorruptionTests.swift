import AppContainer
import Foundation
import Preferences
import Testing

/// Counts error reports from the error handler.
final class ErrorLog: @unchecked Sendable {
    // `lock` protects `errors`.
    private let lock = NSLock()
    private var errors: [PreferencesError] = []

    func record(_ error: PreferencesError) { lock.withLock { errors.append(error) } }
    var all: [PreferencesError] { lock.withLock { errors } }
}

@Suite struct CorruptionTests {
    private func corruptFile(_ contents: Data, in folder: TemporaryFolder) throws -> URL {
        let container = try folder.container()
        let file = try container.preferencesURL.appendingPathComponent("com.example.tests.plist")
        try contents.write(to: file)
        return file
    }

    private func check(contents: Data) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try corruptFile(contents, in: folder)
        let before = try TemporaryFolder.snapshot(ofFolderOf: file)
        let preferences = try folder.preferences()
        let log = ErrorLog()
        preferences.errorHandler = { log.record($0) }
        preferences.register(defaults: ["volume": 5])

        // Defaults stay available.
        #expect(preferences.integer(forKey: "volume") == 5)
        #expect(preferences.string(forKey: "name") == nil)
        #expect(preferences.dictionaryRepresentation() == ["volume": 5])
        try preferences.synchronize()  // nothing pending: a read

        // The error is reported once, naming the file; reading changed nothing in the folder.
        let error = try #require(preferences.lastError)
        guard case .unreadableFile(let path, let reason) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(path == file.path)
        #expect(!reason.isEmpty)
        #expect(log.all == [error])
        #expect(try TemporaryFolder.snapshot(ofFolderOf: file) == before)

        // The first write moves the bad file aside, byte for byte, and makes a fresh file.
        preferences.set("Ada", forKey: "name")
        try preferences.synchronize()
        let moved = try #require(preferences.lastError)
        guard case .corruptFile(let movedPath, let movedTo, let movedReason) = moved else {
            Issue.record("unexpected \(moved)")
            return
        }
        #expect(movedPath == file.path)
        #expect(movedTo.hasPrefix(file.path + ".corrupt-"))
        #expect(movedReason == reason)
        #expect(try Data(contentsOf: URL(fileURLWithPath: movedTo)) == contents)
        #expect(preferences.string(forKey: "name") == "Ada")
        #expect(try TemporaryFolder.propertyList(at: file)["name"] as? String == "Ada")
        #expect(preferences.integer(forKey: "volume") == 5)
        #expect(log.all == [error, moved])
    }

    /// Valid by the format, but Foundation's reader crashes on it (a set holding a dictionary).
    @Test func aBinaryPlistWithASetOfADictionaryIsMovedAside() throws {
        try check(
            contents: Data([
                0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30, 0xD1, 0x01, 0x02, 0x51, 0x6B, 0xC1,
                0x03, 0xD0, 0x08, 0x0B, 0x0D, 0x0F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x01,
                0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
            ]))
    }

    @Test func garbageIsMovedAside() throws {
        try check(contents: Data("this is { not a plist".utf8))
    }

    @Test func aTruncatedXMLPlistIsMovedAside() throws {
        let data = try PropertyListSerialization.data(
            fromPropertyList: ["name": "Grace", "list": [1, 2, 3]], format: .xml, options: 0)
        try check(contents: data.prefix(data.count / 2))
    }

    @Test func aTruncatedBinaryPlistIsMovedAside() throws {
        let data = try PropertyListSerialization.data(
            fromPropertyList: ["name": "Grace", "list": [1, 2, 3]], format: .binary, options: 0)
        try check(contents: data.prefix(data.count - 10))
    }

    @Test func anEmptyFileIsMovedAside() throws {
        try check(contents: Data())
    }

    @Test func aPlistThatIsNotADictionaryIsMovedAside() throws {
        let data = try PropertyListSerialization.data(
            fromPropertyList: ["just", "an", "array"], format: .xml, options: 0)
        try check(contents: data)
    }

    @Test func readingACorruptFileChangesNothingInItsFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try corruptFile(
            Data("<?xml version=\"1.0\"?><plist><dict><key>a".utf8), in: folder)
        let before = try TemporaryFolder.snapshot(ofFolderOf: file)
        // Several separate readers, as several processes would be; none writes.
        for link in ["one", "two"] {
            let reader = try folder.separateInstance(through: link)
            #expect(reader.object(forKey: "a") == nil)
            #expect(reader.dictionaryRepresentation().isEmpty)
            try reader.synchronize()
            guard case .unreadableFile? = reader.lastError else {
                Issue.record("unexpected \(String(describing: reader.lastError))")
                return
            }
        }
        #expect(try TemporaryFolder.snapshot(ofFolderOf: file) == before)
    }

    @Test func aWriterMeetingACorruptFileMovesItAsideToo() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        let log = ErrorLog()
        preferences.errorHandler = { log.record($0) }
        preferences.set(1, forKey: "before")
        try preferences.synchronize()
        // Someone breaks the file between two writes.
        try Data("broken".utf8).write(to: preferences.fileURL)
        preferences.set(2, forKey: "after")
        try preferences.synchronize()
        #expect(log.all.count == 2, "read: cannot be read; write: moved aside")
        guard case .corruptFile? = log.all.last else {
            Issue.record("unexpected \(log.all)")
            return
        }
        let stored = try TemporaryFolder.propertyList(at: preferences.fileURL)
        #expect(stored["after"] as? Int == 2)
        let names = try FileManager.default.contentsOfDirectory(
            atPath: preferences.fileURL.deletingLastPathComponent().path)
        #expect(names.contains { $0.hasPrefix("com.example.tests.plist.corrupt-") })
    }
}
