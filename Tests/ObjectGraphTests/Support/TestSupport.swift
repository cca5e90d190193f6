import Foundation
import ObjectGraph

/// Paths and temporary folders shared by the tests.
enum TestSupport {
    /// The package's root folder.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `../shared/corpus` beside the package (or the folder `OBJECTGRAPH_CORPUS` names, as for
    /// the CLI tests), or `nil` when it is absent.
    static let corpus: URL? = {
        let url =
            ProcessInfo.processInfo.environment["OBJECTGRAPH_CORPUS"].map {
                URL(fileURLWithPath: $0)
            } ?? packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    /// Whether the shared corpus is present.
    static var hasCorpus: Bool { corpus != nil }

    /// The repository's sample models folder.
    static let models = packageRoot.appendingPathComponent("Models")

    /// A new empty temporary folder; remove it with ``removeTemporaryFolder(_:)``.
    static func makeTemporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("objectgraph-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Removes a folder made by ``makeTemporaryFolder()``.
    static func removeTemporaryFolder(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }

    /// Every `contents` file below `folder`, sorted by path.
    static func contentsFiles(below folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var result: [URL] = []
        while let next = walker.nextObject() as? String {
            if (next as NSString).lastPathComponent == "contents" {
                result.append(folder.appendingPathComponent(next))
            }
        }
        return result.sorted { $0.path < $1.path }
    }
}

extension Attribute {
    /// This attribute with the minimum and maximum its type reads from model files (values,
    /// lengths or byte counts), as `minValueString`/`maxValueString`.
    func bounded(_ minimum: String, _ maximum: String) -> Attribute {
        var copy = self
        copy.minValueString = minimum
        copy.maxValueString = maximum
        return copy
    }
}
