import Foundation

extension AppContainer {
    /// Deletes the app's temporary files and returns how many entries of `tmp` were removed.
    ///
    /// With an `age`, only entries in which nothing was modified during the last `age` seconds
    /// go (a folder counts by the newest file inside it); without one, everything goes. The
    /// folder itself stays. A missing folder counts as empty.
    ///
    /// ```swift
    /// try container.purgeTemporaryFiles(olderThan: 24 * 60 * 60)   // older than a day
    /// ```
    @discardableResult
    public func purgeTemporaryFiles(olderThan age: TimeInterval? = nil) throws -> Int {
        let cutoff = age.map { Date().addingTimeInterval(-$0) }
        return try purgeContents(of: location(of: .temporary)) { path in
            guard let cutoff else { return true }
            return Self.newestModification(under: path) < cutoff
        }
    }

    /// Deletes everything in the caches folder (keeping the folder) and returns how many
    /// entries were removed.
    @discardableResult
    public func purgeCaches() throws -> Int {
        try purgeContents(of: location(of: .caches)) { _ in true }
    }

    private func purgeContents(of folder: URL, where shouldRemove: (String) -> Bool) throws -> Int {
        let manager = FileManager.default
        let folderPath = folder.path
        guard DirectoryMaker.isDirectory(folderPath) else { return 0 }
        let names: [String]
        do {
            names = try manager.contentsOfDirectory(atPath: folderPath)
        } catch {
            throw AppContainerError.fileSystemError(
                path: folderPath, operation: "listing", reason: error.localizedDescription)
        }
        var removed = 0
        for name in names.sorted() {
            let path = (folderPath as NSString).appendingPathComponent(name)
            guard shouldRemove(path) else { continue }
            do {
                try manager.removeItem(atPath: path)
                removed += 1
            } catch {
                throw AppContainerError.fileSystemError(
                    path: path, operation: "removing", reason: error.localizedDescription)
            }
        }
        return removed
    }

    /// The newest modification date of `path` or anything below it (links are not followed).
    static func newestModification(under path: String) -> Date {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .distantPast }
        var newest = Date(
            timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec)
                + TimeInterval(info.st_mtim.tv_nsec) / 1e9)
        if (info.st_mode & S_IFMT) == S_IFDIR,
            let names = try? FileManager.default.contentsOfDirectory(atPath: path)
        {
            for name in names {
                let child = newestModification(
                    under: (path as NSString).appendingPathComponent(name))
                if child > newest { newest = child }
            }
        }
        return newest
    }
}
