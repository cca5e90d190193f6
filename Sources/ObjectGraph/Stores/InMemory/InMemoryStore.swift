import Foundation

/// A store that keeps committed rows in memory (not live objects): what a context saves is
/// copied here, and fetches read it back. Nothing is written to disk.
final class InMemoryStore: PersistentStore {
    let description: StoreDescription
    private var table = RowTable()

    init(description: StoreDescription) {
        self.description = description
    }

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

    /// The in-memory store leaves fetches to the context's evaluator.
    func fetch(_ query: StoreQuery) throws -> [StoreRow]? { nil }

    /// The in-memory store leaves counts to the context's evaluator.
    func count(_ query: StoreQuery) throws -> Int? { nil }

    func newPrimaryKeys(rootEntity: Int, count: Int) throws -> [Int64] {
        table.newPrimaryKeys(rootEntity: rootEntity, count: count)
    }

    func conflicts(in changes: ChangeSet) throws -> [SaveConflict] { table.conflicts(in: changes) }

    func save(_ changes: ChangeSet) throws {
        if description.isReadOnly {
            throw ObjectGraphError.store("the store \(description.identifier) is read-only")
        }
        try table.apply(changes)
    }

    func importRows(_ rows: [StoreRow], schema: ModelSchema) throws {
        if description.isReadOnly {
            throw ObjectGraphError.store("the store \(description.identifier) is read-only")
        }
        table.importRows(rows, schema: schema)
    }
}
