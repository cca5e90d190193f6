import Foundation

extension MigrationPlanner {
    /// The version a store was written with: the latest of `versions` whose entity version
    /// hashes are exactly the store's (`NSStoreModelVersionHashes`: same entities, same hashes).
    ///
    /// When none matches, `carriedModel` is asked for the model the store carries inside it
    /// (issue 20 fills this hook from an SQLite store's `Z_MODELCACHE`); it is used when its
    /// hashes match, under the name `<store>'s model`.
    ///
    /// ```swift
    /// let source = try MigrationPlanner.sourceVersion(
    ///     for: metadata.versionHashes, among: versions, store: url.path)
    /// ```
    ///
    /// - Parameters:
    ///   - storeHashes: the store's entity version hashes, by entity name.
    ///   - versions: the model's versions, oldest first.
    ///   - store: the store's path, named by the error.
    ///   - carriedModel: the model the store carries, asked for when no version matches.
    ///   - current: the version the store should end at, against which the error names the
    ///     differing entities (default: the last of `versions`).
    /// - Throws: ``MigrationError/noSourceModel(store:entities:)`` naming the store and the
    ///   entities whose hashes differ between the store and `current` (sorted), when nothing
    ///   matches.
    public static func sourceVersion(
        for storeHashes: [String: Data], among versions: [ModelVersion], store: String,
        current: ModelVersion? = nil, carriedModel: (() -> EntityModel?)? = nil
    ) throws(MigrationError) -> ModelVersion {
        if let match = versions.last(where: { $0.model.entityVersionHashes == storeHashes }) {
            return match
        }
        if let carried = carriedModel?(), carried.entityVersionHashes == storeHashes {
            return ModelVersion(name: "\(store)'s model", model: carried)
        }
        let currentHashes = (current ?? versions.last)?.model.entityVersionHashes ?? [:]
        let names = Set(storeHashes.keys).union(currentHashes.keys)
        let differing = names.filter { storeHashes[$0] != currentHashes[$0] }
        throw .noSourceModel(store: store, entities: differing.sorted { $0.utf8Less(than: $1) })
    }
}
