import Foundation
import PostgresClient

/// Batch updates in SQL: one `UPDATE … RETURNING "Z_PK", "Z_ENT"` of the matched rows, inside
/// ``batchTransaction(_:)``, raising their `Z_OPT`. Constants are bound; expressions of the
/// row into a `Double` or an `Integer 64` attribute are compiled by ``PostgresRowArithmetic``
/// when PostgreSQL computes what the evaluator computes (into a narrower integer, the
/// evaluator's conversion decides: the rows are evaluated). Without a predicate the `UPDATE` names the query's entities (`"Z_ENT" =
/// ANY(…)`); with one, the keys ``batchKeys(_:)`` chose (`"Z_PK" = ANY(…)`).
///
/// A computed value that comes out NULL or NaN (which the evaluator sets, or refuses, by its
/// own checks) and an expression PostgreSQL refuses where the evaluator answers or throws
/// its own error (an overflow, an underflow to zero, a division by zero) roll the
/// transaction back: the caller evaluates the rows (`nil`).
extension PostgresStore {
    /// Sets the attributes at the assignments' positions on the rows `query` matches; `nil`
    /// when part of it cannot run in SQL with the evaluator's answers (nothing is written).
    func batchUpdate(
        _ query: StoreQuery, _ assignments: [(position: Int, expression: Expression)]
    ) throws -> StoreBatchOutcome? {
        let entityLayout = entityLayouts[query.entityIndex]
        let entity = schema.entities[query.entityIndex]
        var arithmetic = PostgresRowArithmetic(
            entity: entity, entityLayout: entityLayout, parameters: [])
        var settings: [String] = []
        var computed: [String] = []
        for (position, expression) in assignments {
            guard let column = entityLayout.attributeColumns[entity.names[position]],
                case .attribute(let attribute) = entity.properties[position]
            else { return nil }
            let quoted = PostgresIdentifier.quoted(column.name)
            if case .constant(let value) = expression {
                guard let parameter = try batchParameter(value, attribute.type, entity, position)
                else {
                    return nil
                }
                arithmetic.parameters.append(parameter)
                settings.append(quoted + " = $\(arithmetic.parameters.count)")
            } else {
                switch attribute.type {
                case .double:
                    guard let sql = arithmetic.double(expression) else { return nil }
                    settings.append(quoted + " = " + sql)
                    computed.append("(\(quoted) IS NULL OR \(quoted) = 'NaN'::double precision)")
                case .integer64:
                    guard let sql = arithmetic.integer(expression) else { return nil }
                    settings.append(quoted + " = " + sql)
                    computed.append("(\(quoted) IS NULL)")
                default:
                    // A value converted to a narrower type, or not a number: the evaluator's
                    // conversion decides.
                    return nil
                }
            }
        }
        var parameters = arithmetic.parameters
        let restriction: String
        if query.predicate == nil {
            restriction = "\"Z_ENT\" = ANY($\(parameters.count + 1)::integer[])"
            parameters.append(
                Self.arrayLiteral(
                    query.entityIndexes.sorted().map { Int64(entityLayouts[$0].entityNumber) }))
        } else {
            restriction = "\"Z_PK\" = ANY($\(parameters.count + 1)::bigint[])"
        }
        let sql =
            "UPDATE \(PostgresIdentifier.quoted(entityLayout.tableName)) SET "
            + settings.map { $0 + ", " }.joined() + "\"Z_OPT\" = COALESCE(\"Z_OPT\", 0) + 1"
            + " WHERE " + restriction + " RETURNING \"Z_PK\", \"Z_ENT\""
            + (computed.isEmpty ? "" : ", " + computed.joined(separator: " OR "))
        do {
            return try batchTransaction { [parameters] connection in
                var arguments = parameters
                if query.predicate != nil {
                    let keys = try batchKeys(query)
                    guard !keys.isEmpty else { return StoreBatchOutcome() }
                    arguments.append(Self.arrayLiteral(keys.map(\.key)))
                }
                let result: PostgresResult
                do {
                    result = try connection.execute(sql, arguments)
                } catch let error as PostgresError
                    where !computed.isEmpty && ["22003", "22012"].contains(error.sqlState ?? "")
                {
                    throw RowsToEvaluate()
                }
                var updated: [(key: Int64, entityIndex: Int)] = []
                for row in result.rows {
                    if !computed.isEmpty, try row.bool(2) != false { throw RowsToEvaluate() }
                    guard let number = try row.int64OrNil(1),
                        let index = schemaIndexByNumber[Int(number)]
                    else { continue }
                    updated.append((try row.int64(0), index))
                }
                // RETURNING gives the rows in the order they were changed; the IDs go in key
                // order.
                updated.sort { $0.key < $1.key }
                try publishBatch(.update, rows: updated, positions: assignments.map(\.position))
                return StoreBatchOutcome(
                    updated: updated.map { objectID(schema.entities[$0.entityIndex].name, $0.key) }
                )
            }
        } catch is RowsToEvaluate {
            return nil
        }
    }

    /// `value` as the parameter of an attribute of `type` (the entity's property at
    /// `position`) in a batch; `nil` for a NaN, which the row-by-row save refuses with its own
    /// message.
    func batchParameter(
        _ value: Value, _ type: AttributeType, _ entity: EntitySchema, _ position: Int
    ) throws -> PostgresValue? {
        let parameter: PostgresValue
        do {
            parameter = try PostgresValueCoding.parameter(for: value, type: type)
        } catch {
            throw StoreError.cannotWrite(
                path: path, reason: "\(entity.name).\(entity.names[position]): \(error)")
        }
        if case .double(let number) = parameter, number.isNaN { return nil }
        return parameter
    }
}

/// Thrown inside a batch update's transaction to roll it back: the rows are evaluated instead.
private struct RowsToEvaluate: Error {}
