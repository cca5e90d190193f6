import Foundation
import SQLiteDatabase

/// Recording persistent history: inside the transaction of the change it records.
extension SQLiteStore {
    /// The attributes each entity keeps as tombstones, in property order (`ZTOMBSTONE0` is
    /// the first); empty for an entity keeping none.
    func tombstoneAttributes(ofEntity index: Int) -> [TombstoneAttribute] {
        HistoryChangeRecord.tombstoneAttributes(
            of: schema.entities[index], layout: entityLayouts[index])
    }

    /// The most tombstones any entity keeps.
    var tombstoneColumnsNeeded: Int {
        schema.entities.indices.map { tombstoneAttributes(ofEntity: $0).count }.max() ?? 0
    }

    /// Creates the history tables the file lacks (when the store is added with tracking on).
    func prepareHistoryTables() throws {
        let needed = tombstoneColumnsNeeded
        historyState.tables = try sqlite {
            try writeTransaction { db in try HistoryTables.prepare(db, tombstones: needed) }
        }
        // Outside any transaction, so no rollback can take them away again.
        if needed > 0 { try sqlite { try createTombstoneTriggers(database, width: needed) } }
        historyState.tracksHistory = true
    }

    /// A recorder for the change about to be written in `db`'s transaction, or `nil` when
    /// the store does not record. Call it before the change's deletes: it empties the table
    /// the tombstone triggers fill.
    func historyRecorder(_ db: Database) throws -> SQLiteHistoryRecorder? {
        guard historyState.tracksHistory, let tables = historyState.tables else { return nil }
        let width = tombstoneColumnsNeeded
        if width > 0 { try db.execute(sql: "DELETE FROM temp.og_history_tombstones") }
        return SQLiteHistoryRecorder(
            store: self, db: db, tables: tables, origin: historyState.origin,
            tombstoneWidth: width)
    }

    /// A temporary table and, on each table holding entities that keep tombstones, a
    /// temporary trigger copying the kept values of every row deleted (by a save, a batch
    /// delete or its cascades) into it: `(ent, pk, v0, v1, …)`, `vN` the entity's `N`th kept
    /// attribute.
    private func createTombstoneTriggers(_ db: Database, width: Int) throws {
        try db.execute(
            sql: "CREATE TEMP TABLE IF NOT EXISTS og_history_tombstones (ent INTEGER, pk INTEGER"
                + (0..<width).map { ", v\($0)" }.joined() + ")")
        for (tableNumber, table) in layout.tables.enumerated() {
            var cases = Array(repeating: "", count: width)
            for index in schema.entities.indices
            where entityLayouts[index].tableName == table.name {
                for (slot, attribute) in tombstoneAttributes(ofEntity: index).enumerated() {
                    cases[slot] +=
                        " WHEN \(entityLayouts[index].entityNumber) THEN old."
                        + quoteIdentifier(attribute.column)
                }
            }
            guard cases.contains(where: { !$0.isEmpty }) else { continue }
            let values = cases.map { $0.isEmpty ? "NULL" : "CASE old.Z_ENT\($0) END" }
            try db.execute(
                sql: "CREATE TEMP TRIGGER IF NOT EXISTS og_history_tombstones_\(tableNumber)"
                    + " BEFORE DELETE ON main.\(quoteIdentifier(table.name)) BEGIN"
                    + " INSERT INTO og_history_tombstones VALUES (old.Z_ENT, old.Z_PK, "
                    + values.joined(separator: ", ") + "); END")
        }
    }
}
