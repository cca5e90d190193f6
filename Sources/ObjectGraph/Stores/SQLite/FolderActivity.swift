import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The kernel's word (Linux inotify) that some files of a folder were written, created,
/// removed or renamed: the event source of a ``SQLiteFileWatcher``. Without inotify (another
/// system, or the per-user limit of inotify instances reached) ``descriptor`` is -1 and
/// ``isWatching`` `false`: the watcher then checks at a fixed interval instead.
///
/// Used by one thread only (the watcher's), which closes it.
final class FolderActivity {
    /// The inotify descriptor to wait on (`poll` for reading), or -1.
    private(set) var descriptor: Int32 = -1
    /// Whether the folder is watched: `false` without inotify, and once the kernel dropped the
    /// watch (the folder was removed, say).
    private(set) var isWatching = false
    /// The names of the files whose events count.
    private let names: Set<String>

    /// Watches `folder` for events on the files named `names`.
    init(folder: String, names: Set<String>) {
        self.names = names
        #if canImport(Glibc)
            let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard descriptor >= 0 else { return }
            let events = UInt32(
                IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM)
            guard inotify_add_watch(descriptor, folder, events) >= 0 else {
                Glibc.close(descriptor)
                return
            }
            self.descriptor = descriptor
            isWatching = true
        #endif
    }

    /// Reads every event waiting; returns whether one concerns the watched names, or may have
    /// (the kernel's queue overflowed, or the watch ended, which also ends ``isWatching``).
    func drain() -> Bool {
        var relevant = false
        #if canImport(Glibc)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while descriptor >= 0 {
                let count = buffer.withUnsafeMutableBytes {
                    read(descriptor, $0.baseAddress, $0.count)
                }
                guard count > 0 else { break }
                buffer.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset + 16 <= count {
                        let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                        let length = Int(
                            bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                        let end = offset + 16 + length
                        guard end <= count else { break }
                        if mask & UInt32(IN_Q_OVERFLOW) != 0 { relevant = true }
                        if mask & UInt32(IN_IGNORED) != 0 {
                            relevant = true
                            isWatching = false
                        }
                        let nameBytes = bytes[(offset + 16)..<end].prefix { $0 != 0 }
                        if !nameBytes.isEmpty,
                            names.contains(String(decoding: nameBytes, as: UTF8.self))
                        {
                            relevant = true
                        }
                        offset = end
                    }
                }
            }
        #endif
        return relevant
    }

    /// Closes the descriptor.
    func close() {
        #if canImport(Glibc)
            if descriptor >= 0 { Glibc.close(descriptor) }
        #endif
        descriptor = -1
        isWatching = false
    }
}
