import Synchronization

/// Query generations: snapshots of every store that pinned contexts read through (see
/// ``QueryGenerationToken``).
extension StoreCoordinator {
    /// The number of the last generation made in the process.
    private static let lastGenerationNumber = Atomic<Int>(0)

    /// A new generation: every store's view as it is now, made under the lock so that no save
    /// falls between two stores' views.
    /// - Throws: ``StoreError/queryGenerationsNeedWAL(path:journalMode:)`` for a writable
    ///   SQLite store not in WAL mode, or the store's error when its view cannot be opened.
    func newGeneration() throws -> StoreGeneration {
        try withStoresLocked { stores in
            var views: [String: any PersistentStore] = [:]
            for store in stores {
                views[store.description.identifier] = try store.openGeneration()
            }
            return StoreGeneration(
                coordinatorID: ObjectIdentifier(self),
                number: Self.lastGenerationNumber.add(1, ordering: .relaxed).newValue,
                views: views)
        }
    }

    /// Whether `generation` was made by this coordinator.
    func owns(_ generation: StoreGeneration) -> Bool {
        generation.coordinatorID == ObjectIdentifier(self)
    }

    /// Runs `body` with the stores as `generation` sees them (the live stores for `nil`),
    /// under the lock.
    func withStores<T>(
        in generation: StoreGeneration?, _ body: ([any PersistentStore]) throws -> T
    ) rethrows -> T {
        try withStoresLocked { stores in
            guard let generation else { return try body(stores) }
            return try body(stores.map(generation.view(of:)))
        }
    }
}
