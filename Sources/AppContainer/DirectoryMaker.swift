import Foundation

/// Creates folders with owner-only permissions, parents first.
enum DirectoryMaker {
    /// Creates `url` and any missing parent with mode 0700; does nothing if it exists.
    static func makeDirectory(at url: URL) throws {
        let path = url.standardizedFileURL.path
        var missing: [String] = []
        var current = path
        while !current.isEmpty, current != "/", !isDirectory(current) {
            missing.append(current)
            current = (current as NSString).deletingLastPathComponent
        }
        for folder in missing.reversed() {
            if mkdir(folder, 0o700) != 0 {
                let code = errno
                // Another thread or process may have made it in the meantime.
                if code == EEXIST, isDirectory(folder) { continue }
                throw AppContainerError.cannotCreateDirectory(
                    path: folder, reason: AppContainerError.message(for: code))
            }
        }
    }

    /// Whether `path` is a folder (following links).
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Checks that `url` is a real folder owned by this user and private to them; makes it
    /// private if it is ours but more open.
    static func checkPrivate(_ url: URL) throws {
        let path = url.standardizedFileURL.path
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw AppContainerError.fileSystemError(
                path: path, operation: "lstat", reason: AppContainerError.message(for: errno))
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw AppContainerError.unsafeDirectory(path: path, reason: "it is not a real folder")
        }
        guard info.st_uid == getuid() else {
            throw AppContainerError.unsafeDirectory(
                path: path, reason: "it belongs to user \(info.st_uid), not \(getuid())")
        }
        if info.st_mode & 0o077 != 0, chmod(path, 0o700) != 0 {
            throw AppContainerError.unsafeDirectory(
                path: path,
                reason: "it is open to others and chmod failed: "
                    + AppContainerError.message(for: errno))
        }
    }
}
