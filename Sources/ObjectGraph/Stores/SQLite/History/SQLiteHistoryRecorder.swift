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

    /// Records a save: its inserted, updated (with the properties that changed) and deleted
    /// rows (with their tombstones, caught by the triggers as they were deleted).
    func record(inserted: PendingRows, updated: PendingRows, deleted: PendingRows) throws {
        var runs = HistoryRunList()
        var persistent = PersistentColumns(schema: store.schema)
        for position in inserted.indices {
            let row = inserted[position]
            guard case .permanent(let key) = row.id.key else { continue }
            runs.append(.insert, entity: store.entityLayouts[row.entityIndex], key: key)
        }
        for position in updated.indices {
            let row = updated[position]
            guard case .permanent(let key) = row.id.key else { continue }
            let index = row.entityIndex
            runs.append(
                .update, entity: store.entityLayouts[index], key: key,
                columns: persistent.changedColumns(of: row, entityIndex: index))
        }
        for position in deleted.indices {
            let row = deleted[position]
            guard case .permanent(let key) = row.id.key else { continue }
            runs.append(.delete, entity: store.entityLayouts[row.entityIndex], key: key)
        }
        try write(runs)
    }

    /// Records a batch request run in SQL: the rows it deleted, and those it updated (with
    /// the properties at `updatedPositions`, or none recorded when `nil`).
    func record(deleted: [ObjectID], updated: [ObjectID], updatedPositions: [Int]?) throws {
        var runs = HistoryRunList()
        for id in deleted {
            guard case .permanent(let key) = id.key,
                let entity = store.layout.entity(named: id.entityName)
            else { continue }
            runs.append(.delete, entity: entity, key: key)
        }
        for id in updated {
            guard case .permanent(let key) = id.key,
                let entity = store.layout.entity(named: id.entityName)
            else { continue }
            let columns =
                updatedPositions.flatMap { positions in
                    store.schema.entity(named: id.entityName).map {
                        ChangedColumns(positions: positions, count: $0.properties.count)
                    }
                } ?? .none
            runs.append(.update, entity: entity, key: key, columns: columns)
        }
        try write(runs)
    }

    /// Writes the transaction row and its change rows, run by run: the `ACHANGE` keys follow
    /// the order of the changes.
    private func write(_ runs: HistoryRunList) throws {
        guard runs.changeCount > 0 else { return }
        let transaction = try writeTransactionRow()
        let tombstones = runs.hasDeletes ? try caughtTombstones() : [:]
        var key = try reserve(HistoryTables.changeEntity, count: runs.changeCount)
        for run in runs.runs {
            if run.type == .delete {
                try writeDeletes(run, from: key, transaction: transaction, tombstones: tombstones)
            } else {
                try writeFromTable(run, from: key, transaction: transaction)
            }
            key += Int64(run.count)
        }
    }

    /// Writes the `ATRANSACTION` row (its strings interned where the file interns them);
    /// returns its key.
    private func writeTransactionRow() throws -> Int64 {
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
        return transaction
    }

    /// Writes the changes of a run of inserts or updates with one statement, reading their
    /// keys from the entity's table, where the save (or batch request) has just written the
    /// rows: change `i` of the run gets `ACHANGE` key `first + i`.
    private func writeFromTable(_ run: HistoryChangeRun, from first: Int64, transaction: Int64)
        throws
    {
        let last = run.firstKey + Int64(run.count - 1)
        try db.cachedStatement(
            sql: "INSERT INTO ACHANGE (Z_PK, Z_ENT, ZCHANGETYPE, ZENTITY, ZENTITYPK,"
                + " ZTRANSACTIONID, ZCOLUMNS) SELECT ?1 + (Z_PK - ?2), ?3, ?4, ?5, Z_PK, ?6, ?7"
                + " FROM \(quoteIdentifier(run.tableName))"
                + " WHERE Z_PK BETWEEN ?2 AND ?8 AND Z_ENT = ?5"
        ).execute(
            arguments: StatementArguments(positional: [
                .integer(first), .integer(run.firstKey),
                .integer(Int64(HistoryTables.changeEntity)), .integer(Int64(run.type.rawValue)),
                .integer(Int64(run.entityNumber)), .integer(transaction),
                run.columns.blob.map(DatabaseValue.blob) ?? .null, .integer(last),
            ]))
        let written = db.changes
        guard written == run.count else {
            throw DatabaseError(
                resultCode: .error,
                message: "history: \(run.count) \(run.type) changes of entity \(run.entityNumber)"
                    + " at keys \(run.firstKey)…\(last) of \(run.tableName), but \(written) such"
                    + " rows in the table")
        }
    }

    /// Writes the changes of a run of deletes, a row each, with the values the triggers kept.
    private func writeDeletes(
        _ run: HistoryChangeRun, from first: Int64, transaction: Int64,
        tombstones: [TombstoneKey: [DatabaseValue]]
    ) throws {
        let width = min(tombstoneWidth, tables.tombstoneColumns)
        let statement = try db.cachedStatement(
            sql: "INSERT INTO ACHANGE (Z_PK, Z_ENT, ZCHANGETYPE, ZENTITY, ZENTITYPK,"
                + " ZTRANSACTIONID" + (0..<width).map { ", ZTOMBSTONE\($0)" }.joined()
                + ") VALUES (?, ?, ?, ?, ?, ?" + String(repeating: ", ?", count: width) + ")")
        var values: [DatabaseValue] = []
        values.reserveCapacity(6 + width)
        for offset in 0..<run.count {
            let key = run.firstKey + Int64(offset)
            values = [
                .integer(first + Int64(offset)), .integer(Int64(HistoryTables.changeEntity)),
                .integer(Int64(run.type.rawValue)), .integer(Int64(run.entityNumber)),
                .integer(key), .integer(transaction),
            ]
            if width > 0 {
                let kept = tombstones[TombstoneKey(entity: run.entityNumber, key: key)]
                for slot in 0..<width { values.append(kept?[slot] ?? .null) }
            }
            try statement.execute(arguments: StatementArguments(positional: values))
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
