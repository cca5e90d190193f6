/// One generation of a coordinator's stores (Core Data's query generation): a read-only view
/// of each store as it was when the generation was made, unchanged by later saves of any
/// context or coordinator. Made by ``StoreCoordinator/newGeneration()``; contexts reach it
/// through a ``QueryGenerationToken`` and read through it with the coordinator's read methods.
///
/// A SQLite store's view is a read transaction held open on a connection of its own (in WAL
/// mode readers see the file as it was when their transaction began); the in-memory and atomic
/// stores' view is a copy-on-write copy of their rows. The views go (a SQLite view closes its
/// connection) when the last token and context holding the generation let it go.
final class StoreGeneration: @unchecked Sendable {
    // `views` is never changed after `init`, and every store in it is used only under the
    // lock of the coordinator that made it (``StoreCoordinator/withStores(in:_:)``), like the
    // coordinator's own stores.

    /// The coordinator that made the generation.
    let coordinatorID: ObjectIdentifier
    /// The generation's number (1, 2, … across the process), for descriptions.
    let number: Int
    /// Each store's view, by store identifier.
    private let views: [String: any PersistentStore]

    init(coordinatorID: ObjectIdentifier, number: Int, views: [String: any PersistentStore]) {
        self.coordinatorID = coordinatorID
        self.number = number
        self.views = views
    }

    /// What reads of `store` go to in this generation: its view, or the store itself when it
    /// was added after the generation was made.
    func view(of store: any PersistentStore) -> any PersistentStore {
        views[store.description.identifier] ?? store
    }
}
