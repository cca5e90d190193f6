import Foundation
import PostgresClient

/// Grouped and aggregate dictionary fetches in one PostgreSQL statement (the
/// ``SQLAggregateCompiler`` in the PostgreSQL dialect). What has no exact translation (string
/// group keys, string minimums, sums the evaluator adds as doubles, …) and a sum past the
/// 64-bit integers (the evaluator then answers a double) are left to the context's evaluator:
/// the store answers `nil`, and the answer is the same.
extension PostgresStore {
    /// A compiled aggregate fetch: the compiler's reading of its columns and the statement.
    struct AggregatePlan {
        let compiled: SQLAggregateCompiler.Compiled
        let statement: PostgresStatement
    }

    func aggregate(_ query: StoreAggregateQuery) throws -> [[String: Value]]? {
        // Kept as fetch plans are (``withSelectPlan(_:_:)``): nil, an aggregate left to the
        // evaluator.
        if let known = aggregatePlans[query] {
            guard let known else { return nil }
            return try postgres { try aggregateRows(known) }
        }
        return try withValues { values in
            let plan = aggregatePlan(query, values)
            if !values.wasRead {
                if aggregatePlans.count >= Self.selectPlanLimit { aggregatePlans.removeAll() }
                aggregatePlans[query] = .some(plan)
            }
            guard let plan else { return nil }
            return try aggregateRows(plan)
        }
    }

    /// The statement of `query`, or nil when it has no exact translation.
    private func aggregatePlan(_ query: StoreAggregateQuery, _ values: PostgresDistinctTexts)
        -> AggregatePlan?
    {
        let entity = schema.entities[query.rows.entityIndex]
        do {
            let compiled = try SQLAggregateCompiler(compiler: queryCompiler).compile(
                query, entity: entity.name,
                includesSubentities: query.rows.entityIndexes != [entity.index],
                values: values)
            return AggregatePlan(
                compiled: compiled, statement: try PostgresStatement(compiled.query))
        } catch {
            return nil
        }
    }

    /// The dictionaries `plan`'s statement gives; nil when a sum does not fit in 64 bits.
    private func aggregateRows(_ plan: AggregatePlan) throws -> [[String: Value]]? {
        let result = try connection.execute(plan.statement.sql, plan.statement.arguments)
        var rows: [[String: Value]] = []
        for row in result.rows {
            guard let decoded = try aggregateRow(row, plan.compiled) else { return nil }
            rows.append(decoded)
        }
        return rows
    }

    /// One result dictionary from `row`, or nil when a sum does not fit in 64 bits.
    private func aggregateRow(_ row: PostgresRow, _ compiled: SQLAggregateCompiler.Compiled)
        throws -> [String: Value]?
    {
        var values: [String: Value] = [:]
        var index = 0
        for (name, reading) in zip(compiled.names, compiled.readings) {
            let column = index
            index += 1
            let text = row.text(column)
            let value: Value
            switch reading {
            case .attribute(.boolean):
                // A Boolean group key is read as an integer (`CAST(… AS integer)`).
                value = text.map { Value.bool($0 != "0" && $0 != "f") } ?? .null
            case .attribute(let type):
                do {
                    value = try PostgresValueCoding.value(in: row, column: column, type: type)
                } catch {
                    throw StoreError.postgres(url: path, message: "\(name): \(error)")
                }
            case .object:
                index += 1
                if let key = try? row.int64OrNil(column),
                    let number = try? row.int64OrNil(column + 1),
                    let entityIndex = schemaIndexByNumber[Int(truncatingIfNeeded: number)]
                {
                    value = .objectID(objectID(schema.entities[entityIndex].name, key))
                } else {
                    value = .null
                }
            case .count:
                value = .integer(text.flatMap { Int64($0) } ?? 0)
            case .sum(let double):
                guard let text else {
                    value = .integer(0)
                    break
                }
                if double {
                    guard let sum = Double(text) else { return nil }
                    value = .double(sum)
                } else {
                    guard let sum = Int64(text) else { return nil }  // past 64 bits
                    value = .integer(sum)
                }
            case .average:
                value = text.flatMap { Double($0) }.map { Value.double($0) } ?? .null
            }
            values[name] = value  // a repeated name: the last column, as in memory
        }
        return values
    }
}
