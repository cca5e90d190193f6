/// Batch requests a store runs by itself (see ``StoreBatch``).
extension StoreCoordinator {
    /// Runs `batch` in the store holding its entities when that store can run it by itself
    /// and is the coordinator's only store (a delete's rules may reach any entity); `nil`
    /// otherwise, and then the caller saves the rows it works out.
    /// - Throws: ``SaveError/store(_:)`` with ``StoreError/readOnly(path:)`` for a read-only
    ///   store, or what the store throws (nothing is changed then).
    /// A store keeping history records the batch as made by `origin`.
    func execute(_ batch: StoreBatch, origin: HistoryOrigin = HistoryOrigin()) throws
        -> StoreBatchOutcome?
    {
        try withSoleWritableStore(origin: origin) { try $0.execute(batch) }
    }

    /// `body` run on the coordinator's only store, under the stores' lock, with its history
    /// origin set; `nil` when the coordinator has several stores.
    /// - Throws: ``SaveError/store(_:)`` with ``StoreError/readOnly(path:)`` for a read-only
    ///   store, or what `body` throws.
    func withSoleWritableStore<T>(
        origin: HistoryOrigin, _ body: (any PersistentStore) throws -> T?
    ) throws -> T? {
        try withStoresLocked { stores in
            guard stores.count == 1, let store = stores.first else { return nil }
            if store.description.isReadOnly {
                throw SaveError.store(.readOnly(path: store.description.displayPath))
            }
            store.history?.historyOrigin = origin
            return try body(store)
        }
    }
}
