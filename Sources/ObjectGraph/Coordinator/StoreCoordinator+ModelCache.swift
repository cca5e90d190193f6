import Foundation

extension StoreCoordinator {
    /// The model Core Data keeps inside the SQLite store at `url` (its `Z_MODELCACHE`), or
    /// `nil` when the store carries none. Opens the file read-only, changing nothing beside it;
    /// use it to open a store whose app model is missing, or as the source model of a
    /// migration when no bundled version matches the store's hashes.
    ///
    /// ```swift
    /// if let model = try StoreCoordinator.cachedModel(ofStoreAt: url) {
    ///     let coordinator = StoreCoordinator(model: model)
    ///     try coordinator.addStore(type: .sqlite, at: url, options: StoreOptions(isReadOnly: true))
    /// }
    /// ```
    ///
    /// - Throws: ``StoreError/cannotOpen(path:reason:)`` when the file is not a readable SQLite
    ///   database; ``ArchivedModelError`` (naming the store and the archive object) when the
    ///   cache is malformed.
    public static func cachedModel(ofStoreAt url: URL) throws -> EntityModel? {
        try SQLiteStore.cachedModel(at: url)
    }
}
