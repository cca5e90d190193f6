import PostgresClient

/// Saves outside the coordinator's lock: each save gets a writer, a copy of the store with a
/// connection state of its own (``PostgresStore/init(sharing:pinning:)``), which borrows a
/// connection of the pool for the save's transaction. Saves of several contexts of a process
/// then run at once, as saves of several processes always could: `Z_OPT` in each `UPDATE` and
/// `DELETE` finds what another save changed first (also one still waiting on a row lock), the
/// database's unique constraints what another save inserted, and rows are locked in key order
/// so that two saves never wait on each other in a cycle. A writer shares the store's
/// ``PostgresPublishing``: its saves are announced under the store's name, so the store's
/// listener does not count them as another writer's.
extension PostgresStore: ConcurrentSavingStore {
    /// Writable stores only: a read-only store's save fails under the lock, as any other.
    var concurrentSaving: (any ConcurrentSavingStore)? {
        description.isReadOnly ? nil : self
    }

    /// A writer for one save: shares the pool and caches, holds no connection yet. The
    /// store's write plans are made first (once), so that no writer makes them again.
    func makeSaveWriter() -> any PersistentStore {
        if writePlans.count < schema.entities.count {
            for index in schema.entities.indices { _ = writePlan(for: index) }
        }
        return PostgresStore(sharing: self, pinning: nil)
    }
}
