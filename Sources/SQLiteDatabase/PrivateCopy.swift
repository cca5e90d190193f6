import Foundation

/// A copy of a database file and its `-wal` or `-journal` in a private folder of the temporary
/// directory, for reading a file that SQLite cannot read in place without changing its folder.
/// The folder is removed by ``remove()`` (when the database closes); folders left by killed
/// processes are removed by the next copy.
final class PrivateCopy {
    /// The start of the folder names: `SQLiteDatabase-copy-<pid>-<UUID>`.
    static let folderPrefix = "SQLiteDatabase-copy-"

    /// The private folder.
    let folder: URL
    /// The copy of the database file.
    let databasePath: String

    /// Copies the database at `path`, and its `-wal` and `-journal` when they exist, into a new
    /// private folder.
    /// - Throws: ``DatabaseError`` (`.cannotOpen`) naming the file that could not be copied.
    init(of path: String) throws {
        let manager = FileManager.default
        Self.removeFoldersOfEndedProcesses()
        folder = manager.temporaryDirectory.appendingPathComponent(
            "\(Self.folderPrefix)\(getpid())-\(UUID().uuidString)")
        databasePath = folder.appendingPathComponent("copy.sqlite").path
        do {
            try manager.createDirectory(
                at: folder, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            try Self.copyDatabase(from: path, to: databasePath)
            for suffix in ["-wal", "-journal"] where manager.fileExists(atPath: path + suffix) {
                // SQLite locks neither file, so a descriptor of our own unlocks nothing.
                try manager.copyItem(atPath: path + suffix, toPath: databasePath + suffix)
                try manager.setAttributes(
                    [.posixPermissions: 0o600], ofItemAtPath: databasePath + suffix)
            }
        } catch {
            remove()
            throw DatabaseError(
                resultCode: .cannotOpen,
                message: "cannot copy \(path) to the private folder \(folder.path): \(error)")
        }
    }

    /// Removes the folder and everything in it.
    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Copies the database file through SQLite's file layer (see ``ImmutableFileReader``), so
    /// that no lock this process holds on it is lost.
    private static func copyDatabase(from path: String, to copy: String) throws {
        let reader = try ImmutableFileReader(path: path)
        guard
            FileManager.default.createFile(
                atPath: copy, contents: nil,
                attributes: [
                    .posixPermissions: 0o600
                ])
        else {
            throw DatabaseError(resultCode: .cannotOpen, message: "cannot create \(copy)")
        }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: copy))
        defer { try? output.close() }
        let size = try reader.size()
        let chunk = 1 << 20
        var offset: Int64 = 0
        while offset < size {
            let bytes = try reader.read(count: chunk, at: offset)
            guard !bytes.isEmpty else { break }
            try output.write(contentsOf: bytes)
            offset += Int64(bytes.count)
        }
    }

    /// Removes the copy folders whose process has ended (killed before it could close).
    private static func removeFoldersOfEndedProcesses() {
        let manager = FileManager.default
        let temporary = manager.temporaryDirectory
        guard let names = try? manager.contentsOfDirectory(atPath: temporary.path) else { return }
        for name in names where name.hasPrefix(folderPrefix) {
            let pidText = name.dropFirst(folderPrefix.count).prefix { $0 != "-" }
            guard let pid = Int32(pidText), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            try? manager.removeItem(at: temporary.appendingPathComponent(name))
        }
    }
}
