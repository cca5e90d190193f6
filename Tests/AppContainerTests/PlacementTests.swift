import AppContainer
import Foundation
import Testing

@Suite struct PlacementTests {
    @Test func xdgPlacementUsesTheVariables() throws {
        let environment = [
            "XDG_DATA_HOME": "/data", "XDG_CONFIG_HOME": "/config", "XDG_CACHE_HOME": "/cache",
            "TMPDIR": "/scratch", "HOME": "/home/someone",
        ]
        let container = try AppContainer(identifier: "com.example.app", environment: environment)
        #expect(container.location(of: .applicationSupport).path == "/data/com.example.app")
        #expect(container.location(of: .documents).path == "/data/com.example.app/Documents")
        #expect(container.location(of: .library).path == "/data/com.example.app/Library")
        #expect(container.location(of: .caches).path == "/cache/com.example.app")
        #expect(container.location(of: .preferences).path == "/config/com.example.app")
        #expect(container.location(of: .temporary).path == "/scratch/com.example.app-\(getuid())")
        #expect(container.layout == .xdg)
    }

    @Test func xdgPlacementFallsBackToTheHomeFolder() throws {
        let container = try AppContainer(
            identifier: "com.example.app", environment: ["HOME": "/home/someone"])
        #expect(
            container.location(of: .applicationSupport).path
                == "/home/someone/.local/share/com.example.app")
        #expect(container.location(of: .caches).path == "/home/someone/.cache/com.example.app")
        #expect(
            container.location(of: .preferences).path == "/home/someone/.config/com.example.app")
        #expect(container.location(of: .temporary).path == "/tmp/com.example.app-\(getuid())")
    }

    @Test func relativeVariablesAreIgnored() throws {
        let container = try AppContainer(
            identifier: "app", environment: ["HOME": "/h", "XDG_CONFIG_HOME": "relative/config"])
        #expect(container.location(of: .preferences).path == "/h/.config/app")
    }

    @Test func withoutHomeTheUserDatabaseIsUsed() throws {
        let container = try AppContainer(identifier: "app", environment: [:])
        let home = try #require(container.homeDirectory)
        #expect(container.location(of: .caches).path == home.path + "/.cache/app")
    }

    @Test func twoIdentifiersNeverShareAFolder() throws {
        let environment = ["HOME": "/home/someone"]
        let first = try AppContainer(identifier: "com.example.one", environment: environment)
        let second = try AppContainer(identifier: "com.example.two", environment: environment)
        for directory in AppContainer.Directory.allCases {
            #expect(first.location(of: directory) != second.location(of: directory))
        }
    }

    @Test func iOSLayoutUnderOneRoot() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let root = folder.url.appendingPathComponent("Container")
        let container = try AppContainer(identifier: "com.example.app", root: root)
        let expected: [AppContainer.Directory: String] = [
            .documents: "Documents", .library: "Library",
            .applicationSupport: "Library/Application Support", .caches: "Library/Caches",
            .preferences: "Library/Preferences", .temporary: "tmp",
        ]
        for (directory, relative) in expected {
            #expect(container.location(of: directory).path == root.path + "/" + relative)
        }
        #expect(!FileManager.default.fileExists(atPath: root.path), "resolving creates nothing")
    }

    @Test func foldersAreCreatedOnFirstUseOwnerOnly() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let environment = [
            "XDG_DATA_HOME": folder.url.appendingPathComponent("data/deep").path,
            "XDG_CONFIG_HOME": folder.url.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": folder.url.appendingPathComponent("cache").path,
            "TMPDIR": folder.url.path,
        ]
        let container = try AppContainer(identifier: "com.example.app", environment: environment)
        for directory in AppContainer.Directory.allCases {
            let url = try container.url(for: directory)
            var isDirectory: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory))
            #expect(isDirectory.boolValue)
            #expect(try TemporaryFolder.permissions(of: url) == 0o700, "\(directory)")
        }
        let parent = folder.url.appendingPathComponent("data/deep")
        #expect(try TemporaryFolder.permissions(of: parent) == 0o700)
        // Asking again is fine.
        #expect(try container.documentsURL == container.location(of: .documents))
    }

    @Test func iOSLayoutFoldersAreCreated() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let container = try AppContainer(identifier: "app", root: folder.url)
        let caches = try container.cachesURL
        #expect(caches.path.hasSuffix("Library/Caches"))
        #expect(try TemporaryFolder.permissions(of: caches) == 0o700)
        #expect(try TemporaryFolder.permissions(of: container.location(of: .library)) == 0o700)
    }

    @Test func aTemporaryFolderThatIsALinkIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let container = try AppContainer(
            identifier: "app", environment: ["HOME": "/h", "TMPDIR": folder.url.path])
        // A link planted where the private folder should be is not followed.
        let target = folder.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: container.location(of: .temporary), withDestinationURL: target)
        #expect(throws: AppContainerError.self) { try container.temporaryURL }
    }

    @Test func searchPathLikeFoundation() throws {
        let container = try AppContainer(
            identifier: "app", environment: ["HOME": "/home/someone"])
        #expect(
            container.searchPath(for: .documentDirectory)
                == ["/home/someone/.local/share/app/Documents"])
        #expect(container.searchPath(for: .cachesDirectory, expandTilde: false) == ["~/.cache/app"])
        #expect(
            container.urls(for: .applicationSupportDirectory)
                == [container.location(of: .applicationSupport)])
        #expect(container.searchPath(for: .libraryDirectory, in: .allDomainsMask).count == 1)
        #expect(container.searchPath(for: .documentDirectory, in: .systemDomainMask).isEmpty)
        #expect(container.searchPath(for: .desktopDirectory).isEmpty)
    }
}
