import Foundation

extension AppContainer {
    /// The extended attribute that marks a file "do not back up": `user.xdg.robots.backup`
    /// set to `false`, from freedesktop.org's Common Extended Attributes, which Linux backup
    /// and indexing tools read.
    public static let backupAttributeName = "user.xdg.robots.backup"

    /// Marks the file or folder at `url` as excluded from backups (or clears the mark), like
    /// `URLResourceValues.isExcludedFromBackup` on iOS.
    ///
    /// ```swift
    /// try AppContainer.setExcludedFromBackup(true, at: cacheFile)
    /// try AppContainer.isExcludedFromBackup(cacheFile)   // true
    /// ```
    ///
    /// - Throws: ``AppContainerError/fileNotFound(path:)``,
    ///   ``AppContainerError/extendedAttributesUnsupported(path:)`` on file systems without
    ///   user extended attributes, ``AppContainerError/fileSystemError(path:operation:reason:)``.
    public static func setExcludedFromBackup(_ excluded: Bool, at url: URL) throws {
        let path = url.path
        let functions = try ExtendedAttributes(path: path)
        if excluded {
            let value = "false"
            let result = value.withCString { bytes in
                functions.set(path, backupAttributeName, bytes, strlen(bytes), 0)
            }
            if result != 0 { throw error(errno, path: path, operation: "setxattr") }
        } else {
            if functions.remove(path, backupAttributeName) != 0, errno != ENODATA {
                throw error(errno, path: path, operation: "removexattr")
            }
        }
    }

    /// Whether the file or folder at `url` is marked "do not back up".
    ///
    /// - Throws: the same errors as ``setExcludedFromBackup(_:at:)``.
    public static func isExcludedFromBackup(_ url: URL) throws -> Bool {
        let path = url.path
        let functions = try ExtendedAttributes(path: path)
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { bytes in
            functions.get(path, backupAttributeName, bytes.baseAddress, bytes.count)
        }
        if count < 0 {
            let code = errno
            if code == ENODATA || code == ERANGE { return false }
            throw error(code, path: path, operation: "getxattr")
        }
        let value = String(decoding: buffer.prefix(count), as: UTF8.self)
        return value.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() == "false"
    }

    private static func error(_ code: Int32, path: String, operation: String)
        -> AppContainerError
    {
        switch code {
        case ENOENT: return .fileNotFound(path: path)
        case ENOTSUP, EOPNOTSUPP: return .extendedAttributesUnsupported(path: path)
        default:
            return .fileSystemError(
                path: path, operation: operation, reason: AppContainerError.message(for: code))
        }
    }
}

/// The C library's extended-attribute functions, looked up at run time because the `Glibc`
/// module does not export `<sys/xattr.h>`.
private struct ExtendedAttributes {
    typealias Set =
        @convention(c) (
            UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeRawPointer?, Int, Int32
        ) -> Int32
    typealias Get =
        @convention(c) (
            UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutableRawPointer?, Int
        ) -> Int
    typealias Remove = @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32

    let set: Set
    let get: Get
    let remove: Remove

    init(path: String) throws {
        let handle = dlopen(nil, RTLD_NOW)
        defer { if let handle { dlclose(handle) } }
        guard let setSymbol = dlsym(handle, "setxattr"), let getSymbol = dlsym(handle, "getxattr"),
            let removeSymbol = dlsym(handle, "removexattr")
        else {
            throw AppContainerError.extendedAttributesUnsupported(path: path)
        }
        set = unsafeBitCast(setSymbol, to: Set.self)
        get = unsafeBitCast(getSymbol, to: Get.self)
        remove = unsafeBitCast(removeSymbol, to: Remove.self)
    }
}
