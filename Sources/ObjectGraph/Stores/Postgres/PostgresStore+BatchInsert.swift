import Foundation
import PostgresClient

/// Batch inserts in SQL (``StoreInsertBatch``): one transaction that reserves the rows' keys
/// with one `Z_PRIMARYKEY` update (``newPrimaryKeys(rootEntity:count:)``, whose row lock keeps
/// other writers' keys apart, as a save's) and inserts the rows set-based, up to
/// ``batchInsertChunk`` per statement: each column's values bound as one array and unnested,
/// the keys counted from the chunk's first (`INSERT … SELECT $1 + u.og_row - 1, … FROM
/// unnest($3::bigint[], $4::text[], …) WITH ORDINALITY`). A uniqueness constraint is the
/// table's deferred constraint: a value the store holds, or one twice in the batch, fails the
/// commit, and the whole batch, with ``StoreError/uniqueConstraint(path:entity:properties:)``.
/// With history on, the batch is recorded as one transaction of inserts, as a save is. A value
/// the save refuses with its own message (a NaN) leaves the batch to the caller's save (`nil`).
extension PostgresStore {
    /// The most rows one `INSERT` of a batch insert carries.
    static let batchInsertChunk = 10_000

    func insert(_ batch: StoreInsertBatch) throws -> [ObjectID]? {
        if description.isReadOnly { throw StoreError.readOnly(path: path) }
        guard batch.count > 0 else { return [] }
        let entity = schema.entities[batch.entityIndex]
        let entityLayout = entityLayouts[batch.entityIndex]
        var columns: [(name: String, type: AttributeType, slot: Int)] = []
        for (slot, position) in batch.positions.enumerated() {
            guard case .attribute(let attribute) = entity.properties[position],
                let column = entityLayout.attributeColumns[attribute.name]
            else { continue }
            columns.append((column.name, attribute.type, slot))
        }
        guard !columns.isEmpty else { return nil }
        var arrays = [[String]](repeating: [], count: columns.count)
        for row in 0..<batch.count {
            let base = row * batch.positions.count
            for (index, column) in columns.enumerated() {
                guard
                    let parameter = try batchParameter(
                        batch.values[base + column.slot], column.type, entity,
                        batch.positions[column.slot])
                else { return nil }
                arrays[index].append(parameter.arrayElement)
            }
        }
        let sql = Self.batchInsertSQL(
            table: entityLayout.tableName,
            columns: columns.map { ($0.name, PostgresSchemaDDL.columnType(of: $0.type)) })
        let root = schema.root(of: entity).index
        let number = PostgresValue.integer(Int64(entityLayout.entityNumber))
        let keys = try postgres {
            try connection.transaction {
                let keys = try newPrimaryKeys(rootEntity: root, count: batch.count)
                var start = 0
                while start < batch.count {
                    let end = min(start + Self.batchInsertChunk, batch.count)
                    var parameters: [PostgresValue] = [
                        .integer(keys.lowerBound + Int64(start)), number,
                    ]
                    for values in arrays {
                        parameters.append(
                            .text("{" + values[start..<end].joined(separator: ",") + "}"))
                    }
                    try connection.execute(sql, parameters)
                    start = end
                }
                try publishBatch(.insert, rows: keys.map { ($0, batch.entityIndex) })
                return keys
            }
        }
        return keys.map { objectID(entity.name, $0) }
    }

    /// The `INSERT … SELECT … FROM unnest(…)` of a chunk: `$1` the first key, `$2` the entity
    /// number, then one array per column (named, with its PostgreSQL type).
    private static func batchInsertSQL(table: String, columns: [(name: String, type: String)])
        -> String
    {
        let names = columns.map { PostgresIdentifier.quoted($0.name) }
        let arrays = columns.enumerated().map { index, column in
            "$\(index + 3)::\(column.type)[]"
        }
        let aliases = columns.indices.map { "c\($0)" }
        return "INSERT INTO \(PostgresIdentifier.quoted(table)) (\"Z_PK\", \"Z_ENT\", \"Z_OPT\""
            + names.map { ", " + $0 }.joined() + ") SELECT $1::bigint + u.og_row - 1, $2, 1"
            + aliases.map { ", u." + $0 }.joined() + " FROM unnest("
            + arrays.joined(separator: ", ") + ") WITH ORDINALITY AS u("
            + (aliases + ["og_row"]).joined(separator: ", ") + ")"
    }
}
