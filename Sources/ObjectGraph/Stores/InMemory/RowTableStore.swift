/// A store whose committed rows live in a ``RowTable`` (the in-memory and atomic stores): the
/// reading part of ``PersistentStore`` is the table's, and fetches are left to the context's
/// evaluator.
protocol RowTableStore: PersistentStore {
    /// The committed rows.
    var table: RowTable { get set }
}

extension RowTableStore {
    func row(for id: ObjectID) throws -> StoreRow? { table.row(for: id) }

    func rows(ofEntities entities: Set<Int>) throws -> [StoreRow] {
        table.rows(ofEntities: entities)
    }

    func relatedIDs(of id: ObjectID, entityIndex: Int, position: Int) throws -> [ObjectID] {
        table.relatedIDs(of: id, position: position)
    }

    func rows(for ids: [ObjectID]) throws -> [StoreRow] { ids.compactMap { table.row(for: $0) } }

    /// Rows already hold their relationship lists.
    func relatedRows(of owners: [ObjectID], entityIndex: Int, position: Int) throws
        -> [ObjectID: [StoreRow]]?
    { nil }

    /// Left to the context's evaluator.
    func fetch(_ query: StoreQuery) throws -> [StoreRow]? { nil }

    /// Left to the context's evaluator.
    func count(_ query: StoreQuery) throws -> Int? { nil }

    func newPrimaryKeys(rootEntity: Int, count: Int) throws -> Range<Int64> {
        table.newPrimaryKeys(rootEntity: rootEntity, count: count)
    }

    func conflicts(in changes: ChangeSet) throws -> [SaveConflict] { table.conflicts(in: changes) }

    /// The rows as they are now, copied on write (see ``RowTableSnapshot``).
    func openGeneration() throws -> any PersistentStore { RowTableSnapshot(of: self) }
}
