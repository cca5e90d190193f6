import Foundation

/// A store that keeps committed rows in memory (not live objects): what a context saves is
/// copied here, and fetches read it back. Nothing is written to disk.
final class InMemoryStore: PersistentStore {
    let description: StoreDescription
    private var rowsByID: [ObjectID: StoreRow] = [:]
    private var nextKey: [Int: Int64] = [:]

    init(description: StoreDescription) {
        self.description = description
    }

    func row(for id: ObjectID) throws -> StoreRow? {
        rowsByID[id]
    }

    func rows(ofEntities entities: Set<Int>) throws -> [StoreRow] {
        rowsByID.values.filter { entities.contains($0.entityIndex) }
            .sorted { Self.key($0.id) < Self.key($1.id) }
    }

    func relatedIDs(of id: ObjectID, entityIndex: Int, position: Int) throws -> [ObjectID] {
        guard let row = rowsByID[id], position < row.values.count,
            case .toMany(let ids) = row.values[position]
        else { return [] }
        return ids ?? []
    }

    func rows(for ids: [ObjectID]) throws -> [StoreRow] {
        ids.compactMap { rowsByID[$0] }
    }

    /// Rows already hold their relationship lists.
    func relatedRows(of owners: [ObjectID], entityIndex: Int, position: Int) throws
        -> [ObjectID: [StoreRow]]?
    { nil }

    /// The in-memory store leaves fetches to the context's evaluator.
    func fetch(_ query: StoreQuery) throws -> [StoreRow]? { nil }

    /// The in-memory store leaves counts to the context's evaluator.
    func count(_ query: StoreQuery) throws -> Int? { nil }

    func newPrimaryKeys(rootEntity: Int, count: Int) throws -> [Int64] {
        let first = nextKey[rootEntity] ?? 1
        nextKey[rootEntity] = first + Int64(count)
        return (0..<Int64(count)).map { first + $0 }
    }

    func conflicts(in changes: ChangeSet) throws -> [SaveConflict] {
        var result: [SaveConflict] = []
        for row in changes.updated {
            let current = rowsByID[row.id]?.version ?? 0
            if current != row.version {
                result.append(
                    SaveConflict(
                        objectID: row.id, expectedVersion: row.version, storeVersion: current))
            }
        }
        for (id, version) in changes.deleted {
            let current = rowsByID[id]?.version ?? 0
            if current != version {
                result.append(
                    SaveConflict(objectID: id, expectedVersion: version, storeVersion: current))
            }
        }
        return result
    }

    func save(_ changes: ChangeSet) throws {
        if description.isReadOnly {
            throw ObjectGraphError.store("the store \(description.identifier) is read-only")
        }
        let conflicts = try conflicts(in: changes)
        guard conflicts.isEmpty else { throw SaveError.conflicts(conflicts) }
        for row in changes.inserted {
            var stored = row
            stored.version = 1
            rowsByID[row.id] = stored
        }
        for row in changes.updated {
            var stored = row
            stored.version = row.version + 1
            if let old = rowsByID[row.id] {
                for (position, value) in stored.values.enumerated()
                where value == .toMany(nil) && position < old.values.count {
                    stored.values[position] = old.values[position]
                }
            }
            rowsByID[row.id] = stored
        }
        for (id, _) in changes.deleted {
            rowsByID[id] = nil
        }
    }

    private static func key(_ id: ObjectID) -> Int64 {
        if case .permanent(let key) = id.key { return key }
        return 0
    }
}
