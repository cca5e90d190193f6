import Archive
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Crash-safe whole-file writes: a staging file in the same folder (``StagedFile``), flushed
/// to disk, renamed over the old file (or, for a new file, moved into place only if none
/// appeared meanwhile), and the folder flushed. A crash at any moment leaves the old file or
/// the new one, complete; the staging file a killed writer leaves is removed by the next write
/// or read-write open (``StagingFile/removeStale(beside:)``).
enum AtomicFile {
    /// Writes `data` to `url` atomically. With `replacing` false, `url` must not exist: a file
    /// that appeared there is never overwritten.
    /// - Throws: ``StoreError/cannotWrite(path:reason:)`` naming `url` and the failing step;
    ///   ``ObjectGraphError/fileExists(path:)`` when `replacing` is false and `url` exists.
    static func write(_ data: Data, to url: URL, replacing: Bool) throws {
        do {
            try StagedFile.write(data, to: url, replacing: replacing)
        } catch {
            throw StagingFile.storeError(error)
        }
    }

    /// What identifies one version of a file: device, inode, size and modification time.
    struct Stamp: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var seconds: Int
        var nanoseconds: Int
    }

    /// The stamp of the file at `url`, or `nil` when there is none.
    static func stamp(of url: URL) -> Stamp? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        return Stamp(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec))
    }

    /// Runs `body` holding an exclusive lock on `<file>.lock` beside the file, so two processes
    /// do not check-and-replace the same file at once.
    static func withLock<T>(for url: URL, _ body: () throws -> T) throws -> T {
        let lockPath = url.path + ".lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw StoreError.cannotOpen(
                path: lockPath, reason: "cannot open the lock file: \(StagingFile.errnoText())")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            if errno != EINTR {
                throw StoreError.cannotOpen(
                    path: lockPath, reason: "cannot lock: \(StagingFile.errnoText())")
            }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
