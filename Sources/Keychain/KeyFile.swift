import Archive
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The key file for unattended unlocking: 32 random bytes in a regular file owned by the user
/// with mode 0600.
enum KeyFile {
    /// Bytes in a key file.
    static let length = Crypto.keyLength

    /// Reads the key, checking that only the owner can read the file.
    ///
    /// - Throws: `.insecureKeyFile` when the file is not a regular file of this user with
    ///   mode 0600 (or stricter); `.io` when it cannot be read; `.decode` when its size is
    ///   wrong.
    static func read(_ url: URL) throws -> SecretBytes {
        let path = url.path
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw KeychainError(.io, "cannot open the key file \(path): \(reason)")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw KeychainError(.io, "cannot inspect the key file \(path)")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw KeychainError(.insecureKeyFile, "the key file \(path) is not a regular file")
        }
        guard status.st_uid == geteuid() else {
            throw KeychainError(
                .insecureKeyFile, "the key file \(path) is not owned by this user")
        }
        let permissions = status.st_mode & 0o777
        guard permissions & 0o077 == 0 else {
            throw KeychainError(
                .insecureKeyFile,
                "the key file \(path) is readable by others (mode "
                    + String(permissions, radix: 8) + "): run chmod 600 on it")
        }
        var bytes = [UInt8](repeating: 0, count: length + 1)
        let count = bytes.withUnsafeMutableBytes { buffer in
            Foundation.read(descriptor, buffer.baseAddress, buffer.count)
        }
        guard count == length else {
            SecretBytes.cleanse(&bytes)
            throw KeychainError(
                .decode, "the key file \(path) must hold exactly \(length) bytes")
        }
        bytes.removeLast()
        return SecretBytes(bytes)
    }

    /// Writes `key` to a new private staging file (mode 0600) beside `url`, held under its lock
    /// until ``install(_:)`` moves it into place (dropping it unused removes it). The staging
    /// files killed writers left beside `url` are removed first.
    static func writeTemporary(_ key: SecretBytes, for url: URL) throws -> StagedFile {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        StagedFile.removeStale(beside: url)
        let staging: StagedFile
        do {
            staging = try StagedFile(for: url, permissions: 0o600)
        } catch {
            throw KeychainError(.io, "cannot write the key file \(url.path): \(error.reason)")
        }
        fchmod(staging.descriptor, 0o600)
        // Written from the secret's own bytes: no copy of the key is left in memory.
        let written = key.bytes.withUnsafeBytes { buffer in
            write(staging.descriptor, buffer.baseAddress, buffer.count)
        }
        guard written == key.count, fsync(staging.descriptor) == 0 else {
            staging.discard()
            throw KeychainError(.io, "cannot write the key file in \(folder.path)")
        }
        return staging
    }

    /// Moves a file made by ``writeTemporary(_:for:)`` into place.
    static func install(_ staging: StagedFile) throws {
        do {
            try staging.install(replacing: true)
        } catch {
            staging.discard()
            throw KeychainError(
                .io, "cannot install the key file \(staging.destination.path): \(error.reason)")
        }
    }
}
