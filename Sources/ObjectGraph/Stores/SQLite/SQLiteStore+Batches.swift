import Foundation
import SQLiteDatabase

/// Loading many rows at once: by IDs, and the rows related to many owners (prefetching).
extension SQLiteStore {
    /// How many keys go into one `IN (…)` list.
    static let batchSize = 500

    func rows(for ids: [ObjectID]) throws -> [StoreRow] {
        try rows(for: ids) { cursor, table in try decodeRow(cursor, table: table) }
    }

    func decodedRows(for ids: [ObjectID]) throws -> [DecodedRow] {
        try rows(for: ids) { cursor, _ in try decodeRow(cursor, skippingValuesOf: nil) }
    }

    func relatedRows(of owners: [ObjectID], entityIndex: Int, position: Int) throws
        -> [ObjectID: [StoreRow]]?
    {
        try relatedRows(of: owners, entityIndex: entityIndex, position: position) {
            cursor, table in try decodeRow(cursor, table: table)
        }
    }

    func relatedDecodedRows(
        of owners: [ObjectID], entityIndex: Int, position: Int,
        skippingValuesOf isLoaded: ((ObjectID) -> Bool)?
    ) throws -> [ObjectID: [DecodedRow]]? {
        try relatedRows(of: owners, entityIndex: entityIndex, position: position) { cursor, _ in
            try decodeRow(cursor, skippingValuesOf: isLoaded)
        }
    }

    /// The rows of `ids`, each decoded by `decode` (given the cursor and the row's table).
    private func rows<Row>(
        for ids: [ObjectID], decode: (RowCursor, String) throws -> Row?
    ) throws -> [Row] {
        var byTable: [String: [Int64]] = [:]
        for id in ids {
            guard case .permanent(let pk) = id.key, let entity = schema.entity(named: id.entityName)
            else { continue }
            byTable[entityLayouts[entity.index].tableName, default: []].append(pk)
        }
        var rows: [Row] = []
        for (table, keys) in byTable.sorted(by: { $0.key < $1.key }) {
            for start in stride(from: 0, to: keys.count, by: Self.batchSize) {
                let chunk = Array(keys[start..<min(start + Self.batchSize, keys.count)])
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                try sqlite {
                    let cursor = try database.makeCursor(
                        sql: selectAll(from: table) + " WHERE t0.Z_PK IN (\(marks))",
                        arguments: StatementArguments(chunk))
                    while try cursor.step() {
                        if let row = try decode(cursor, table) { rows.append(row) }
                    }
                }
            }
        }
        return rows
    }

    /// The rows related to each of `owners` through the to-many relationship at `position`,
    /// each decoded by `decode` (given the cursor and the row's table).
    private func relatedRows<Row>(
        of owners: [ObjectID], entityIndex: Int, position: Int,
        decode: (RowCursor, String) throws -> Row?
    ) throws -> [ObjectID: [Row]]? {
        guard
            case .relationship(let relationship) = schema.entities[entityIndex].properties[position],
            let destination = schema.entity(named: relationship.relationship.destinationEntityName)
        else { return [:] }
        let destinationTable = entityLayouts[destination.index].tableName
        var keys: [Int64] = []
        var ownerByKey: [Int64: ObjectID] = [:]
        for owner in owners {
            guard case .permanent(let pk) = owner.key else { continue }
            keys.append(pk)
            ownerByKey[pk] = owner
        }
        var result: [ObjectID: [Row]] = [:]
        for owner in owners { result[owner] = [] }
        let select: (String) -> String
        switch entityLayouts[entityIndex].relationships[relationship.relationship.name] {
        case .inverseForeignKey(_, let column, _, let order)?:
            let head =
                selectAll(from: destinationTable, extra: "t0.\(quoteIdentifier(column))")
                + " WHERE t0.\(quoteIdentifier(column)) IN ("
            let tail =
                ") ORDER BY " + (order.map { "t0." + quoteIdentifier($0) + ", " } ?? "") + "t0.Z_PK"
            select = { head + $0 + tail }
        case .joinTable(let table, let owner, let target, let order)?:
            let head =
                selectAll(from: destinationTable, extra: "j.\(quoteIdentifier(owner))")
                + " JOIN \(quoteIdentifier(table)) AS j ON j.\(quoteIdentifier(target)) = t0.Z_PK"
                + " WHERE j.\(quoteIdentifier(owner)) IN ("
            let tail =
                ") ORDER BY " + (order.map { "j." + quoteIdentifier($0) + ", " } ?? "") + "t0.Z_PK"
            select = { head + $0 + tail }
        default:
            return result
        }
        let ownerColumn = (tableColumns[destinationTable]?.names.count ?? 3)
        for start in stride(from: 0, to: keys.count, by: Self.batchSize) {
            let chunk = Array(keys[start..<min(start + Self.batchSize, keys.count)])
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            try sqlite {
                let cursor = try database.makeCursor(
                    sql: select(marks),
                    arguments: StatementArguments(chunk))
                while try cursor.step() {
                    guard case .integer(let ownerKey) = try cursor.value(at: ownerColumn),
                        let owner = ownerByKey[ownerKey],
                        let row = try decode(cursor, destinationTable)
                    else { continue }
                    result[owner, default: []].append(row)
                }
            }
        }
        return result
    }
}
