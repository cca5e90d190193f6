import Foundation

extension AppContainer {
    /// The app's folders for a Foundation search-path directory, in the spirit of
    /// `NSSearchPathForDirectoriesInDomains`, so code written against the iOS folders reads
    /// the same.
    ///
    /// ```swift
    /// let documents = container.searchPath(for: .documentDirectory)[0]
    /// ```
    ///
    /// Only the user domain has folders (`.userDomainMask`, or a mask that includes it);
    /// `.documentDirectory`, `.libraryDirectory`, `.applicationSupportDirectory`,
    /// `.cachesDirectory` and `.itemReplacementDirectory` (the temporary folder) are mapped,
    /// others give an empty array. Nothing is created.
    ///
    /// - Parameters:
    ///   - directory: The folder asked for, as `FileManager` names it.
    ///   - domains: The domains to search; only the user domain has folders.
    ///   - expandTilde: When `false`, a path inside the home folder starts with `~`.
    public func searchPath(
        for directory: FileManager.SearchPathDirectory,
        in domains: FileManager.SearchPathDomainMask = .userDomainMask,
        expandTilde: Bool = true
    ) -> [String] {
        urls(for: directory, in: domains).map { url in
            let path = url.path
            guard !expandTilde, let home = homeDirectory?.path, home != "/" else { return path }
            if path == home { return "~" }
            if path.hasPrefix(home + "/") { return "~" + path.dropFirst(home.count) }
            return path
        }
    }

    /// The URLs behind ``searchPath(for:in:expandTilde:)``, like `FileManager.urls(for:in:)`.
    public func urls(
        for directory: FileManager.SearchPathDirectory,
        in domains: FileManager.SearchPathDomainMask = .userDomainMask
    ) -> [URL] {
        guard domains.contains(.userDomainMask) else { return [] }
        let mapped: Directory?
        switch directory {
        case .documentDirectory: mapped = .documents
        case .libraryDirectory: mapped = .library
        case .applicationSupportDirectory: mapped = .applicationSupport
        case .cachesDirectory: mapped = .caches
        case .itemReplacementDirectory: mapped = .temporary
        default: mapped = nil
        }
        return mapped.map { [location(of: $0)] } ?? []
    }
}
