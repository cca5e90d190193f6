import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Crash-safe whole-file writes: a temporary file in the same folder, flushed to disk, renamed
/// over the old file, and the folder flushed. A crash at any moment leaves the old file or the
/// new one, complete.
enum AtomicFile {
    /// Writes `data` to `url` atomically.
    static func write(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent().path
        var template = Array((folder + "/.\(url.lastPathComponent).tmp-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard descriptor >= 0 else {
            throw StoreError.cannotOpen(
                path: url.path, reason: "cannot create a temporary file: \(errnoText())")
        }
        let temporary = String(
            decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var closed = false
        defer {
            if !closed { close(descriptor) }
        }
        do {
            try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
                var offset = 0
                while offset < buffer.count {
                    let written = Glibc.write(
                        descriptor, buffer.baseAddress?.advanced(by: offset), buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw StoreError.sqlite(
                            path: url.path, message: "write failed: \(errnoText())")
                    }
                    offset += written
                }
            }
            fchmod(descriptor, 0o644)
            guard fsync(descriptor) == 0 else {
                throw StoreError.sqlite(path: url.path, message: "fsync failed: \(errnoText())")
            }
            close(descriptor)
            closed = true
            guard rename(temporary, url.path) == 0 else {
                throw StoreError.sqlite(path: url.path, message: "rename failed: \(errnoText())")
            }
        } catch {
            unlink(temporary)
            throw error
        }
        let folderDescriptor = open(folder, O_RDONLY)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
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
        let descriptor = open(lockPath, O_RDWR | O_CREAT, 0o644)
        guard descriptor >= 0 else {
            throw StoreError.cannotOpen(
                path: lockPath, reason: "cannot open the lock file: \(errnoText())")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            if errno != EINTR {
                throw StoreError.cannotOpen(path: lockPath, reason: "cannot lock: \(errnoText())")
            }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
