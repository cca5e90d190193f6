import Archive
import Foundation
import KeyedArchive

/// Which version of the preferences file was read: a new file (after an atomic rename) has a
/// new inode, an edit in place a new modification time or size.
struct FileStamp: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var seconds: Int
    var nanoseconds: Int
    var size: Int64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        seconds = Int(info.st_mtim.tv_sec)
        nanoseconds = Int(info.st_mtim.tv_nsec)
        size = Int64(info.st_size)
    }
}

/// What reading the preferences file found.
enum FileContents {
    /// No file: nothing stored yet.
    case missing
    /// The top-level dictionary, as Foundation objects, and the version read.
    case dictionary([String: Any], FileStamp)
    /// Not a property-list dictionary (`reason` says why).
    case corrupt(reason: String, FileStamp)
}

/// The `<id>.plist` file: reading, writing atomically, and the `<id>.plist.lock` file that
/// serialises writers across processes (`flock`).
struct PreferencesFile: Sendable {
    /// The property list.
    let url: URL

    /// The lock file beside it. The plist itself cannot be locked: each write replaces it.
    var lockURL: URL { url.appendingPathExtension("lock") }

    /// The version of the file on disk now, or `nil` if there is none.
    func currentStamp() -> FileStamp? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        return FileStamp(info)
    }

    /// Reads and parses the file.
    ///
    /// - Throws: ``PreferencesError/fileSystem(path:operation:reason:)`` when the file exists
    ///   but cannot be read.
    func load() throws -> FileContents {
        let path = url.path
        // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused just below.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if descriptor < 0 {
            if errno == ENOENT { return .missing }
            throw PreferencesError.system("opening", path: path)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw PreferencesError.system("fstat", path: path)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw PreferencesError.fileSystem(
                path: path, operation: "reading", reason: "it is not a regular file")
        }
        let stamp = FileStamp(info)
        let data = try readAll(descriptor, path: path)
        if data.isEmpty {
            return .corrupt(reason: "the file is empty", stamp)
        }
        if data.starts(with: Array("bplist".utf8)) {
            do {
                try BinaryPropertyList.checkPlainList(data)
            } catch {
                return .corrupt(reason: "not a property list (\(error))", stamp)
            }
        }
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, format: nil)
        } catch {
            return .corrupt(reason: "not a property list (\(Self.reason(error)))", stamp)
        }
        guard let dictionary = object as? [String: Any] else {
            return .corrupt(reason: "the top level is not a dictionary", stamp)
        }
        return .dictionary(dictionary, stamp)
    }

    private func readAll(_ descriptor: Int32, path: String) throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw PreferencesError.system("reading", path: path)
            }
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    /// Runs `body` holding the exclusive lock on the lock file.
    func withExclusiveLock<T>(_ body: () throws -> T) throws -> T {
        let path = lockURL.path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if descriptor < 0 { throw PreferencesError.system("opening the lock file", path: path) }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            if errno != EINTR { throw PreferencesError.system("flock", path: path) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// Renames the file to `<id>.plist.corrupt-<UTC time>` (with a counter if taken) and
    /// returns the new location. Call it holding the lock.
    func moveAside() throws -> URL {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let base = url.path + ".corrupt-" + formatter.string(from: Date())
        var target = base
        var counter = 1
        while access(target, F_OK) == 0 {
            counter += 1
            target = base + "-\(counter)"
        }
        guard rename(url.path, target) == 0 else {
            throw PreferencesError.system("moving the corrupt file aside", path: url.path)
        }
        return URL(fileURLWithPath: target)
    }

    /// `dictionary` as an XML property list.
    ///
    /// - Throws: ``PreferencesError/dateOutOfRange(key:value:)`` for a date outside
    ///   ``PreferenceDate/supportedRange`` (the XML writer would store another date), or
    ///   ``PreferencesError/fileSystem(path:operation:reason:)`` when encoding fails.
    func encode(_ dictionary: [String: Any]) throws -> Data {
        for (key, object) in dictionary { try PreferenceDate.check(object, key: key) }
        do {
            return try PropertyListSerialization.data(
                fromPropertyList: dictionary, format: .xml, options: 0)
        } catch {
            throw PreferencesError.fileSystem(
                path: url.path, operation: "encoding the property list",
                reason: Self.reason(error))
        }
    }

    /// Writes `data` (from ``encode(_:)``) through a staging file beside it (Archive's
    /// `StagedFile`: flushed to disk, renamed over the file, the folder flushed), after removing
    /// the staging files of killed writers. Returns the new version. Call it holding the lock.
    func save(_ data: Data) throws -> FileStamp {
        let path = url.path
        removeUnnamedLeftovers()
        do {
            try StagedFile.write(data, to: url, permissions: 0o600)
        } catch {
            throw PreferencesError.fileSystem(
                path: path, operation: "writing the new file", reason: error.reason)
        }
        var info = stat()
        guard stat(path, &info) == 0 else { throw PreferencesError.system("stat", path: path) }
        return FileStamp(info)
    }

    /// Removes temporary files that earlier versions wrote as `.<id>.plist.XXXXXX` (six
    /// random characters, no lock) and a killed writer left behind: regular files of that
    /// shape older than a minute.
    private func removeUnnamedLeftovers() {
        let folder = url.deletingLastPathComponent().path
        let prefix = ".\(url.lastPathComponent)."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            return
        }
        for name in names where name.hasPrefix(prefix) && name.count == prefix.count + 6 {
            let candidate = folder + "/" + name
            var info = stat()
            guard lstat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
                Double(info.st_mtim.tv_sec) < Date().timeIntervalSince1970 - 60
            else { continue }
            unlink(candidate)
        }
    }

    /// A short reason from a Foundation error.
    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let debug = nsError.userInfo[NSDebugDescriptionErrorKey] as? String { return debug }
        return nsError.localizedDescription
    }
}
