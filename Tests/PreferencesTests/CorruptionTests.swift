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
        let preferences = try folder.preferences()
        let log = ErrorLog()
        preferences.errorHandler = { log.record($0) }
        preferences.register(defaults: ["volume": 5])

        // Defaults stay available.
        #expect(preferences.integer(forKey: "volume") == 5)
        #expect(preferences.string(forKey: "name") == nil)

        // The error is reported once, naming both files.
        let error = try #require(preferences.lastError)
        guard case .corruptFile(let path, let movedTo, let reason) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(path == file.path)
        #expect(movedTo.hasPrefix(file.path + ".corrupt-"))
        #expect(!reason.isEmpty)
        #expect(log.all == [error])

        // The bad file is kept aside, byte for byte.
        #expect(try Data(contentsOf: URL(fileURLWithPath: movedTo)) == contents)

        // New writes succeed and make a fresh file; the error is not reported again.
        preferences.set("Ada", forKey: "name")
        try preferences.synchronize()
        #expect(preferences.string(forKey: "name") == "Ada")
        #expect(try TemporaryFolder.propertyList(at: file)["name"] as? String == "Ada")
        #expect(preferences.integer(forKey: "volume") == 5)
        #expect(log.all.count == 1)
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
        #expect(log.all.count == 1)
        let stored = try TemporaryFolder.propertyList(at: preferences.fileURL)
        #expect(stored["after"] as? Int == 2)
        let names = try FileManager.default.contentsOfDirectory(
            atPath: preferences.fileURL.deletingLastPathComponent().path)
        #expect(names.contains { $0.hasPrefix("com.example.tests.plist.corrupt-") })
    }
}
