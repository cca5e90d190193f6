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

    /// Sets the attributes at the assignments' positions on the rows `query` matches, raising
    /// their `Z_OPT`: constants bound, expressions of the row compiled (see
    /// ``computedValue(_:entity:type:)``). `nil` when part of it cannot run in SQL with the
    /// evaluator's answers; then nothing is written.
    private func batchUpdate(
        _ query: StoreQuery, _ assignments: [(position: Int, expression: Expression)]
    ) throws -> StoreBatchOutcome? {
        guard let matched = compiledKeySelect(query) else { return nil }
        let entityLayout = entityLayouts[query.entityIndex]
        let entity = schema.entities[query.entityIndex]
        let plan = writePlan(for: query.entityIndex)
        var settings = SQLPiece("")
        var computed: [String] = []
        for (position, expression) in assignments {
            guard let column = entityLayout.attributeColumns[entity.names[position]],
                let binding = plan.bindings.first(where: {
                    if case .attribute(position, _, _) = $0 { return true }
                    return false
                }),
                case .attribute(_, let type, let external) = binding, !external
            else { return nil }
            let value: SQLPiece
            if case .constant(let constant) = expression {
                guard let bound = try boundValue(constant, type: type, entity, position) else {
                    return nil
                }
                value = .bound(bound)
            } else {
                guard let fragment = computedValue(expression, entity: entity.name, type: type)
                else { return nil }
                if fragment.nullable || fragment.mayBeNaN { computed.append(column.name) }
                value = fragment.piece
            }
            settings = settings + "\(quoteIdentifier(column.name)) = " + value + ", "
        }
        let table = quoteIdentifier(entityLayout.tableName)
        let hasExpressions = assignments.contains { !$0.expression.isConstant }
        // One statement: the matched keys (a common table expression, read before any row
        // changes), the assignments, and RETURNING the updated rows' keys and, for each
        // computed column, whether it came out NULL (a NaN reaches SQLite as NULL): a NULL
        // written by an expression is checked by the evaluator (nil, or NaN, or a required
        // value missing).
        let returning = (["Z_PK", "Z_ENT"] + computed.map { "\(quoteIdentifier($0)) IS NULL" })
            .joined(separator: ", ")
        let update =
            "UPDATE \(table) AS t0 SET " + settings
            + "Z_OPT = COALESCE(Z_OPT, 0) + 1 WHERE Z_PK IN (SELECT pk FROM og_matched)"
            + " RETURNING \(returning)"
        let sql = "WITH og_matched(pk, ent) AS (\(matched.sql)) " + update.sql
        let arguments = StatementArguments(positional: matched.arguments + update.arguments)
        do {
            return try sqlite {
                try writeTransaction { db in
                    var keys: [(pk: Int64, entityIndex: Int)] = []
                    do {
                        let cursor = try db.makeCursor(sql: sql, arguments: arguments)
                        while try cursor.step() {
                            for index in computed.indices {
                                if case .integer(1) = try cursor.value(at: 2 + index) {
                                    throw RowsToEvaluate()
                                }
                            }
                            guard case .integer(let pk) = try cursor.value(at: 0),
                                case .integer(let number) = try cursor.value(at: 1),
                                let entityIndex = schemaIndexByNumber[
                                    Int(truncatingIfNeeded: number)]
                            else { continue }
                            keys.append((pk, entityIndex))
                        }
                    } catch is DatabaseError where hasExpressions {
                        // An expression the evaluator refuses (overflow, division by zero)
                        // fails in SQL too: the rows are evaluated to say which and why.
                        throw RowsToEvaluate()
                    }
                    // RETURNING gives the rows in the order they were changed; the IDs are
                    // given in key order (the rows share one table, so keys are unique).
                    keys.sort { $0.pk < $1.pk }
                    let outcome = StoreBatchOutcome(
                        updated: keys.map { objectID(schema.entities[$0.entityIndex].name, $0.pk) })
                    try historyRecorder(db)?.record(
                        deleted: [], updated: outcome.updated,
                        updatedPositions: assignments.map(\.position))
                    return outcome
                }
            }
        } catch is RowsToEvaluate {
            return nil
        }
    }

    /// `value` as stored in a column of `type`; `nil` for a NaN (refused by the row-by-row
    /// save, with its message).
    private func boundValue(
        _ value: Value, type: AttributeType, _ entity: EntitySchema, _ position: Int
    ) throws -> DatabaseValue? {
        let stored: DatabaseValue
        do {
            stored = try ValueCoding.storageValue(for: value, type: type)
        } catch {
            throw StoreError.sqlite(
                path: path, message: "\(entity.name).\(entity.names[position]): \(error)")
        }
        if case .real(let number) = stored, number.isNaN { return nil }
        if textIsNFC, case .string(let text) = value, !SQLFunctions.isNormalizationFormC(text) {
            textIsNFC = false
        }
        return stored
    }

    /// The SQL of `expression` read on each row of `entity` (table alias `t0`), when it gives
    /// what the evaluator and the attribute's conversion give: a number into a `Double`
    /// attribute, an integer into an `Integer 64` one, from the row's own columns (no join).
    /// `nil` otherwise.
    private func computedValue(_ expression: Expression, entity: String, type: AttributeType)
        -> SQLFragment?
    {
        guard let fragment = try? compiler.rowValue(expression, entity: entity),
            fragment.kind == .number
        else { return nil }
        switch type {
        case .double: return fragment
        case .integer64: return fragment.isInteger ? fragment : nil
        default: return nil
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

/// Thrown inside a batch update's transaction to roll it back: the rows are evaluated instead.
private struct RowsToEvaluate: Error {}

extension Expression {
    /// Whether the expression is a constant.
    fileprivate var isConstant: Bool {
        if case .constant = self { return true }
        return false
    }
}
