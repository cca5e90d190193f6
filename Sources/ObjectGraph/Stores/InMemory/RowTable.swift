import Foundation

/// Committed rows kept in memory, keyed by ID: the state of the in-memory store and of the
/// atomic (whole-file) stores. Relationship lists are kept on both sides.
struct RowTable: Sendable {
    /// Every row by ID.
    private(set) var rowsByID: [ObjectID: StoreRow] = [:]
    /// The next primary key of each inheritance tree, by root entity index.
    var nextKey: [Int: Int64] = [:]

    /// An empty table.
    init() {}

    /// A table holding `rows`, with keys continuing after the largest one (or `nextKey`).
    init(rows: [StoreRow], nextKey: [Int: Int64] = [:], schema: ModelSchema) {
        rowsByID.reserveCapacity(rows.count)
        for row in rows { rowsByID[row.id] = row }
        self.nextKey = nextKey
        for row in rows {
            guard case .permanent(let key) = row.id.key else { continue }
            let root = schema.root(of: schema.entities[row.entityIndex]).index
            self.nextKey[root] = max(self.nextKey[root] ?? 1, key + 1)
        }
    }

    func row(for id: ObjectID) -> StoreRow? { rowsByID[id] }

    /// The rows of `entities`, by primary key.
    func rows(ofEntities entities: Set<Int>) -> [StoreRow] {
        rowsByID.values.filter { entities.contains($0.entityIndex) }
            .sorted { Self.key($0.id) < Self.key($1.id) }
    }

    /// Every row, by entity and primary key.
    var allRows: [StoreRow] {
        rowsByID.values.sorted {
            ($0.entityIndex, Self.key($0.id)) < ($1.entityIndex, Self.key($1.id))
        }
    }

    func relatedIDs(of id: ObjectID, position: Int) -> [ObjectID] {
        guard let row = rowsByID[id], position < row.values.count,
            case .toMany(let ids) = row.values[position]
        else { return [] }
        return ids ?? []
    }

    mutating func newPrimaryKeys(rootEntity: Int, count: Int) -> Range<Int64> {
        let first = nextKey[rootEntity] ?? 1
        nextKey[rootEntity] = first + Int64(count)
        return first..<first + Int64(count)
    }

    func conflicts(in changes: ChangeSet) -> [SaveConflict] {
        var result: [SaveConflict] = []
        let checks =
            changes.updated.map { ($0.id, $0.version) }
            + changes.deleted.map { ($0.id, $0.version) }
        for (id, version) in checks {
            let current = rowsByID[id]?.version ?? 0
            if current != version {
                result.append(
                    SaveConflict(objectID: id, expectedVersion: version, storeVersion: current))
            }
        }
        return result
    }

    /// Applies `changes` (after checking conflicts): inserted rows get version 1, updated ones
    /// the next version; relationship lists left unloaded (`nil`) keep their stored value.
    mutating func apply(_ changes: ChangeSet) throws {
        let conflicts = conflicts(in: changes)
        guard conflicts.isEmpty else { throw SaveError.conflicts(conflicts) }
        for pending in changes.inserted {
            let row = pending.row
            var stored = row
            stored.version = 1
            for (position, value) in stored.values.enumerated() where value == .toMany(nil) {
                stored.values[position] = .toMany([])
            }
            rowsByID[row.id] = stored
        }
        for pending in changes.updated {
            let row = pending.row
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
        for row in changes.deleted {
            rowsByID[row.id] = nil
        }
    }

    /// Adds `rows` as they are (keeping keys and versions); keys continue after the largest.
    mutating func importRows(_ rows: [StoreRow], schema: ModelSchema) {
        for row in rows {
            var stored = row
            for (position, value) in stored.values.enumerated() where value == .toMany(nil) {
                stored.values[position] = .toMany([])
            }
            rowsByID[row.id] = stored
            guard case .permanent(let key) = row.id.key,
                row.entityIndex >= 0, row.entityIndex < schema.entities.count
            else { continue }
            let root = schema.root(of: schema.entities[row.entityIndex]).index
            nextKey[root] = max(nextKey[root] ?? 1, key + 1)
        }
    }

    static func key(_ id: ObjectID) -> Int64 {
        if case .permanent(let key) = id.key { return key }
        return 0
    }
}
