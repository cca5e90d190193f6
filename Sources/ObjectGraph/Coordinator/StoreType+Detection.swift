import Foundation

extension StoreType {
    /// The type of the store file at `url`, from its first bytes (`SQLite format 3`, `<?xml`,
    /// ObjectGraph's binary magic), else from its extension; `nil` when neither tells. Only a
    /// regular file is read: a FIFO, folder or device is judged by its extension alone.
    ///
    /// ```swift
    /// let type = StoreType(detectingFileAt: URL(fileURLWithPath: "School.sqlite"))  // .sqlite
    /// ```
    public init?(detectingFileAt url: URL) {
        if PathKind(atPath: url.path) == .regularFile,
            let handle = try? FileHandle(forReadingFrom: url)
        {
            defer { try? handle.close() }
            let head = (try? handle.read(upToCount: 64)) ?? Data()
            if head.starts(with: Array("SQLite format 3\0".utf8)) {
                self = .sqlite
                return
            }
            let text = String(decoding: head.prefix(64), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if text.hasPrefix("<?xml") || text.hasPrefix("<database") || text.hasPrefix("<!DOCTYPE")
            {
                self = .xml
                return
            }
            if head.starts(with: BinaryStoreFormat.magic) {
                self = .binary
                return
            }
        }
        self.init(fileExtension: url.pathExtension)
    }

    /// The type a file extension names: `sqlite`, `db`, `storedata` → SQLite; `xml` → XML;
    /// `objectgraph`, `bin`, `binary` → binary.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "sqlite", "sqlite3", "db", "storedata": self = .sqlite
        case "xml": self = .xml
        case "objectgraph", "bin", "binary": self = .binary
        default: return nil
        }
    }
}
