import Foundation
import PostgresClient

/// Publishing a save, inside its transaction: its persistent history (when the store tracks
/// it: an `ATRANSACTION` row, strings interned in `ATRANSACTIONSTRING`, an `ACHANGE` row per
/// object, tombstones of deleted rows) and a `NOTIFY` on the schema's channel, which
/// PostgreSQL delivers to the listeners when the transaction commits.
///
/// The transaction number is taken last, from `Z_PRIMARYKEY`'s row of `ATRANSACTION`, whose
/// row lock the save then holds until it commits: saves recording history commit in the order
/// of their numbers, so a reader that has seen transaction `n` never later finds a smaller
/// number committed (history after a token misses nothing). Strings and change keys are taken
/// under the same lock, so no two saves wait on each other's strings.
extension PostgresStore {
    /// Creates the history tables the schema lacks (when the store is added with tracking on),
    /// under the store's advisory lock, and turns recording on.
    func prepareHistoryTables() throws {
        var needed = 0
        for index in schema.entities.indices {
            needed = max(needed, tombstoneAttributes(ofEntity: index).count)
        }
        // Tables already there are left alone: DDL on them (even `IF NOT EXISTS`) takes
        // locks that other processes' saves hold, and would deadlock with them.
        let columns =
            try postgres { () throws -> Int? in
                guard try PostgresHistoryTables.isReady(connection, tombstones: needed) else {
                    return nil
                }
                return try PostgresHistoryTables.tombstoneColumns(connection)
            }
            ?? postgres {
                try connection.transaction { () throws -> Int in
                    try connection.execute(
                        "SELECT pg_advisory_xact_lock(hashtext($1::text))",
                        [.text("objectgraph store " + schemaName)])
                    for statement in PostgresHistoryTables.preparation(tombstones: needed) {
                        try connection.run(statement)
                    }
                    return try PostgresHistoryTables.tombstoneColumns(connection)
                }
            }
        publishing.tombstoneColumns.store(columns, ordering: .relaxed)
        publishing.tracksHistory.store(true, ordering: .relaxed)
    }

    /// The attributes entity `index` keeps as tombstones (``HistoryChangeRecord``).
    func tombstoneAttributes(ofEntity index: Int) -> [TombstoneAttribute] {
        HistoryChangeRecord.tombstoneAttributes(
            of: schema.entities[index], layout: entityLayouts[index])
    }

    /// The tombstone values (their PostgreSQL text form, by slot) of the rows `deleted` is
    /// about to delete, read and locked (`FOR UPDATE`) in the save's transaction; empty when
    /// the store records no history or no deleted entity keeps tombstones.
    func tombstones(of deleted: PendingRows) throws -> [PostgresTombstoneKey: [String?]] {
        guard publishing.tracksHistory.load(ordering: .relaxed), !deleted.isEmpty else {
            return [:]
        }
        var keysByEntity: [Int: [Int64]] = [:]
        for row in deleted {
            guard case .permanent(let key) = row.id.key else { continue }
            keysByEntity[row.entityIndex, default: []].append(key)
        }
        var found: [PostgresTombstoneKey: [String?]] = [:]
        for (index, keys) in keysByEntity.sorted(by: { $0.key < $1.key }) {
            let kept = tombstoneAttributes(ofEntity: index)
            guard !kept.isEmpty else { continue }
            let number = entityLayouts[index].entityNumber
            let result = try connection.execute(
                "SELECT \"Z_PK\", "
                    + kept.map { PostgresIdentifier.quoted($0.column) }.joined(separator: ", ")
                    + " FROM \(PostgresIdentifier.quoted(entityLayouts[index].tableName))"
                    + " WHERE \"Z_PK\" = ANY($1::bigint[]) FOR UPDATE",
                [PostgresHistoryTables.integerArray(keys)])
            for row in result.rows {
                found[PostgresTombstoneKey(entity: number, key: try row.int64(0))] =
                    (1...kept.count).map { row.text($0) }
            }
        }
        return found
    }

    /// `rows` in the order their row locks are taken: by table, then key. Every save locks
    /// the rows it updates or deletes in this one order, so two saves of the same objects
    /// wait for each other instead of deadlocking (which PostgreSQL would break by failing one
    /// of them).
    func lockOrder(_ rows: PendingRows) -> [PendingRow] {
        rows.sorted { left, right in
            let leftTable = entityLayouts[left.entityIndex].tableName
            let rightTable = entityLayouts[right.entityIndex].tableName
            if leftTable != rightTable { return leftTable < rightTable }
            return Self.key(of: left) < Self.key(of: right)
        }
    }

    /// A row's key (0 for a temporary one).
    private static func key(of row: PendingRow) -> Int64 {
        if case .permanent(let key) = row.id.key { return key }
        return 0
    }

    /// Records the save of `changes` in the history (when the store tracks it) and announces
    /// it on the schema's channel; the last step of the save's transaction.
    func publish(_ changes: ChangeSet, tombstones: [PostgresTombstoneKey: [String?]]) throws {
        var transaction: Int64 = 0
        if publishing.tracksHistory.load(ordering: .relaxed) {
            let records = HistoryChangeRecord.records(
                inserted: changes.inserted, updated: changes.updated, deleted: changes.deleted,
                schema: schema, layouts: entityLayouts)
            guard !records.isEmpty else { return }
            transaction = try record(records, tombstones: tombstones)
        } else if changes.inserted.isEmpty, changes.updated.isEmpty, changes.deleted.isEmpty {
            return
        }
        try announce(transaction: transaction)
    }

    /// Records a batch run in SQL in the history, when the store tracks it — the rows it
    /// inserted, or updated with the properties at `positions`, as one transaction, as a save
    /// of the same changes is recorded — and announces it; the last step of the batch's
    /// transaction. Nothing happens when the batch changed no row.
    func publishBatch(
        _ type: HistoryChangeType, rows: [(key: Int64, entityIndex: Int)], positions: [Int] = []
    ) throws {
        guard !rows.isEmpty else { return }
        var transaction: Int64 = 0
        if tracksHistory {
            let records = rows.map { row in
                HistoryChangeRecord(
                    entityNumber: entityLayouts[row.entityIndex].entityNumber, key: row.key,
                    type: type,
                    columns: type == .update
                        ? HistoryChangeRecord.updatedColumns(
                            positions, of: schema.entities[row.entityIndex])
                        : nil)
            }
            transaction = try record(records, tombstones: [:])
        }
        try announce(transaction: transaction)
    }

    /// Announces a change on the schema's channel (`transaction`: its history transaction,
    /// 0 when none was recorded): the last step of a save's or a batch's transaction.
    func announce(transaction: Int64 = 0) throws {
        try connection.execute(
            "SELECT pg_notify($1::text, $2::text)",
            [
                .text(publishing.channel),
                .text(
                    publishing.payload(
                        storeIdentifier: description.identifier, transaction: transaction)),
            ])
    }

    /// Writes one transaction of history; returns its number.
    private func record(
        _ records: [HistoryChangeRecord], tombstones: [PostgresTombstoneKey: [String?]]
    )
        throws -> Int64
    {
        let transaction = try reserveHistoryKeys(HistoryTables.transactionEntity, count: 1)
        let origin = saveOrigin
        let texts = [
            origin.author, HistoryOrigin.bundleID, origin.contextName, HistoryOrigin.processID,
        ]
        let interned = try internedKeys(texts.compactMap { $0 })
        try connection.execute(
            "INSERT INTO \"ATRANSACTION\" (\"Z_PK\", \"Z_ENT\", \"ZAUTHORTS\", \"ZBUNDLEIDTS\","
                + " \"ZCONTEXTNAMETS\", \"ZPROCESSIDTS\", \"ZTIMESTAMP\")"
                + " VALUES ($1, $2, $3, $4, $5, $6, $7)",
            [.integer(transaction), .integer(Int64(HistoryTables.transactionEntity))]
                + texts.map { text in text.flatMap { interned[$0] }.map { .integer($0) } ?? .null }
                + [.double(Date().timeIntervalSinceReferenceDate)])
        let width = publishing.tombstoneColumns.load(ordering: .relaxed)
        let first = try reserveHistoryKeys(HistoryTables.changeEntity, count: records.count)
        var slots = Array(repeating: [String?](), count: width)
        for record in records {
            let kept =
                record.type == .delete
                ? tombstones[PostgresTombstoneKey(entity: record.entityNumber, key: record.key)]
                : nil
            for slot in 0..<width {
                slots[slot].append(kept.flatMap { $0.indices.contains(slot) ? $0[slot] : nil })
            }
        }
        let tombstoneNames = (0..<width).map { ", \"ZTOMBSTONE\($0)\"" }.joined()
        let tombstoneValues = (0..<width).map { ", c.z\($0)" }.joined()
        let tombstoneArrays = (0..<width).map { ", $\($0 + 7)::text[]" }.joined()
        let tombstoneAliases = (0..<width).map { ", z\($0)" }.joined()
        try connection.execute(
            "INSERT INTO \"ACHANGE\" (\"Z_PK\", \"Z_ENT\", \"ZCHANGETYPE\", \"ZENTITY\","
                + " \"ZENTITYPK\", \"ZTRANSACTIONID\", \"ZCOLUMNS\"\(tombstoneNames))"
                + " SELECT $1::bigint + c.n - 1, \(HistoryTables.changeEntity), c.t, c.e, c.k,"
                + " $2::bigint, decode(c.m, 'hex')\(tombstoneValues) FROM unnest($3::integer[],"
                + " $4::integer[], $5::bigint[], $6::text[]\(tombstoneArrays)) WITH ORDINALITY"
                + " AS c(t, e, k, m\(tombstoneAliases), n)",
            [
                .integer(first), .integer(transaction),
                PostgresHistoryTables.integerArray(records.map { Int64($0.type.rawValue) }),
                PostgresHistoryTables.integerArray(records.map { Int64($0.entityNumber) }),
                PostgresHistoryTables.integerArray(records.map(\.key)),
                PostgresHistoryTables.textArray(
                    records.map { record in
                        record.columns.map { $0.map { String(format: "%02x", $0) }.joined() }
                    }),
            ] + slots.map(PostgresHistoryTables.textArray))
        return transaction
    }

    /// Reserves `count` keys of the history entity `number` (its `Z_PRIMARYKEY` row stays
    /// locked until the save commits); returns the first.
    private func reserveHistoryKeys(_ number: Int, count: Int) throws -> Int64 {
        let result = try connection.execute(
            "UPDATE \"Z_PRIMARYKEY\" SET \"Z_MAX\" = \"Z_MAX\" + $1 WHERE \"Z_ENT\" = $2"
                + " RETURNING \"Z_MAX\"", [.integer(Int64(count)), .integer(Int64(number))])
        guard let last = try result.rows.first?.int64(0) else {
            throw StoreError.corruptMetadata(
                path: path, reason: "Z_PRIMARYKEY has no row for history entity \(number)")
        }
        return last - Int64(count) + 1
    }

    /// The `ATRANSACTIONSTRING` keys of `texts`, interning the new ones now.
    private func internedKeys(_ texts: [String]) throws -> [String: Int64] {
        guard !texts.isEmpty else { return [:] }
        var keys: [String: Int64] = [:]
        let result = try connection.execute(
            "SELECT \"ZNAME\", \"Z_PK\" FROM \"ATRANSACTIONSTRING\" WHERE \"ZNAME\" = ANY($1::text[])",
            [PostgresHistoryTables.textArray(texts)])
        for row in result.rows {
            if let name = row.string(0) { keys[name] = try row.int64(1) }
        }
        var missing: [String] = []
        for text in texts where keys[text] == nil && !missing.contains(text) {
            missing.append(text)
        }
        guard !missing.isEmpty else { return keys }
        var key = try reserveHistoryKeys(HistoryTables.stringEntity, count: missing.count)
        for text in missing {
            try connection.execute(
                "INSERT INTO \"ATRANSACTIONSTRING\" (\"Z_PK\", \"Z_ENT\", \"ZNAME\") VALUES ($1, $2, $3)",
                [.integer(key), .integer(Int64(HistoryTables.stringEntity)), .text(text)])
            keys[text] = key
            key += 1
        }
        return keys
    }
}

/// A deleted row's entity number and key (where its tombstone is kept until recorded).
struct PostgresTombstoneKey: Hashable {
    let entity: Int
    let key: Int64
}
