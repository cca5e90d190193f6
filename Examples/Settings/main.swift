// Settings: an app's everyday local storage on Linux — preferences with defaults, a Codable
// value archived into Documents, a cache file kept out of backups — and where each file lives.
//
//   swift run Settings           an iOS-layout container under the temporary folder
//   swift run Settings --xdg     the XDG placement (~/.config, ~/.local/share, ~/.cache)
//
// Run it twice: the launch count and theme come back from the preferences file.

import AppContainer
import Archive
import Foundation
import Preferences

/// What the app archives into Documents.
struct Profile: Codable, Equatable {
    var name: String
    var fontSize: Int
    var favoriteColors: [String]
    var updated: Date
}

func run() throws {
    let identifier = "com.example.settings"
    let container: AppContainer
    if CommandLine.arguments.contains("--xdg") {
        container = try AppContainer(identifier: identifier)
    } else {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("ObjectGraph-Settings-\(getuid())", isDirectory: true)
        container = try AppContainer(identifier: identifier, root: root)
    }

    // Preferences: defaults first, then this launch's values.
    let preferences = Preferences(container: container)
    preferences.register(defaults: ["fontSize": 13, "theme": "light", "showsSidebar": true])
    let observation = preferences.observe("theme") { value in
        print("  (observed: theme is now \(value?.description ?? "unset"))")
    }
    // A read-modify-write: `update` holds the writers' lock from the read to the write, so
    // two copies launched at once both count.
    let launches = try preferences.update(Int.self, forKey: "launchCount") { ($0 ?? 0) + 1 } ?? 1
    preferences.set(Date(), forKey: "lastLaunch")
    preferences.set(launches.isMultiple(of: 2) ? "dark" : "light", forKey: "theme")
    try preferences.encode(["width": 1024, "height": 768], forKey: "windowSize")
    try preferences.synchronize()
    observation.cancel()

    print("Preferences")
    print("  launch number  \(launches)")
    print("  theme          \(preferences.string(forKey: "theme") ?? "?")")
    print("  font size      \(preferences.integer(forKey: "fontSize")) (registered default)")
    print("  sidebar        \(preferences.bool(forKey: "showsSidebar"))")
    print(
        "  window         \(try preferences.decode([String: Int].self, forKey: "windowSize") ?? [:])"
    )
    if let error = preferences.lastError { print("  note: \(error)") }

    // An archive in Documents.
    let profile = Profile(
        name: "Ada", fontSize: preferences.integer(forKey: "fontSize"),
        favoriteColors: ["teal", "amber"], updated: Date())
    let archive = try container.documentsURL.appendingPathComponent("profile.plist")
    try Archive.write(profile, to: archive)
    let restored = try Archive.read(Profile.self, from: archive)
    print("\nArchive")
    print(
        "  wrote and read back \(restored.name)'s profile: \(restored == profile ? "equal" : "DIFFERENT")"
    )

    // A cache file, marked "do not back up".
    let cache = try container.cachesURL.appendingPathComponent("thumbnails.cache")
    try Data(repeating: 7, count: 64).write(to: cache)
    print("\nCache")
    do {
        try AppContainer.setExcludedFromBackup(true, at: cache)
        let excluded = try AppContainer.isExcludedFromBackup(cache)
        print("  excluded from backup (\(AppContainer.backupAttributeName)): \(excluded)")
    } catch AppContainerError.extendedAttributesUnsupported {
        print("  this file system has no user extended attributes; backup mark skipped")
    }

    // Scratch space is the app's to lose.
    let scratch = try container.temporaryURL.appendingPathComponent("download.part")
    try Data("partial".utf8).write(to: scratch)
    let purged = try container.purgeTemporaryFiles()
    print("  purged \(purged) temporary file(s)")

    print("\nWhere things live")
    for directory in AppContainer.Directory.allCases {
        let label = directory.rawValue.padding(toLength: 20, withPad: " ", startingAt: 0)
        print("  \(label)\(container.location(of: directory).path)")
    }
    print("  preferences file    \(preferences.fileURL.path)")
    print("  profile archive     \(archive.path)")
    print("  cache file          \(cache.path)")
    let documents = container.searchPath(for: .documentDirectory).first ?? "?"
    print("  searchPath(.documentDirectory) = \(documents)")
}

do {
    try run()
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
