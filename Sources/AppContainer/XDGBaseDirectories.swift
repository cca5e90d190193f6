import Foundation

/// The XDG base folders resolved from an environment, with the spec's defaults.
struct XDGBaseDirectories {
    var dataHome: URL
    var configHome: URL
    var cacheHome: URL
    var temporaryBase: URL
    var home: URL?

    init(environment: [String: String]) throws {
        let home = Self.absolute(environment["HOME"]) ?? Self.homeFromUserDatabase()
        func resolve(_ variable: String, default relative: String) throws -> URL {
            if let path = Self.absolute(environment[variable]) {
                return URL(fileURLWithPath: path, isDirectory: true)
            }
            guard let home else { throw AppContainerError.noHomeDirectory }
            return URL(fileURLWithPath: home, isDirectory: true)
                .appendingPathComponent(relative, isDirectory: true)
        }
        dataHome = try resolve("XDG_DATA_HOME", default: ".local/share")
        configHome = try resolve("XDG_CONFIG_HOME", default: ".config")
        cacheHome = try resolve("XDG_CACHE_HOME", default: ".cache")
        temporaryBase = URL(
            fileURLWithPath: Self.absolute(environment["TMPDIR"]) ?? "/tmp", isDirectory: true)
        self.home = home.map { URL(fileURLWithPath: $0, isDirectory: true) }
    }

    /// The value if it is an absolute path (the spec ignores relative ones).
    static func absolute(_ value: String?) -> String? {
        guard let value, value.hasPrefix("/") else { return nil }
        return value
    }

    /// The current user's home folder from the user database (`getpwuid_r`).
    static func homeFromUserDatabase() -> String? {
        var record = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        return buffer.withUnsafeMutableBufferPointer { storage -> String? in
            guard let base = storage.baseAddress,
                getpwuid_r(getuid(), &record, base, storage.count, &result) == 0,
                result != nil, let directory = record.pw_dir
            else { return nil }
            let path = String(cString: directory)
            return path.hasPrefix("/") ? path : nil
        }
    }
}
