import Foundation
import SQLiteDatabase

/// Batch updates in SQL: one `UPDATE` of the matched rows, in one transaction, whose keys
/// become the IDs the request reports (and history records).
///
/// - With a predicate, the matched keys are a common table expression read before any row
///   changes, and the `UPDATE … RETURNING` gives the updated keys.
/// - Without one (every object of the entity, or of its family), the `UPDATE` needs no key
///   subquery: its `WHERE` names the entities when the table holds others, and the keys are
///   read by a plain scan just before it, with no `RETURNING` (whose rows SQLite keeps in a
///   temporary table).
///
/// A value computed from the row that comes out NULL (nil, a NaN, a required value missing) is
/// checked by the evaluator, which also says why an expression SQLite refuses (overflow,
/// division by zero) fails: the transaction is rolled back and the caller evaluates the rows.
extension SQLiteStore {
    /// Sets the attributes at the assignments' positions on the rows `query` matches, raising
    /// their `Z_OPT`: constants bound, expressions of the row compiled (see
    /// ``computedValue(_:entity:type:)``). `nil` when part of it cannot run in SQL with the
    /// evaluator's answers; then nothing is written.
    func batchUpdate(
        _ query: StoreQuery, _ assignments: [(position: Int, expression: Expression)]
    ) throws -> StoreBatchOutcome? {
        guard let statements = try batchUpdateStatements(query, assignments) else { return nil }
        let hasExpressions = assignments.contains { !$0.expression.isConstant }
        do {
            return try sqlite {
                try writeTransaction { db in
                    var keys: [Int64] = []
                    var entities: [Int] = []
                    do {
                        let cursor = try db.makeCursor(
                            sql: statements.keys.sql,
                            arguments: StatementArguments(positional: statements.keys.arguments))
                        try readKeys(cursor, statements, into: &keys, entities: &entities)
                        if let update = statements.update {
                            try db.execute(
                                sql: update.sql,
                                arguments: StatementArguments(positional: update.arguments))
                        }
                    } catch is DatabaseError where hasExpressions {
                        // An expression the evaluator refuses (overflow, division by zero)
                        // fails in SQL too: the rows are evaluated to say which and why.
                        throw RowsToEvaluate()
                    }
                    let outcome = StoreBatchOutcome(
                        updated: updatedIDs(keys, entities, sole: statements.soleEntity))
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

    /// The keys (and, for several entities, the entity numbers) of the rows `cursor` gives,
    /// after checking its NULL flags.
    private func readKeys(
        _ cursor: RowCursor, _ statements: BatchUpdateStatements, into keys: inout [Int64],
        entities: inout [Int]
    ) throws {
        let flags = statements.soleEntity == nil ? 2 : 1
        let flagCount = statements.nullFlags
        while try cursor.step() {
            for index in 0..<flagCount where try cursor.int64(at: flags + index) != 0 {
                throw RowsToEvaluate()
            }
            keys.append(try cursor.int64(at: 0))
            if statements.soleEntity == nil {
                guard
                    let entity = schemaIndexByNumber[
                        Int(truncatingIfNeeded: try cursor.int64(at: 1))]
                else {
                    keys.removeLast()
                    continue
                }
                entities.append(entity)
            }
        }
    }

    /// The IDs of `keys` (of `sole`, or of `entities` by position), in key order.
    private func updatedIDs(_ keys: [Int64], _ entities: [Int], sole: Int?) -> [ObjectID] {
        if let sole {
            let space = idSpace(schema.entities[sole].name)
            var sorted = keys
            sorted.sort()
            return sorted.map { ObjectID(space: space, key: .permanent($0)) }
        }
        // RETURNING gives the rows in the order they were changed; the IDs are given in key
        // order (the rows share one table, so keys are unique).
        var spaces: [Int: ObjectIDSpace] = [:]
        for entity in Set(entities) { spaces[entity] = idSpace(schema.entities[entity].name) }
        let order = keys.indices.sorted { keys[$0] < keys[$1] }
        return order.compactMap { index in
            spaces[entities[index]].map { ObjectID(space: $0, key: .permanent(keys[index])) }
        }
    }

    /// The statements of a batch update, or `nil` when part of it cannot run in SQL.
    private func batchUpdateStatements(
        _ query: StoreQuery, _ assignments: [(position: Int, expression: Expression)]
    ) throws -> BatchUpdateStatements? {
        let entityLayout = entityLayouts[query.entityIndex]
        let entity = schema.entities[query.entityIndex]
        let plan = writePlan(for: query.entityIndex)
        var settings = SQLPiece("")
        var computed: [(column: String, value: SQLPiece)] = []
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
                if fragment.nullable || fragment.mayBeNaN {
                    computed.append((column.name, fragment.piece))
                }
                value = fragment.piece
            }
            settings = settings + "\(quoteIdentifier(column.name)) = " + value + ", "
        }
        let table = entityLayout.tableName
        let update =
            "UPDATE \(quoteIdentifier(table)) AS t0 SET " + settings
            + "Z_OPT = COALESCE(Z_OPT, 0) + 1"
        let tableEntities = entityLayouts.indices.filter { entityLayouts[$0].tableName == table }
        let sole = tableEntities.count == 1 ? tableEntities.first : nil
        let entityColumn = sole == nil ? ", t0.Z_ENT" : ""
        if query.predicate == nil {
            // Every row of the entities: no key subquery, keys read before the update.
            var restriction = SQLPiece("")
            if !Set(tableEntities).isSubset(of: query.entityIndexes) {
                let numbers = query.entityIndexes.sorted().map { entityLayouts[$0].entityNumber }
                restriction = " WHERE t0.Z_ENT IN " + SQLPiece.list(numbers)
            }
            var keys = SQLPiece("SELECT t0.Z_PK\(entityColumn)")
            for (_, value) in computed { keys = keys + ", (" + value + ") IS NULL" }
            keys = keys + " FROM \(quoteIdentifier(table)) AS t0" + restriction
            return BatchUpdateStatements(
                keys: keys, update: update + restriction, soleEntity: sole,
                nullFlags: computed.count)
        }
        guard let matched = compiledKeySelect(query) else { return nil }
        // One statement: the matched keys (a common table expression, read before any row
        // changes), the assignments, and RETURNING the updated rows' keys and, for each
        // computed column, whether it came out NULL (a NaN reaches SQLite as NULL).
        let returning =
            "Z_PK\(sole == nil ? ", Z_ENT" : "")"
            + computed.map { ", \(quoteIdentifier($0.column)) IS NULL" }.joined()
        let statement =
            SQLPiece("WITH og_matched(pk, ent) AS (\(matched.sql)) ", matched.arguments)
            + update + " WHERE Z_PK IN (SELECT pk FROM og_matched) RETURNING \(returning)"
        return BatchUpdateStatements(
            keys: statement, update: nil, soleEntity: sole, nullFlags: computed.count)
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
}

/// The SQL of one batch update.
private struct BatchUpdateStatements {
    /// Gives the updated rows' `Z_PK`, then their `Z_ENT` when ``soleEntity`` is `nil`, then
    /// ``nullFlags`` columns, each 1 where a computed value is NULL: the `UPDATE … RETURNING`,
    /// or the SELECT run before ``update``.
    var keys: SQLPiece
    /// The `UPDATE`, when ``keys`` is not it.
    var update: SQLPiece?
    /// The schema index of the table's only entity.
    var soleEntity: Int?
    /// How many NULL flags follow the keys.
    var nullFlags: Int
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
