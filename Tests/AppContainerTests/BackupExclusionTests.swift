import AppContainer
import Foundation
import Testing

@Suite struct BackupExclusionTests {
    @Test func markingAFileIsQueryable() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("cache.db")
        try Data("x".utf8).write(to: file)
        do {
            #expect(try AppContainer.isExcludedFromBackup(file) == false)
            try AppContainer.setExcludedFromBackup(true, at: file)
        } catch AppContainerError.extendedAttributesUnsupported(let path) {
            // A file system without user xattrs: the error names the file.
            #expect(path == file.path)
            return
        }
        #expect(try AppContainer.isExcludedFromBackup(file))
        try AppContainer.setExcludedFromBackup(false, at: file)
        #expect(try AppContainer.isExcludedFromBackup(file) == false)
        // Clearing twice is fine.
        try AppContainer.setExcludedFromBackup(false, at: file)
    }

    @Test func theAttributeIsTheFreedesktopOne() {
        #expect(AppContainer.backupAttributeName == "user.xdg.robots.backup")
    }

    @Test func aMissingFileIsATypedError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let missing = folder.url.appendingPathComponent("missing")
        #expect(throws: AppContainerError.fileNotFound(path: missing.path)) {
            try AppContainer.setExcludedFromBackup(true, at: missing)
        }
        #expect(throws: AppContainerError.fileNotFound(path: missing.path)) {
            try AppContainer.isExcludedFromBackup(missing)
        }
    }
}
