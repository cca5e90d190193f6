import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A file being written beside the file it will become, moved into place only when complete.
///
/// It is named `.<name>.tmp-<pid>-XXXXXX` in the destination's folder (one file system, so the
/// move is a rename) and held under an exclusive `flock` for as long as its writer has it open.
/// A killed writer's lock goes with its process, so ``removeStale(beside:)`` — run by the next
/// writer or opener of the destination — tells a left-over file from one being written, whatever
/// process namespace the writer ran in and even when its pid was reused. The pid in the name is
/// for people reading the folder.
///
/// Dropping a staging file that was not installed removes it (with SQLite's `-journal`, `-wal`
/// and `-shm` beside it).
final class StagingFile {
    /// The staging file's path.
    let path: String
    /// The file it becomes.
    let destination: URL
    /// The open descriptor holding the lock (`-1` once installed or discarded).
    private(set) var descriptor: Int32

    /// Files SQLite keeps beside a database, by suffix.
    static let sqliteCompanions = ["-journal", "-wal", "-shm"]

    /// Creates an empty staging file for `destination` (mode 0644), locked.
    /// - Throws: ``StoreError/cannotWrite(path:reason:)`` naming `destination` when the folder
    ///   refuses a new file.
    init(for destination: URL) throws {
        self.destination = destination
        let folder = destination.deletingLastPathComponent().path
        let stem = folder + "/" + Self.prefix(for: destination) + "\(getpid())-"
        for _ in 0..<8 {
            var template = Array((stem + "XXXXXX").utf8CString)
            let opened = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
                guard let base = buffer.baseAddress else { return -1 }
                return mkstemp(base)
            }
            guard opened >= 0 else {
                throw StoreError.cannotWrite(
                    path: destination.path,
                    reason: "cannot create a temporary file in \(folder): \(Self.errnoText())")
            }
            let name = String(
                decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
                as: UTF8.self)
            // Another process's clean-up may take the file between its creation and the lock;
            // then it is gone (or going) and another name is tried.
            if flock(opened, LOCK_EX | LOCK_NB) == 0, Self.isSameFile(opened, name) {
                fchmod(opened, 0o644)
                path = name
                descriptor = opened
                return
            }
            close(opened)
        }
        throw StoreError.cannotWrite(
            path: destination.path, reason: "cannot hold a temporary file in \(folder)")
    }

    deinit {
        if descriptor >= 0 { discard() }
    }

    /// Flushes the file's contents to disk (whoever wrote them, through any descriptor).
    func synchronize() throws {
        guard fsync(descriptor) == 0 else {
            throw StoreError.cannotWrite(
                path: destination.path, reason: "cannot flush \(path): \(Self.errnoText())")
        }
    }

    /// Moves the file into place as ``destination``, flushes the folder and releases the lock.
    /// With `replacing` false an existing destination is never replaced, even one created a
    /// moment ago by another process.
    /// - Throws: ``ObjectGraphError/fileExists(path:)`` when `replacing` is false and the
    ///   destination exists; ``StoreError/cannotWrite(path:reason:)`` when the move fails. The
    ///   staging file is then still there (``discard()`` removes it).
    func install(replacing: Bool) throws {
        let target = destination.path
        if replacing {
            guard rename(path, target) == 0 else {
                throw StoreError.cannotWrite(
                    path: target, reason: "cannot rename \(path): \(Self.errnoText())")
            }
        } else if link(path, target) == 0 {
            unlink(path)
        } else if errno == EEXIST {
            throw ObjectGraphError.fileExists(path: target)
        } else if [EPERM, EOPNOTSUPP, ENOSYS, EMLINK].contains(errno) {
            // A file system without hard links: check, then rename.
            var info = stat()
            if lstat(target, &info) == 0 { throw ObjectGraphError.fileExists(path: target) }
            guard rename(path, target) == 0 else {
                throw StoreError.cannotWrite(
                    path: target, reason: "cannot rename \(path): \(Self.errnoText())")
            }
        } else {
            throw StoreError.cannotWrite(
                path: target, reason: "cannot move \(path) into place: \(Self.errnoText())")
        }
        Self.synchronizeFolder(of: destination)
        close(descriptor)
        descriptor = -1
    }

    /// Removes the staging file and SQLite's files beside it, and releases the lock.
    func discard() {
        guard descriptor >= 0 else { return }
        for suffix in Self.sqliteCompanions { unlink(path + suffix) }
        unlink(path)
        close(descriptor)
        descriptor = -1
    }

    // MARK: - Left-overs of killed writers

    /// The name every staging file of `destination` starts with: `.<name>.tmp-`.
    static func prefix(for destination: URL) -> String {
        ".\(destination.lastPathComponent).tmp-"
    }

    /// Removes the staging files of `destination` that no living writer holds, with SQLite's
    /// files beside them (and those whose staging file is gone). Files named by an older
    /// version (`.<name>.tmp-XXXXXX`, no pid, written without a lock) are removed when older
    /// than a minute. Files of other destinations, and anything that is not a regular file, are
    /// left alone.
    static func removeStale(beside destination: URL) {
        let folder = destination.deletingLastPathComponent().path
        let prefix = prefix(for: destination)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            return
        }
        let candidates = names.filter { $0.hasPrefix(prefix) }
        guard !candidates.isEmpty else { return }
        for name in candidates where companionSuffix(of: name) == nil {
            let path = folder + "/" + name
            let rest = name.dropFirst(prefix.count)
            if isPidNamed(rest) {
                removeIfUnlocked(path)
            } else if let modified = modificationDate(of: path), modified < Date() - 60 {
                unlink(path)
            }
        }
        for name in candidates {
            guard let suffix = companionSuffix(of: name) else { continue }
            let main = folder + "/" + String(name.dropLast(suffix.count))
            var info = stat()
            if lstat(main, &info) != 0, errno == ENOENT { unlink(folder + "/" + name) }
        }
    }

    /// Removes the staging file at `path` (and its SQLite files) when no process holds its lock.
    /// A name that is a second link to its file is a writer killed between moving its file into
    /// place and removing the old name: the name goes, unopened (opening and closing a store's
    /// file would drop this process's SQLite locks on it).
    private static func removeIfUnlocked(_ path: String) {
        var named = stat()
        guard lstat(path, &named) == 0, named.st_mode & S_IFMT == S_IFREG else { return }
        if named.st_nlink > 1 {
            unlink(path)
            return
        }
        let opened = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard opened >= 0 else { return }
        defer { close(opened) }
        var info = stat()
        guard fstat(opened, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
            flock(opened, LOCK_EX | LOCK_NB) == 0
        else { return }
        for suffix in sqliteCompanions { unlink(path + suffix) }
        unlink(path)
    }

    /// `-journal`, `-wal` or `-shm` when `name` is one of SQLite's files beside a database.
    private static func companionSuffix(of name: String) -> String? {
        sqliteCompanions.first { name.hasSuffix($0) }
    }

    /// Whether `rest` (a staging name after its prefix) is `<pid>-XXXXXX`.
    private static func isPidNamed(_ rest: Substring) -> Bool {
        let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[0].allSatisfy(\.isASCII)
            && parts[0].allSatisfy(\.isNumber) && parts[1].count == 6
    }

    private static func modificationDate(of path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }

    /// Whether the open `descriptor` is still the file named `path`.
    private static func isSameFile(_ descriptor: Int32, _ path: String) -> Bool {
        var open = stat()
        var named = stat()
        return fstat(descriptor, &open) == 0 && stat(path, &named) == 0
            && open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    /// Flushes the folder holding `url`, so a rename in it survives a crash.
    static func synchronizeFolder(of url: URL) {
        let folder = open(url.deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
