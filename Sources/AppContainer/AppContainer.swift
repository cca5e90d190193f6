import Foundation

/// The folders of one app: documents, library, application support, caches, preferences and
/// temporary files, placed after the XDG base directory spec or in the iOS layout under one root.
///
/// ```swift
/// let container = try AppContainer(identifier: "com.example.notes")
/// let documents = try container.url(for: .documents)   // created on first use, mode 0700
/// let store = documents.appendingPathComponent("Notes.sqlite")
/// ```
///
/// With the XDG placement (the default), for identifier `<id>`:
///
/// | Folder | Location |
/// |---|---|
/// | application support | `$XDG_DATA_HOME/<id>` (default `~/.local/share/<id>`) |
/// | documents | `$XDG_DATA_HOME/<id>/Documents` |
/// | library | `$XDG_DATA_HOME/<id>/Library` |
/// | caches | `$XDG_CACHE_HOME/<id>` (default `~/.cache/<id>`) |
/// | preferences | `$XDG_CONFIG_HOME/<id>` (default `~/.config/<id>`) |
/// | temporary | `$TMPDIR/<id>-<uid>` (default `/tmp/<id>-<uid>`), private to the user |
///
/// Variables are honoured only when they hold absolute paths, as the spec says. With the iOS
/// layout (``init(identifier:root:)``) the root is the app's container: `Documents`, `Library`,
/// `Library/Application Support`, `Library/Caches`, `Library/Preferences` and `tmp` sit under it.
///
/// Resolving a container touches nothing on disk; ``url(for:)`` creates a folder (and any
/// missing parent) with owner-only permissions the first time it is asked for.
public struct AppContainer: Sendable, Hashable {
    /// One of the app's folders.
    public enum Directory: String, Sendable, Hashable, CaseIterable {
        /// User documents (`Documents`).
        case documents
        /// The library folder (`Library`).
        case library
        /// Files the app manages itself, such as stores (`Library/Application Support`).
        case applicationSupport
        /// Files the app can rebuild (`Library/Caches`); see ``AppContainer/purgeCaches()``.
        case caches
        /// Settings (`Library/Preferences`); the Preferences module keeps `<id>.plist` here.
        case preferences
        /// Scratch files (`tmp`); see ``AppContainer/purgeTemporaryFiles(olderThan:)``.
        case temporary
    }

    /// Where the folders are placed.
    public enum Layout: Sendable, Hashable {
        /// After the XDG base directory spec, resolved from the given environment.
        case xdg
        /// The iOS layout under the given root folder.
        case rooted(URL)
    }

    /// The app's identifier, such as `com.example.notes`.
    public let identifier: String
    /// How the folders are placed.
    public let layout: Layout
    /// The home folder used to resolve the XDG defaults, when one was needed or known.
    public let homeDirectory: URL?
    let locations: [Directory: URL]

    /// Resolves the XDG placement of the app `identifier`.
    ///
    /// - Parameters:
    ///   - identifier: A safe folder name such as `com.example.notes`: not empty, not `.` or
    ///     `..`, without slashes or control characters, at most 200 bytes.
    ///   - environment: The variables to read (`XDG_DATA_HOME`, `XDG_CONFIG_HOME`,
    ///     `XDG_CACHE_HOME`, `TMPDIR`, `HOME`); tests pass their own.
    /// - Throws: ``AppContainerError/invalidIdentifier(_:reason:)`` for an unsafe identifier,
    ///   ``AppContainerError/noHomeDirectory`` when a default needs a home folder and none exists.
    public init(
        identifier: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        try Self.validate(identifier: identifier)
        let base = try XDGBaseDirectories(environment: environment)
        let data = base.dataHome.appendingPathComponent(identifier, isDirectory: true)
        self.identifier = identifier
        self.layout = .xdg
        self.homeDirectory = base.home
        self.locations = [
            .applicationSupport: data,
            .documents: data.appendingPathComponent("Documents", isDirectory: true),
            .library: data.appendingPathComponent("Library", isDirectory: true),
            .caches: base.cacheHome.appendingPathComponent(identifier, isDirectory: true),
            .preferences: base.configHome.appendingPathComponent(identifier, isDirectory: true),
            .temporary: base.temporaryBase.appendingPathComponent(
                "\(identifier)-\(getuid())", isDirectory: true),
        ]
    }

    /// Places the iOS layout of the app `identifier` under `root`, the app's own container
    /// folder (tests, portable installs, tools that expect the iOS shape).
    ///
    /// ```swift
    /// let container = try AppContainer(identifier: "com.example.notes", root: folder)
    /// container.location(of: .caches)   // folder/Library/Caches
    /// ```
    ///
    /// - Throws: ``AppContainerError/invalidIdentifier(_:reason:)`` for an unsafe identifier.
    public init(identifier: String, root: URL) throws {
        try Self.validate(identifier: identifier)
        let root = root.standardizedFileURL
        let library = root.appendingPathComponent("Library", isDirectory: true)
        self.identifier = identifier
        self.layout = .rooted(root)
        self.homeDirectory = nil
        self.locations = [
            .documents: root.appendingPathComponent("Documents", isDirectory: true),
            .library: library,
            .applicationSupport: library.appendingPathComponent(
                "Application Support", isDirectory: true),
            .caches: library.appendingPathComponent("Caches", isDirectory: true),
            .preferences: library.appendingPathComponent("Preferences", isDirectory: true),
            .temporary: root.appendingPathComponent("tmp", isDirectory: true),
        ]
    }

    /// Where `directory` is, without creating it.
    public func location(of directory: Directory) -> URL {
        // Both initialisers fill every case; the fallback keeps this total without trapping.
        locations[directory]
            ?? URL(fileURLWithPath: "/nonexistent", isDirectory: true)
            .appendingPathComponent(identifier).appendingPathComponent(directory.rawValue)
    }

    /// The folder `directory`, created with owner-only permissions (0700) if it is missing.
    ///
    /// - Throws: ``AppContainerError/cannotCreateDirectory(path:reason:)`` when it cannot be
    ///   made, ``AppContainerError/unsafeDirectory(path:reason:)`` when the private temporary
    ///   folder exists but belongs to someone else or is a link.
    public func url(for directory: Directory) throws -> URL {
        let url = location(of: directory)
        try DirectoryMaker.makeDirectory(at: url)
        if directory == .temporary, case .xdg = layout {
            try DirectoryMaker.checkPrivate(url)
        }
        return url
    }

    /// The documents folder, created on first use.
    public var documentsURL: URL { get throws { try url(for: .documents) } }
    /// The library folder, created on first use.
    public var libraryURL: URL { get throws { try url(for: .library) } }
    /// The application support folder, created on first use.
    public var applicationSupportURL: URL { get throws { try url(for: .applicationSupport) } }
    /// The caches folder, created on first use.
    public var cachesURL: URL { get throws { try url(for: .caches) } }
    /// The preferences folder, created on first use.
    public var preferencesURL: URL { get throws { try url(for: .preferences) } }
    /// The temporary folder, created on first use.
    public var temporaryURL: URL { get throws { try url(for: .temporary) } }
}
