import AppContainer
import Foundation
import Testing

@Suite struct PurgeTests {
    private func write(_ name: String, in folder: URL, age: TimeInterval) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: url)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: url.path)
        return url
    }

    @Test func purgingTemporaryFilesRemovesEverything() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let container = try AppContainer(identifier: "app", root: folder.url)
        let tmp = try container.temporaryURL
        _ = try write("a", in: tmp, age: 0)
        _ = try write("sub/b", in: tmp, age: 0)
        #expect(try container.purgeTemporaryFiles() == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).isEmpty)
        #expect(FileManager.default.fileExists(atPath: tmp.path), "the folder itself stays")
    }

    @Test func purgingByAgeKeepsRecentFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let container = try AppContainer(identifier: "app", root: folder.url)
        let tmp = try container.temporaryURL
        let day: TimeInterval = 24 * 60 * 60
        let old = try write("old", in: tmp, age: 3 * day)
        let recent = try write("recent", in: tmp, age: 60)
        let oldFolderFile = try write("oldFolder/file", in: tmp, age: 3 * day)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-3 * day)],
            ofItemAtPath: oldFolderFile.deletingLastPathComponent().path)
        // A folder with one recent file counts as recent.
        _ = try write("mixed/old", in: tmp, age: 3 * day)
        let mixedRecent = try write("mixed/recent", in: tmp, age: 60)

        #expect(try container.purgeTemporaryFiles(olderThan: day) == 2)
        #expect(!FileManager.default.fileExists(atPath: old.path))
        #expect(!FileManager.default.fileExists(atPath: oldFolderFile.path))
        #expect(FileManager.default.fileExists(atPath: recent.path))
        #expect(FileManager.default.fileExists(atPath: mixedRecent.path))
    }

    @Test func purgingCachesRemovesEverythingButTheFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let container = try AppContainer(identifier: "app", root: folder.url)
        let caches = try container.cachesURL
        _ = try write("thumbs/1.png", in: caches, age: 0)
        _ = try write("index", in: caches, age: 0)
        let document = try write("keep.txt", in: try container.documentsURL, age: 0)
        #expect(try container.purgeCaches() == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: caches.path).isEmpty)
        #expect(FileManager.default.fileExists(atPath: document.path))
    }

    @Test func purgingMissingFoldersIsANoOp() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let container = try AppContainer(identifier: "app", root: folder.url)
        #expect(try container.purgeCaches() == 0)
        #expect(try container.purgeTemporaryFiles(olderThan: 10) == 0)
    }
}
