import Foundation
import SQLiteDatabase

/// Loading many rows at once: by IDs, and the rows related to many owners (prefetching).
extension SQLiteStore {
    /// How many keys go into one `IN (…)` list.
    static let batchSize = 500

    func rows(for ids: [ObjectID]) throws -> [StoreRow] {
        var decoder = SQLiteRowDecoder(store: self)
        var found: [StoreRow] = []
        try rows(for: ids) { cursor in
            if let row = try decoder.storeRow(cursor) { found.append(row) }
        }
        return found
    }

    func decodedRows<Sink: RowSink>(for ids: [ObjectID], into sink: inout Sink) throws {
        var decoder = SQLiteRowDecoder(store: self)
        try rows(for: ids) { try decoder.decode($0, into: &sink) }
    }

    func relatedRows(of owners: [ObjectID], entityIndex: Int, position: Int) throws
        -> [ObjectID: [StoreRow]]?
    {
        var decoder = SQLiteRowDecoder(store: self)
        var lists = [[StoreRow]](repeating: [], count: owners.count)
        try relatedRows(of: owners, entityIndex: entityIndex, position: position) {
            cursor, group in
            if let row = try decoder.storeRow(cursor) { lists[group].append(row) }
        }
        var result: [ObjectID: [StoreRow]] = [:]
        for (index, owner) in owners.enumerated() where result[owner] == nil {
            result[owner] = lists[index]
        }
        return result
    }

    func relatedDecodedRows<Sink: RowSink>(
        of owners: [ObjectID], entityIndex: Int, position: Int, into sink: inout Sink
    ) throws -> Bool {
        var decoder = SQLiteRowDecoder(store: self, table: destinationTable(entityIndex, position))
        try relatedRows(of: owners, entityIndex: entityIndex, position: position) {
            try decoder.decode($0, into: &sink, group: $1)
        }
        return true
    }

    /// The table of the destination of the relationship at `position` of the entity at
    /// `entityIndex` (`nil` when there is none).
    private func destinationTable(_ entityIndex: Int, _ position: Int) -> String? {
        guard
            case .relationship(let relationship) = schema.entities[entityIndex].properties[position],
            let destination = schema.entity(named: relationship.relationship.destinationEntityName)
        else { return nil }
        return entityLayouts[destination.index].tableName
    }

    /// Runs `read` on the cursor at each row of `ids`.
    private func rows(for ids: [ObjectID], read: (RowCursor) throws -> Void) throws {
        var byTable: [String: [Int64]] = [:]
        for id in ids {
            guard case .permanent(let pk) = id.key, let entity = schema.entity(named: id.entityName)
            else { continue }
            byTable[entityLayouts[entity.index].tableName, default: []].append(pk)
        }
        for (table, keys) in byTable.sorted(by: { $0.key < $1.key }) {
            for start in stride(from: 0, to: keys.count, by: Self.batchSize) {
                let chunk = Array(keys[start..<min(start + Self.batchSize, keys.count)])
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                try sqlite {
                    let cursor = try database.makeCursor(
                        sql: selectAll(from: table) + " WHERE t0.Z_PK IN (\(marks))",
                        arguments: StatementArguments(chunk))
                    while try cursor.step() { try read(cursor) }
                }
            }
        }
    }

    /// Runs `read` on the cursor at each row related to one of `owners` through the to-many
    /// relationship at `position`, with the index of its owner in `owners` (its first index
    /// if listed twice).
    ///
    /// Each owner's rows come in relationship order (the order column, then `Z_PK`). Rows are
    /// read by owner key lists (`IN (…)`, `batchSize` keys at a time), or, when the owners'
    /// rows look like a good part of the destination table, in one pass over that table
    /// (see ``scansForRelatedRows(table:column:keys:)``).
    private func relatedRows(
        of owners: [ObjectID], entityIndex: Int, position: Int,
        read: (RowCursor, Int) throws -> Void
    ) throws {
        guard
            case .relationship(let relationship) = schema.entities[entityIndex].properties[position],
            let destination = schema.entity(named: relationship.relationship.destinationEntityName)
        else { return }
        let destinationTable = entityLayouts[destination.index].tableName
        // Rows are grouped by the owner's index (found by its key), not by hashing IDs.
        var keys: [Int64] = []
        var indexByKey: [Int64: Int] = [:]
        for (index, owner) in owners.enumerated() {
            guard case .permanent(let pk) = owner.key, indexByKey[pk] == nil else { continue }
            indexByKey[pk] = index
            keys.append(pk)
        }
        // Each query: its SQL and its arguments.
        var queries: [(sql: String, keys: [Int64])] = []
        switch entityLayouts[entityIndex].relationships[relationship.relationship.name] {
        case .inverseForeignKey(_, let column, _, let order)?:
            let ownerColumn = "t0." + quoteIdentifier(column)
            let select = selectAll(from: destinationTable, extra: ownerColumn)
            let ordering = (order.map { "t0." + quoteIdentifier($0) + ", " } ?? "") + "t0.Z_PK"
            if try scansForRelatedRows(table: destinationTable, column: column, keys: keys) {
                queries = [
                    (select + " WHERE \(ownerColumn) IS NOT NULL ORDER BY " + ordering, [])
                ]
            } else {
                // Ordered by owner first, the foreign key's index gives the rows in order.
                queries = Self.chunks(of: keys).map { chunk in
                    (
                        select + " WHERE \(ownerColumn) IN (\(Self.marks(chunk.count))) ORDER BY "
                            + ownerColumn + ", " + ordering, chunk
                    )
                }
            }
        case .joinTable(let table, let owner, let target, let order)?:
            let head =
                selectAll(from: destinationTable, extra: "j.\(quoteIdentifier(owner))")
                + " JOIN \(quoteIdentifier(table)) AS j ON j.\(quoteIdentifier(target)) = t0.Z_PK"
                + " WHERE j.\(quoteIdentifier(owner)) IN ("
            let tail =
                ") ORDER BY " + (order.map { "j." + quoteIdentifier($0) + ", " } ?? "") + "t0.Z_PK"
            queries = Self.chunks(of: keys).map { chunk in
                (head + Self.marks(chunk.count) + tail, chunk)
            }
        default:
            return
        }
        let ownerColumn = (tableColumns[destinationTable]?.names.count ?? 3)
        for query in queries {
            try sqlite {
                let cursor = try database.makeCursor(
                    sql: query.sql, arguments: StatementArguments(query.keys))
                while try cursor.step() {
                    guard let ownerKey = try cursor.integer(at: ownerColumn),
                        let index = indexByKey[ownerKey]
                    else { continue }
                    try read(cursor, index)
                }
            }
        }
    }

    /// Whether the rows of `table` whose `column` holds one of `keys` are better read in one
    /// pass over the table than through the column's index.
    ///
    /// Reading through the index costs a B-tree search per row; a pass over the table reads
    /// every row in order, several times cheaper per row. Without statistics SQLite always
    /// takes the index, so the store estimates: the matching rows of the first `batchSize`
    /// keys (counted from the index alone), scaled to all keys, against the table's size
    /// (its largest `Z_PK`, an upper bound). The pass wins from about a quarter of the table.
    private func scansForRelatedRows(table: String, column: String, keys: [Int64]) throws
        -> Bool
    {
        guard let sample = Self.chunks(of: keys).first else { return false }
        let sql =
            "SELECT (SELECT max(Z_PK) FROM \(quoteIdentifier(table))), (SELECT count(*) FROM "
            + "\(quoteIdentifier(table)) WHERE \(quoteIdentifier(column)) IN (\(Self.marks(sample.count))))"
        let (size, matching) = try sqlite { () -> (Int64, Int64) in
            let cursor = try database.cachedStatement(sql: sql).makeCursor(
                arguments: StatementArguments(sample))
            guard try cursor.step() else { return (0, 0) }
            return (try cursor.int64(at: 0), try cursor.int64(at: 1))
        }
        let estimate = Double(matching) * Double(keys.count) / Double(sample.count)
        return estimate * 4 >= Double(size)
    }

    /// `keys` in lists of at most `batchSize`.
    static func chunks(of keys: [Int64]) -> [[Int64]] {
        stride(from: 0, to: keys.count, by: batchSize).map {
            Array(keys[$0..<min($0 + batchSize, keys.count)])
        }
    }

    /// `?, ?, …`: `count` parameter marks.
    static func marks(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}
