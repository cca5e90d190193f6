/// A generation of a ``RowTableStore`` (in-memory or atomic): its rows as they were when the
/// generation was made, a copy-on-write copy of its ``RowTable`` (nothing is copied until the
/// store changes its own). Read-only: saves and new keys go to the live store.
final class RowTableSnapshot: RowTableStore {
    let description: StoreDescription
    var table: RowTable

    /// The snapshot of `store`'s rows now.
    init(of store: some RowTableStore) {
        var description = store.description
        description.isReadOnly = true
        self.description = description
        table = store.table
    }

    func newPrimaryKeys(rootEntity: Int, count: Int) throws -> Range<Int64> {
        throw StoreError.readOnly(path: description.displayPath)
    }

    func save(_ changes: ChangeSet) throws {
        throw StoreError.readOnly(path: description.displayPath)
    }

    func importRows(_ rows: [StoreRow], schema: ModelSchema) throws {
        throw StoreError.readOnly(path: description.displayPath)
    }

    /// A snapshot does not change: it is its own generation.
    func openGeneration() throws -> any PersistentStore { self }
}
