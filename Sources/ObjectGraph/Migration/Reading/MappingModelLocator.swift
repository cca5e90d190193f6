import Foundation

/// Finds the Xcode mapping models (`*.xcmappingmodel`) that belong with a model bundle: beside
/// the bundle, in the folder that holds it, and inside it.
///
/// ```swift
/// let mappings = try MappingModelLocator.mappingModels(besides: bundleURL, versions: versions)
/// ```
public enum MappingModelLocator {
    /// Every mapping model beside `bundleURL` or inside it whose source and destination
    /// versions are among `versions`, sorted by file name. Mapping models between other
    /// versions (of another model in the same folder) are left out; a mapping model between
    /// these versions that cannot be read is an error.
    /// - Throws: ``MigrationError/unreadableMappingModel(path:reason:)``.
    public static func mappingModels(besides bundleURL: URL, versions: [ModelVersion])
        throws(MigrationError) -> [MappingModel]
    {
        let names = Set(versions.map(\.name))
        var result: [MappingModel] = []
        for url in candidates(besides: bundleURL) {
            let reader = try MappingModelReader(contentsOf: url)
            guard names.contains(reader.sourceVersionName),
                names.contains(reader.destinationVersionName)
            else { continue }
            result.append(try reader.mappingModel(versions: versions))
        }
        return result
    }

    /// The `.xcmappingmodel` folders in `bundleURL`'s folder and in `bundleURL` itself.
    static func candidates(besides bundleURL: URL) -> [URL] {
        let standardized = bundleURL.standardizedFileURL
        var found: [URL] = []
        var seen: Set<String> = []
        for folder in [standardized.deletingLastPathComponent(), standardized] {
            guard PathKind(atPath: folder.path) == .directory,
                let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
            else { continue }
            for name in names.sorted() where name.hasSuffix(".xcmappingmodel") {
                let url = folder.appendingPathComponent(name)
                if seen.insert(url.path).inserted { found.append(url) }
            }
        }
        return found
    }
}
