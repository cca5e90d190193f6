import Foundation
import SQLiteDatabase

/// Batch deletes and updates run in SQL (``StoreBatch``), in one transaction each (updates:
/// see `SQLiteStore+BatchUpdate.swift`). What the compiler cannot translate is left to the caller
/// (`nil`), which saves the rows it works out instead.
extension SQLiteStore {
    func execute(_ batch: StoreBatch) throws -> StoreBatchOutcome? {
        switch batch {
        case .delete(let query): return try batchDelete(query)
        case .update(let query, let values):
            return try batchUpdate(query, values.map { ($0.position, .constant($0.value)) })
        case .updateExpressions(let query, let expressions):
            return try batchUpdate(query, expressions)
        }
    }

    /// Deletes the rows `query` matches and applies the delete rules (see
    /// ``SQLiteBatchDeletion``).
    private func batchDelete(_ query: StoreQuery) throws -> StoreBatchOutcome? {
        guard let matched = compiledKeySelect(query) else { return nil }
        return try sqlite {
            try writeTransaction { db in
                let history = try historyRecorder(db)
                var deletion = SQLiteBatchDeletion(store: self, db: db)
                try deletion.run(matched, table: entityLayouts[query.entityIndex].tableName)
                let outcome = try deletion.outcome()
                try history?.record(
                    deleted: outcome.deleted, updated: outcome.updated, updatedPositions: nil)
                return outcome
            }
        }
    }

    /// The SELECT of the keys (`Z_PK`, `Z_ENT`) of the rows `query` matches, unordered;
    /// `nil` when part of it cannot run in SQL.
    func compiledKeySelect(_ query: StoreQuery) -> CompiledQuery? {
        var keys = query
        keys.result = .ids
        keys.sortDescriptors = []
        keys.offset = 0
        keys.limit = 0
        return compiledSelect(keys)
    }

    /// The IDs of the rows `sql` selects as (`Z_PK`, `Z_ENT`) pairs.
    func batchIDs(_ db: Database, sql: String) throws -> [ObjectID] {
        var ids: [ObjectID] = []
        let cursor = try db.cachedStatement(sql: sql).makeCursor()
        while try cursor.step() {
            guard case .integer(let pk) = try cursor.value(at: 0),
                case .integer(let number) = try cursor.value(at: 1),
                let index = schemaIndexByNumber[Int(truncatingIfNeeded: number)]
            else { continue }
            ids.append(objectID(schema.entities[index].name, pk))
        }
        return ids
    }
}
