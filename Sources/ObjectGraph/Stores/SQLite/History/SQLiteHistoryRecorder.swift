import Foundation
import SQLiteDatabase

/// Writes one transaction of persistent history into the transaction of the change it
/// records: an `ATRANSACTION` row (strings interned in `ATRANSACTIONSTRING` where the file
/// has it) and an `ACHANGE` row per object inserted, updated or deleted.
struct SQLiteHistoryRecorder {
    let store: SQLiteStore
    let db: Database
    let tables: HistoryTables
    let origin: HistoryOrigin
    /// The width of the temporary tombstone table (0: no entity keeps tombstones).
    let tombstoneWidth: Int

    /// One change to record.
    private struct Change {
        let entityNumber: Int
        let key: Int64
        let type: HistoryChangeType
        let columns: Data?
    }

    /// Records a save: its inserted, updated (with the properties that changed) and deleted
    /// rows (with their tombstones, caught by the triggers as they were deleted).
    func record(inserted: PendingRows, updated: PendingRows, deleted: PendingRows) throws {
        var changes: [Change] = []
        changes.reserveCapacity(inserted.count + updated.count + deleted.count)
        for position in inserted.indices {
            if let change = change(inserted[position], .insert) { changes.append(change) }
        }
        for position in updated.indices {
            if let change = change(updated[position], .update) { changes.append(change) }
        }
        for position in deleted.indices {
            if let change = change(deleted[position], .delete) { changes.append(change) }
        }
        try write(changes)
    }

    /// Records a batch request run in SQL: the rows it deleted, and those it updated (with
    /// the properties at `updatedPositions`, or none recorded when `nil`).
    func record(deleted: [ObjectID], updated: [ObjectID], updatedPositions: [Int]?) throws {
        var changes: [Change] = []
        for id in deleted { if let change = change(id, .delete, nil) { changes.append(change) } }
        for id in updated {
            let columns = updatedPositions.flatMap { positions in
                store.schema.entity(named: id.entityName).map {
                    Self.columnMask(positions, count: $0.properties.count)
                }
            }
            if let change = change(id, .update, columns) { changes.append(change) }
        }
        try write(changes)
    }

    private func change(_ row: PendingRow, _ type: HistoryChangeType) -> Change? {
        guard case .permanent(let key) = row.id.key else { return nil }
        let index = row.entityIndex
        var columns: Data?
        if type == .update {
            let entity = store.schema.entities[index]
            let positions =
                row.changedPositions ?? Array(entity.properties.indices)
            columns = Self.columnMask(
                positions.filter { $0 < entity.isTransient.count && !entity.isTransient[$0] },
                count: entity.properties.count)
        }
        return Change(
            entityNumber: store.entityLayouts[index].entityNumber, key: key, type: type,
            columns: columns)
    }

    private func change(_ id: ObjectID, _ type: HistoryChangeType, _ columns: Data?) -> Change? {
        guard case .permanent(let key) = id.key,
            let number = store.layout.entity(named: id.entityName)?.entityNumber
        else { return nil }
        return Change(entityNumber: number, key: key, type: type, columns: columns)
    }

    /// `ZCOLUMNS`: a bit per property position of the entity (inherited properties first, in
    /// model order), position `n` at bit `n % 8` of byte `n / 8`.
    static func columnMask(_ positions: [Int], count: Int) -> Data {
        HistoryChangeRecord.columnMask(positions, count: count)
    }

    /// Writes the transaction row and its change rows.
    private func write(_ changes: [Change]) throws {
        guard !changes.isEmpty else { return }
        let transaction = try reserve(HistoryTables.transactionEntity, count: 1)
        let timestamp = Date().timeIntervalSinceReferenceDate
        let texts: [String?] = [
            origin.author, HistoryOrigin.bundleID, origin.contextName, HistoryOrigin.processID,
        ]
        if tables.interned {
            var keys: [DatabaseValue] = []
            for text in texts { keys.append(try internedKey(text)) }
            try db.cachedStatement(
                sql: "INSERT INTO ATRANSACTION (Z_PK, Z_ENT, ZAUTHORTS, ZBUNDLEIDTS,"
                    + " ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP) VALUES (?, ?, ?, ?, ?, ?, ?)"
            ).execute(
                arguments: StatementArguments(
                    positional: [
                        .integer(transaction), .integer(Int64(HistoryTables.transactionEntity)),
                    ] + keys + [.real(timestamp)]))
        } else {
            try db.cachedStatement(
                sql: "INSERT INTO ATRANSACTION (Z_PK, Z_ENT, ZAUTHOR, ZBUNDLEID, ZCONTEXTNAME,"
                    + " ZPROCESSID, ZTIMESTAMP) VALUES (?, ?, ?, ?, ?, ?, ?)"
            ).execute(
                arguments: StatementArguments(
                    positional: [
                        .integer(transaction), .integer(Int64(HistoryTables.transactionEntity)),
                    ] + texts.map { $0.map(DatabaseValue.text) ?? .null } + [.real(timestamp)]))
        }
        let tombstones = try caughtTombstones()
        let width = min(tombstoneWidth, tables.tombstoneColumns)
        let statement = try db.cachedStatement(
            sql: "INSERT INTO ACHANGE (Z_PK, Z_ENT, ZCHANGETYPE, ZENTITY, ZENTITYPK,"
                + " ZTRANSACTIONID, ZCOLUMNS" + (0..<width).map { ", ZTOMBSTONE\($0)" }.joined()
                + ") VALUES (?, ?, ?, ?, ?, ?, ?" + String(repeating: ", ?", count: width) + ")")
        var key = try reserve(HistoryTables.changeEntity, count: changes.count)
        var values: [DatabaseValue] = []
        values.reserveCapacity(7 + width)
        for change in changes {
            values.append(.integer(key))
            values.append(.integer(Int64(HistoryTables.changeEntity)))
            values.append(.integer(Int64(change.type.rawValue)))
            values.append(.integer(Int64(change.entityNumber)))
            values.append(.integer(change.key))
            values.append(.integer(transaction))
            values.append(change.columns.map(DatabaseValue.blob) ?? .null)
            if width > 0 {
                let kept =
                    change.type == .delete
                    ? tombstones[TombstoneKey(entity: change.entityNumber, key: change.key)] : nil
                for slot in 0..<width { values.append(kept?[slot] ?? .null) }
            }
            try statement.execute(arguments: StatementArguments(positional: values))
            values.removeAll(keepingCapacity: true)
            key += 1
        }
    }

    /// A deleted row's entity number and key.
    private struct TombstoneKey: Hashable {
        let entity: Int
        let key: Int64
    }

    /// The values the triggers kept of the rows deleted in this transaction.
    private func caughtTombstones() throws -> [TombstoneKey: [DatabaseValue]] {
        guard tombstoneWidth > 0 else { return [:] }
        var result: [TombstoneKey: [DatabaseValue]] = [:]
        let cursor = try db.cachedStatement(sql: "SELECT * FROM temp.og_history_tombstones")
            .makeCursor()
        while try cursor.step() {
            guard case .integer(let entity) = try cursor.value(at: 0),
                case .integer(let key) = try cursor.value(at: 1)
            else { continue }
            var values: [DatabaseValue] = []
            for slot in 0..<tombstoneWidth { values.append(try cursor.value(at: 2 + slot)) }
            result[TombstoneKey(entity: Int(entity), key: key)] = values
        }
        return result
    }

    /// Reserves `count` keys of the history entity `number`; returns the first.
    private func reserve(_ number: Int, count: Int) throws -> Int64 {
        try db.cachedStatement(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + ? WHERE Z_ENT = ?")
            .execute(arguments: [count, number])
        let last =
            try db.fetchValue(
                Int64.self, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?",
                arguments: [number]) ?? Int64(count)
        return last - Int64(count) + 1
    }

    /// The `ATRANSACTIONSTRING` key of `text`, interned now when new; NULL for `nil`.
    private func internedKey(_ text: String?) throws -> DatabaseValue {
        guard let text else { return .null }
        if let known = try db.fetchValue(
            Int64.self, sql: "SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?",
            arguments: [text])
        {
            return .integer(known)
        }
        let key = try reserve(HistoryTables.stringEntity, count: 1)
        try db.cachedStatement(
            sql: "INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, ZNAME) VALUES (?, ?, ?)"
        ).execute(arguments: [key, HistoryTables.stringEntity, text])
        return .integer(key)
    }
}
