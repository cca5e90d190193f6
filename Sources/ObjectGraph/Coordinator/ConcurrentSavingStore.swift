/// A store whose saves need not wait for one another: each save is written by a writer of its
/// own, made under the coordinator's lock and then used outside it, so the saves of several
/// contexts run at once (a PostgreSQL store: each on a connection of its own, conflicts found
/// in the save's own transaction). Everything else still goes through the store, under the
/// lock.
protocol ConcurrentSavingStore: PersistentStore {
    /// A store object for one save, used by one thread at a time and never under the
    /// coordinator's lock: it shares the store's identity, connections and caches as they are
    /// now, and leaves the store itself untouched. Called under the coordinator's lock.
    func makeSaveWriter() -> any PersistentStore
}
