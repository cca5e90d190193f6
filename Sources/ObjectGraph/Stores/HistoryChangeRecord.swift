import Foundation

/// One `ACHANGE` row to record, whatever the store writing it: the changed object's entity
/// number and key, the kind of change and, for an update, the `ZCOLUMNS` mask of the
/// properties that changed. The store-neutral half of recording and reading Core Data's
/// history tables (the SQL of each store is its own).
///
/// ```swift
/// let records = HistoryChangeRecord.records(
///     inserted: changes.inserted, updated: changes.updated, deleted: changes.deleted,
///     schema: schema, layouts: entityLayouts)
/// ```
struct HistoryChangeRecord: Hashable {
    /// The changed object's `Z_ENT`.
    let entityNumber: Int
    /// Its `Z_PK`.
    let key: Int64
    /// Insert, update or delete.
    let type: HistoryChangeType
    /// `ZCOLUMNS`: for an update, the properties that changed (``columnMask(_:count:)``).
    let columns: Data?

    /// The changes a save records, inserts first, then updates (with the non-transient
    /// properties that changed, all of them when the row does not say), then deletes; rows
    /// without a permanent key are left out.
    static func records(
        inserted: PendingRows, updated: PendingRows, deleted: PendingRows, schema: ModelSchema,
        layouts: [EntityLayout]
    ) -> [HistoryChangeRecord] {
        var records: [HistoryChangeRecord] = []
        records.reserveCapacity(inserted.count + updated.count + deleted.count)
        for (rows, type) in [
            (inserted, HistoryChangeType.insert), (updated, .update), (deleted, .delete),
        ] {
            for position in rows.indices {
                let row = rows[position]
                guard case .permanent(let key) = row.id.key else { continue }
                var columns: Data?
                if type == .update {
                    let entity = schema.entities[row.entityIndex]
                    columns = updatedColumns(
                        row.changedPositions ?? Array(entity.properties.indices), of: entity)
                }
                records.append(
                    HistoryChangeRecord(
                        entityNumber: layouts[row.entityIndex].entityNumber, key: key, type: type,
                        columns: columns))
            }
        }
        return records
    }

    /// `ZCOLUMNS` of an update of the properties of `entity` at `positions`: the persistent
    /// ones (transient properties are never recorded).
    static func updatedColumns(_ positions: [Int], of entity: EntitySchema) -> Data {
        columnMask(
            positions.filter { $0 < entity.isTransient.count && !entity.isTransient[$0] },
            count: entity.properties.count)
    }

    /// `ZCOLUMNS`: a bit per property position of the entity (inherited properties first, in
    /// model order), position `n` at bit `n % 8` of byte `n / 8`.
    static func columnMask(_ positions: [Int], count: Int) -> Data {
        var bytes = [UInt8](repeating: 0, count: max(1, (count + 7) / 8))
        for position in positions where position >= 0 && position < count {
            bytes[position / 8] |= UInt8(1) << UInt8(position % 8)
        }
        return Data(bytes)
    }

    /// The names of the properties a `ZCOLUMNS` mask marks (positions past `names` ignored).
    static func propertyNames(in mask: Data, names: [String]) -> Set<String> {
        var found: Set<String> = []
        for (offset, byte) in mask.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (1 << bit) != 0 {
                let position = offset * 8 + bit
                if position < names.count { found.insert(names[position]) }
            }
        }
        return found
    }

    /// The attributes `entity` keeps as tombstones (`preservesValueInHistoryOnDeletion`), in
    /// property order (`ZTOMBSTONE0` is the first); empty for an entity keeping none.
    static func tombstoneAttributes(of entity: EntitySchema, layout: EntityLayout)
        -> [TombstoneAttribute]
    {
        entity.properties.compactMap { property in
            guard case .attribute(let attribute) = property,
                attribute.preservesValueInHistoryOnDeletion, !attribute.isTransient,
                let column = layout.attributeColumns[attribute.name]
            else { return nil }
            return TombstoneAttribute(
                name: attribute.name, type: attribute.type, column: column.name)
        }
    }

    /// Whether the transaction `needed` was deleted: transactions are numbered without gaps
    /// from 1, so a number below the oldest kept (or, with none kept, at most the last given)
    /// names a deleted one.
    static func isDeleted(_ needed: Int64, oldestKept: Int64?, lastGiven: Int64) -> Bool {
        let firstKept = oldestKept ?? (lastGiven + 1)
        return needed < firstKept && firstKept > 1
    }
}
