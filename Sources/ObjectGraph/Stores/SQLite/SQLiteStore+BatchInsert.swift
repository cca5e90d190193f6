import Foundation
import SQLiteDatabase

/// Batch inserts in SQL (``StoreInsertBatch``): one transaction that reserves the rows' keys
/// with one `Z_PRIMARYKEY` update and runs one prepared `INSERT` per row, its values bound
/// straight from the batch (no row or change set is built). A uniqueness constraint is the
/// table's unique index: a value it already holds, in the store or earlier in the batch,
/// fails the whole batch with ``StoreError/uniqueConstraint(path:entity:properties:)``.
/// With history on, the batch is recorded as one transaction of inserts, as a save is.
extension SQLiteStore {
    func insert(_ batch: StoreInsertBatch) throws -> [ObjectID]? {
        if description.isReadOnly { throw StoreError.readOnly(path: path) }
        guard batch.count > 0 else { return [] }
        let entity = schema.entities[batch.entityIndex]
        let plan = writePlan(for: batch.entityIndex)
        var slotOfPosition: [Int: Int] = [:]
        for (slot, position) in batch.positions.enumerated() { slotOfPosition[position] = slot }
        // Each column of the INSERT after Z_PK, Z_ENT, Z_OPT: its attribute's slot in a row of
        // the batch, or nil (a to-one relationship: none yet).
        let columns: [InsertedColumn?] = plan.bindings.map { binding in
            guard case .attribute(let position, let type, let external) = binding,
                let slot = slotOfPosition[position]
            else { return nil }
            return InsertedColumn(slot: slot, position: position, type: type, external: external)
        }
        if textIsNFC, !batch.values.allSatisfy(Self.isNFC) { textIsNFC = false }
        let entityNumber = DatabaseValue.integer(
            Int64(entityLayouts[batch.entityIndex].entityNumber))
        let root = schema.root(of: entity).index
        let keys = try sqlite {
            try writeTransaction { db in
                let keys = try newPrimaryKeys(rootEntity: root, count: batch.count)
                let statement = try db.cachedStatement(sql: plan.insertSQL)
                var arguments: [DatabaseValue] = []
                arguments.reserveCapacity(columns.count + 2)
                var base = 0
                for key in keys {
                    arguments.append(.integer(key))
                    arguments.append(entityNumber)
                    for column in columns {
                        guard let column else {
                            arguments.append(.null)
                            continue
                        }
                        arguments.append(
                            try columnValue(
                                batch.values[base + column.slot], type: column.type,
                                external: column.external, entityIndex: batch.entityIndex,
                                position: column.position))
                    }
                    try statement.execute(arguments: StatementArguments(positional: arguments))
                    arguments.removeAll(keepingCapacity: true)
                    base += batch.positions.count
                }
                if let history = try historyRecorder(db) {
                    try history.record(
                        inserted: insertedRows(batch, keys: keys, entity: entity),
                        updated: ChangeSet().updated, deleted: ChangeSet().deleted)
                }
                return keys
            }
        }
        let space = idSpace(entity.name)
        return keys.map { ObjectID(space: space, key: .permanent($0)) }
    }

    /// The rows of `batch` with `keys`, as a save's inserted rows (for history).
    private func insertedRows(_ batch: StoreInsertBatch, keys: Range<Int64>, entity: EntitySchema)
        -> PendingRows
    {
        let template = StoreInsertBatch.template(of: entity)
        let space = idSpace(entity.name)
        let rows = zip(0..<batch.count, keys).map { row, key in
            StoreRow(
                id: ObjectID(space: space, key: .permanent(key)), entityIndex: batch.entityIndex,
                version: 0, values: batch.storedValues(ofRow: row, template: template))
        }
        return ChangeSet(inserting: rows).inserted
    }

    /// Whether `value` holds no text, or text in NFC.
    private static func isNFC(_ value: Value) -> Bool {
        switch value {
        case .string(let text): return SQLFunctions.isNormalizationFormC(text)
        case .uri(let url): return SQLFunctions.isNormalizationFormC(url.absoluteString)
        default: return true
        }
    }
}

/// A column of a batch insert's `INSERT` filled from the batch: the slot of its value in a
/// row, and how to encode it.
private struct InsertedColumn {
    let slot: Int
    let position: Int
    let type: AttributeType
    let external: Bool
}
