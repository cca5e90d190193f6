import Foundation
import SQLiteDatabase

/// Batch deletes and updates run in SQL (``StoreBatch``): the matched keys go into a temporary
/// table by one `INSERT … SELECT` of the compiled predicate, and every rule is a statement over
/// that table, in one transaction. What the compiler cannot translate is left to the caller
/// (`nil`), which saves the rows it works out instead.
extension SQLiteStore {
    func execute(_ batch: StoreBatch) throws -> StoreBatchOutcome? {
        switch batch {
        case .delete(let query): return try batchDelete(query)
        case .update(let query, let values): return try batchUpdate(query, values)
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

    /// Sets `values` on the rows `query` matches, raising their `Z_OPT`.
    private func batchUpdate(_ query: StoreQuery, _ values: [(position: Int, value: Value)])
        throws -> StoreBatchOutcome?
    {
        guard let matched = compiledKeySelect(query) else { return nil }
        let entityLayout = entityLayouts[query.entityIndex]
        let entity = schema.entities[query.entityIndex]
        let plan = writePlan(for: query.entityIndex)
        var assignments: [String] = []
        var arguments: [DatabaseValue] = []
        for (position, value) in values {
            guard let column = entityLayout.attributeColumns[entity.names[position]],
                let binding = plan.bindings.first(where: {
                    if case .attribute(position, _, _) = $0 { return true }
                    return false
                }),
                case .attribute(_, let type, let external) = binding, !external
            else { return nil }
            let stored: DatabaseValue
            do {
                stored = try ValueCoding.storageValue(for: value, type: type)
            } catch {
                throw StoreError.sqlite(
                    path: path, message: "\(entity.name).\(entity.names[position]): \(error)")
            }
            // A NaN is refused by the row-by-row save, with its message.
            if case .real(let number) = stored, number.isNaN { return nil }
            if textIsNFC, case .string(let text) = value, !SQLFunctions.isNormalizationFormC(text) {
                textIsNFC = false
            }
            assignments.append("\(quoteIdentifier(column.name)) = ?")
            arguments.append(stored)
        }
        let table = quoteIdentifier(entityLayout.tableName)
        return try sqlite {
            try writeTransaction { db in
                try SQLiteBatchDeletion.resetKeyTables(db)
                try db.execute(
                    sql:
                        "INSERT OR IGNORE INTO temp.og_batch_deleted (tbl, pk, ent) SELECT 0, * FROM ("
                        + matched.sql + ")",
                    arguments: matched.statementArguments)
                try db.execute(
                    sql: "UPDATE \(table) SET "
                        + (assignments + ["Z_OPT = COALESCE(Z_OPT, 0) + 1"]).joined(separator: ", ")
                        + " WHERE Z_PK IN (SELECT pk FROM temp.og_batch_deleted)",
                    arguments: StatementArguments(positional: arguments))
                let outcome = StoreBatchOutcome(
                    updated: try batchIDs(
                        db, sql: "SELECT pk, ent FROM temp.og_batch_deleted ORDER BY seq"))
                try historyRecorder(db)?.record(
                    deleted: [], updated: outcome.updated, updatedPositions: values.map(\.position))
                return outcome
            }
        }
    }

    /// The SELECT of the keys (`Z_PK`, `Z_ENT`) of the rows `query` matches, unordered;
    /// `nil` when part of it cannot run in SQL.
    private func compiledKeySelect(_ query: StoreQuery) -> CompiledQuery? {
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
