import Foundation
import KeyedArchive

extension EntityModel {
    /// The largest inflated model cache read: 64 MiB (real ones are a few hundred KiB).
    public static let modelCacheLimit = 64 << 20

    /// Decodes the model a Core Data SQLite store keeps in `Z_MODELCACHE.Z_CONTENT`: a raw
    /// DEFLATE stream of an `NSKeyedArchiver` archive whose root is an `NSManagedObjectModel`.
    /// Entities, inheritance, attributes (types, defaults, flags), relationships (inverses,
    /// delete rules, counts, order), uniqueness constraints, compound and fetch indexes, user
    /// info, version hash modifiers, renaming identifiers, configurations, fetch request
    /// templates, fetched properties and validation rules (the compiled minimum, maximum and
    /// regular expression back in their fields) are read. ``modelCache()`` writes it.
    ///
    /// ```swift
    /// let model = try EntityModel(modelCache: content, source: "Notes.sqlite")
    /// model.entityVersionHashes == metadata.versionHashes  // true for a store Core Data wrote
    /// ```
    ///
    /// - Parameters:
    ///   - modelCache: the `Z_MODELCACHE` blob: a raw-DEFLATE stream of the keyed archive.
    ///   - source: the store's path, named by every error.
    /// - Throws: ``ArchivedModelError`` naming `source` and, when past the archive's own
    ///   checks, the archive object that is wrong; the work is bounded by the input's size.
    public init(modelCache: Data, source: String) throws(ArchivedModelError) {
        let archiveBytes: Data
        do { archiveBytes = try RawInflate.inflate(modelCache, limit: Self.modelCacheLimit) } catch
        {
            throw .compression(source: source, error)
        }
        try self.init(modelArchive: archiveBytes, source: source)
    }

    /// Decodes an already inflated `NSKeyedArchiver` archive of an `NSManagedObjectModel`
    /// (see ``init(modelCache:source:)``).
    public init(modelArchive: Data, source: String) throws(ArchivedModelError) {
        let archive: KeyedArchive
        do { archive = try KeyedArchive(data: modelArchive) } catch {
            throw .archive(source: source, reason: error.description)
        }
        var reader = ArchivedModelReader(source: source, objectCount: archive.objectCount)
        self = try reader.model(from: archive)
    }
}
