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

    /// Writes `key` to a new private file (mode 0600) next to `url`, to be moved into place
    /// with ``install(_:at:)``.
    static func writeTemporary(_ key: SecretBytes, for url: URL) throws -> URL {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let temporary = folder.appendingPathComponent(
            ".\(url.lastPathComponent).\(UUID().uuidString)")
        let descriptor = open(
            temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw KeychainError(.io, "cannot create a key file in \(folder.path): \(reason)")
        }
        defer { close(descriptor) }
        let written = key.bytes.withUnsafeBytes { buffer in
            write(descriptor, buffer.baseAddress, buffer.count)
        }
        guard written == key.count, fsync(descriptor) == 0 else {
            unlink(temporary.path)
            throw KeychainError(.io, "cannot write the key file in \(folder.path)")
        }
        return temporary
    }

    /// Moves a file made by ``writeTemporary(_:for:)`` over `url`.
    static func install(_ temporary: URL, at url: URL) throws {
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw KeychainError(.io, "cannot install the key file \(url.path): \(reason)")
        }
    }
}
