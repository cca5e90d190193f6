import Foundation
import PostgresClient

/// A save's inserted rows, set-based where an entity has several: one `INSERT … SELECT … FROM
/// unnest(…)` per entity and ``PostgresStore/batchInsertChunk`` rows, each column's values
/// bound as one array (`$2::bigint[]` the keys, then one per column), instead of a statement
/// and a round trip per row. The rows, keys, versions (1) and values written are the ones
/// the statement per row writes; a value it would refuse with its own message, or a NaN
/// (which the arrays do not carry), sends the entity's rows through it instead.
extension PostgresStore {
    /// The fewest rows of one entity a save inserts set-based.
    static let setInsertMinimum = 4

    /// Inserts `rows` (a save's, in its transaction): by entity, set-based when an entity has
    /// ``setInsertMinimum`` rows or more, else a statement per row (`insertOne`).
    func insertRows(_ rows: PendingRows, insertOne: (PendingRow) throws -> Void) throws {
        var order: [Int] = []
        var byEntity: [Int: [PendingRow]] = [:]
        for row in rows {
            guard case .permanent = row.id.key else { continue }
            if byEntity[row.entityIndex] == nil { order.append(row.entityIndex) }
            byEntity[row.entityIndex, default: []].append(row)
        }
        for index in order {
            let group = byEntity[index] ?? []
            if group.count >= Self.setInsertMinimum, try insertSet(group, entityIndex: index) {
                continue
            }
            for row in group { try insertOne(row) }
        }
    }

    /// Inserts `rows`, all of the entity `entityIndex` with permanent keys, set-based;
    /// `false` (nothing written) when a value cannot travel in an array.
    private func insertSet(_ rows: [PendingRow], entityIndex: Int) throws -> Bool {
        let plan = writePlan(for: entityIndex)
        var keys: [String] = []
        var arrays = [[String]](repeating: [], count: plan.bindings.count)
        keys.reserveCapacity(rows.count)
        for index in arrays.indices { arrays[index].reserveCapacity(rows.count) }
        for row in rows {
            guard case .permanent(let key) = row.id.key else { return false }
            keys.append(String(key))
            for (index, binding) in plan.bindings.enumerated() {
                let value = try parameter(binding, of: row)
                if case .double(let number) = value, number.isNaN { return false }
                arrays[index].append(value.arrayElement)
            }
        }
        let sql = setInsertSQL(plan)
        let number = PostgresValue.integer(Int64(entityLayouts[entityIndex].entityNumber))
        var start = 0
        while start < rows.count {
            let end = min(start + Self.batchInsertChunk, rows.count)
            var parameters: [PostgresValue] = [
                number, .text("{" + keys[start..<end].joined(separator: ",") + "}"),
            ]
            for values in arrays {
                parameters.append(.text("{" + values[start..<end].joined(separator: ",") + "}"))
            }
            try connection.execute(sql, parameters)
            start = end
        }
        return true
    }

    /// `INSERT INTO <table> ("Z_PK", "Z_ENT", "Z_OPT", <columns>) SELECT u.og_key, $1, 1,
    /// u.c0, … FROM unnest($2::bigint[], $3::<type>[], …) AS u(og_key, c0, …)`.
    private func setInsertSQL(_ plan: PostgresWritePlan) -> String {
        let types = plan.bindings.map { binding -> String in
            switch binding {
            case .attribute(_, let type): return PostgresSchemaDDL.columnType(of: type)
            case .toOneKey: return "bigint"
            case .toOneEntity: return "integer"
            }
        }
        let aliases = plan.columns.indices.map { "c\($0)" }
        return
            "INSERT INTO \(PostgresIdentifier.quoted(plan.table)) (\"Z_PK\", \"Z_ENT\", \"Z_OPT\""
            + plan.columns.map { ", " + PostgresIdentifier.quoted($0) }.joined()
            + ") SELECT u.og_key, $1, 1" + aliases.map { ", u." + $0 }.joined()
            + " FROM unnest($2::bigint[]"
            + types.enumerated().map { ", $\($0.offset + 3)::\($0.element)[]" }.joined()
            + ") AS u(" + (["og_key"] + aliases).joined(separator: ", ") + ")"
    }
}
