import Foundation
import SQLiteDatabase

/// Grouped and aggregate dictionary fetches in one statement (see ``SQLAggregateCompiler``).
/// What has no translation, a statement SQLite will not prepare, and an integer sum that
/// overflows (the evaluator then answers a double) are left to the context's evaluator: the
/// store answers `nil`, and the answer is the same.
extension SQLiteStore {
    func aggregate(_ query: StoreAggregateQuery) throws -> [[String: Value]]? {
        let entity = schema.entities[query.rows.entityIndex]
        let compiled: SQLAggregateCompiler.Compiled
        do {
            compiled = try SQLAggregateCompiler(compiler: compiler).compile(
                query, entity: entity.name,
                includesSubentities: query.rows.entityIndexes != [entity.index])
        } catch {
            return nil
        }
        let statement: Statement
        do {
            statement = try database.cachedStatement(sql: compiled.query.sql)
        } catch {
            return nil  // e.g. too deep, or HAVING without GROUP BY before SQLite 3.39
        }
        return try sqlite {
            do {
                let cursor = try statement.makeCursor(arguments: compiled.query.statementArguments)
                var rows: [[String: Value]] = []
                while try cursor.step() { rows.append(try aggregateRow(cursor, compiled)) }
                return rows
            } catch let error as DatabaseError
                where error.message.localizedCaseInsensitiveContains("integer overflow")
            {
                return nil
            }
        }
    }

    /// One result dictionary from the cursor's current row.
    private func aggregateRow(_ cursor: RowCursor, _ compiled: SQLAggregateCompiler.Compiled)
        throws -> [String: Value]
    {
        var row: [String: Value] = [:]
        var index = 0
        for (name, reading) in zip(compiled.names, compiled.readings) {
            let stored = try cursor.value(at: index)
            index += 1
            let value: Value
            switch reading {
            case .attribute(let type):
                value = try ValueCoding.value(from: stored, type: type)
            case .object:
                let number = try cursor.value(at: index)
                index += 1
                if case .integer(let key) = stored, case .integer(let entity) = number,
                    let entityIndex = schemaIndexByNumber[Int(truncatingIfNeeded: entity)]
                {
                    value = .objectID(objectID(schema.entities[entityIndex].name, key))
                } else {
                    value = .null
                }
            case .count:
                if case .integer(let count) = stored {
                    value = .integer(count)
                } else {
                    value = .integer(0)
                }
            case .sum(let double):
                switch stored {
                case .integer(let sum): value = double ? .double(Double(sum)) : .integer(sum)
                case .real(let sum): value = .double(sum)
                default: value = .integer(0)
                }
            case .average:
                switch stored {
                case .integer(let mean): value = .double(Double(mean))
                case .real(let mean): value = .double(mean)
                default: value = .null
                }
            }
            row[name] = value  // a repeated name: the last column, as in memory
        }
        return row
    }
}
