import AppContainer
import Foundation
import Preferences

/// A fresh folder under the system's temporary folder, removed by ``remove()``.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("PreferencesTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// The permission bits of `url`.
    static func permissions(of url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}

extension TemporaryFolder {
    /// An iOS-layout container for `identifier` under this folder.
    func container(_ identifier: String = "com.example.tests") throws -> AppContainer {
        try AppContainer(identifier: identifier, root: url)
    }

    /// Fresh preferences in this folder, with a long autosave delay so that tests decide when
    /// files are written.
    func preferences(_ identifier: String = "com.example.tests") throws -> Preferences {
        let preferences = Preferences(container: try container(identifier))
        preferences.autosaveDelay = 3600
        return preferences
    }

    /// Preferences for the same file reached through a different path (a symbolic link to
    /// this folder), so each has its own state and its own `flock` descriptor, as in another
    /// process.
    func separateInstance(through link: String) throws -> Preferences {
        let linked = url.appendingPathComponent(link)
        if !FileManager.default.fileExists(atPath: linked.path) {
            try FileManager.default.createSymbolicLink(at: linked, withDestinationURL: url)
        }
        let preferences = Preferences(
            container: try AppContainer(identifier: "com.example.tests", root: linked))
        preferences.autosaveDelay = 3600
        return preferences
    }

    /// The names in the folder holding `file` with each file's bytes: what a read must leave
    /// as it found it.
    static func snapshot(ofFolderOf file: URL) throws -> [String: Data] {
        let folder = file.deletingLastPathComponent()
        var contents: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            contents[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return contents
    }

    /// The property list in the file at `url`, read with Foundation.
    static func propertyList(at url: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: url)
        let object = try PropertyListSerialization.propertyList(from: data, format: nil)
        return object as? [String: Any] ?? [:]
    }
}
