import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A file being written beside the file it will become, moved into place only when complete:
/// the one crash-safe whole-file writer of Archive and ObjectGraph (stores, model files).
///
/// It is named `.<name>.tmp-<pid>-XXXXXX` in the destination's folder (one file system, so the
/// move is a rename) and held under an exclusive `flock` for as long as its writer has it open.
/// A killed writer's lock goes with its process, so ``removeStale(beside:companions:)`` — run
/// by the next writer of the destination — tells a left-over file from one being written,
/// whatever process namespace the writer ran in and even when its pid was reused. The pid in
/// the name is for people reading the folder.
///
/// Dropping a staging file that was not installed removes it, with its companions (files named
/// after it plus a suffix, such as SQLite's `-wal`).
///
/// ```swift
/// try StagedFile.write(data, to: url)  // url holds the old bytes or the new ones, never half
/// ```
package final class StagedFile {
    /// The staging file's path.
    package let path: String
    /// The file it becomes.
    package let destination: URL
    /// Suffixes of files beside the staging file that go with it (SQLite's `-wal`, …).
    package let companions: [String]
    /// The open descriptor holding the lock (`-1` once installed or discarded).
    package private(set) var descriptor: Int32

    /// Creates an empty staging file for `destination`, locked. It gets the permissions of the
    /// file it will replace, or `permissions` when there is none.
    /// - Throws: ``StagingFailure`` naming `destination` when the folder refuses a new file.
    package init(for destination: URL, companions: [String] = [], permissions: mode_t = 0o644)
        throws(StagingFailure)
    {
        self.destination = destination
        self.companions = companions
        let folder = destination.deletingLastPathComponent().path
        var existing = stat()
        let mode =
            stat(destination.path, &existing) == 0 ? existing.st_mode & 0o7777 : permissions
        let stem = folder + "/" + Self.prefix(for: destination) + "\(getpid())-"
        for _ in 0..<8 {
            var template = Array((stem + "XXXXXX").utf8CString)
            let opened = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
                guard let base = buffer.baseAddress else { return -1 }
                return mkstemp(base)
            }
            guard opened >= 0 else {
                throw StagingFailure(
                    path: destination.path,
                    reason: "cannot create a temporary file in \(folder): \(Self.errnoText())")
            }
            let name = String(
                decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
                as: UTF8.self)
            // Another process's clean-up may take the file between its creation and the lock;
            // then it is gone (or going) and another name is tried.
            if flock(opened, LOCK_EX | LOCK_NB) == 0, Self.isSameFile(opened, name) {
                fchmod(opened, mode)
                path = name
                descriptor = opened
                return
            }
            close(opened)
        }
        throw StagingFailure(
            path: destination.path, reason: "cannot hold a temporary file in \(folder)")
    }

    deinit {
        if descriptor >= 0 { discard() }
    }

    /// Writes `data` at the end of the file.
    /// - Throws: ``StagingFailure`` naming the destination and the system's reason.
    package func write(_ data: Data) throws(StagingFailure) {
        let failure: StagingFailure? = data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(
                    descriptor, buffer.baseAddress?.advanced(by: offset), buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return StagingFailure(
                        path: destination.path,
                        reason: "cannot write \(path): \(Self.errnoText())")
                }
                offset += written
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// Flushes the file's contents to disk (whoever wrote them, through any descriptor).
    package func synchronize() throws(StagingFailure) {
        guard fsync(descriptor) == 0 else {
            throw StagingFailure(
                path: destination.path, reason: "cannot flush \(path): \(Self.errnoText())")
        }
    }

    /// Moves the file into place as ``destination``, flushes the folder and releases the lock.
    /// With `replacing` false an existing destination is never replaced, even one created a
    /// moment ago by another process.
    /// - Throws: ``StagingFailure`` (``StagingFailure/destinationExists`` when `replacing` is
    ///   false and the destination exists). The staging file is then still there
    ///   (``discard()`` removes it).
    package func install(replacing: Bool) throws(StagingFailure) {
        let target = destination.path
        if replacing {
            guard rename(path, target) == 0 else {
                throw StagingFailure(
                    path: target, reason: "cannot rename \(path): \(Self.errnoText())")
            }
        } else if link(path, target) == 0 {
            unlink(path)
        } else if errno == EEXIST {
            throw StagingFailure(path: target, destinationExists: true)
        } else if [EPERM, EOPNOTSUPP, ENOSYS, EMLINK].contains(errno) {
            // A file system without hard links: check, then rename.
            var info = stat()
            if lstat(target, &info) == 0 {
                throw StagingFailure(path: target, destinationExists: true)
            }
            guard rename(path, target) == 0 else {
                throw StagingFailure(
                    path: target, reason: "cannot rename \(path): \(Self.errnoText())")
            }
        } else {
            throw StagingFailure(
                path: target, reason: "cannot move \(path) into place: \(Self.errnoText())")
        }
        Self.synchronizeFolder(of: destination)
        close(descriptor)
        descriptor = -1
    }

    /// Removes the staging file and its companions, and releases the lock.
    package func discard() {
        guard descriptor >= 0 else { return }
        for suffix in companions { unlink(path + suffix) }
        unlink(path)
        close(descriptor)
        descriptor = -1
    }

    /// Writes `data` to `url` through a staging file: flushed, moved into place and the folder
    /// flushed, after removing the left-overs of killed writers of `url`. A failure leaves the
    /// old file as it was and no staging file. With `replacing` false, a file that appeared at
    /// `url` is never overwritten.
    /// - Throws: ``StagingFailure`` naming `url` and the failing step.
    package static func write(
        _ data: Data, to url: URL, replacing: Bool = true, permissions: mode_t = 0o644
    ) throws(StagingFailure) {
        removeStale(beside: url)
        let staging = try StagedFile(for: url, permissions: permissions)
        do {
            try staging.write(data)
            try staging.synchronize()
            try staging.install(replacing: replacing)
        } catch {
            staging.discard()
            throw error
        }
    }

    // MARK: - Left-overs of killed writers

    /// The name every staging file of `destination` starts with: `.<name>.tmp-`.
    package static func prefix(for destination: URL) -> String {
        ".\(destination.lastPathComponent).tmp-"
    }

    /// Removes the staging files of `destination` that no living writer holds, with their
    /// companions (and companions whose staging file is gone). Files named by an older
    /// ObjectGraph (`.<name>.tmp-XXXXXX`, no pid, written without a lock) are removed when
    /// older than a minute. Files of other destinations, and anything that is not a regular
    /// file, are left alone.
    package static func removeStale(beside destination: URL, companions: [String] = []) {
        let folder = destination.deletingLastPathComponent().path
        let prefix = prefix(for: destination)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            return
        }
        let candidates = names.filter { $0.hasPrefix(prefix) }
        guard !candidates.isEmpty else { return }
        func companionSuffix(of name: String) -> String? {
            companions.first { name.hasSuffix($0) }
        }
        for name in candidates where companionSuffix(of: name) == nil {
            let path = folder + "/" + name
            let rest = name.dropFirst(prefix.count)
            if isPidNamed(rest) {
                removeIfUnlocked(path, companions: companions)
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

    /// Removes the staging file at `path` (and its companions) when no process holds its lock.
    /// A name that is a second link to its file is a writer killed between moving its file into
    /// place and removing the old name: the name goes, unopened (opening and closing a store's
    /// file would drop this process's SQLite locks on it).
    private static func removeIfUnlocked(_ path: String, companions: [String]) {
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
        for suffix in companions { unlink(path + suffix) }
        unlink(path)
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
    package static func synchronizeFolder(of url: URL) {
        let folder = open(url.deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    /// The system's message for the current `errno`.
    package static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
