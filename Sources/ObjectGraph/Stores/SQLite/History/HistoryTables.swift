import Foundation
import SQLiteDatabase

/// Core Data's persistent-history tables in a SQLite store, and how a file has them.
///
/// Two layouts are read: the current one, whose `ATRANSACTION` keeps its strings interned in
/// `ATRANSACTIONSTRING` (the `…TS` columns hold `Z_PK`s there; the plain string columns stay
/// NULL), and the older one (macOS 10.13), with the strings inline and no
/// `ATRANSACTIONSTRING`. Both keep tombstones in `ACHANGE.ZTOMBSTONE0`, `ZTOMBSTONE1`, ….
/// New history is written in the layout the file has, the current one for a new file.
struct HistoryTables {
    /// `Z_ENT` and `Z_PRIMARYKEY` number of `ACHANGE` rows.
    static let changeEntity = 16001
    /// `Z_ENT` and `Z_PRIMARYKEY` number of `ATRANSACTION` rows.
    static let transactionEntity = 16002
    /// `Z_ENT` and `Z_PRIMARYKEY` number of `ATRANSACTIONSTRING` rows.
    static let stringEntity = 16003

    /// Whether the file has `ATRANSACTION`'s interned-string columns (`ZAUTHORTS`, …).
    let interned: Bool
    /// How many `ZTOMBSTONEn` columns `ACHANGE` has.
    let tombstoneColumns: Int

    /// The DDL of a new file's history tables, with `tombstones` tombstone columns, as Core
    /// Data writes them (see `Docs`/ARCHITECTURE.md for what is verified and what inferred).
    static func creation(tombstones: Int) -> [String] {
        [
            "CREATE TABLE IF NOT EXISTS ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER,"
                + " Z_OPT INTEGER, ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER,"
                + " ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR,"
                + " ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB )",
            "CREATE TABLE IF NOT EXISTS ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER,"
                + " Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER,"
                + " ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB"
                + (0..<tombstones).map { ", ZTOMBSTONE\($0) BLOB" }.joined() + " )",
            stringTableCreation,
            "CREATE INDEX IF NOT EXISTS ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID)",
            "CREATE INDEX IF NOT EXISTS Z_TRANSACTION_TransactionAuthorIndex ON ATRANSACTION"
                + " (ZAUTHORTS COLLATE BINARY ASC)",
            "CREATE INDEX IF NOT EXISTS Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION"
                + " (ZTIMESTAMP COLLATE BINARY ASC)",
        ] + stringIndexCreation
    }

    /// `ATRANSACTIONSTRING`.
    static let stringTableCreation =
        "CREATE TABLE IF NOT EXISTS ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY,"
        + " Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )"
    /// The unique index interning its names.
    static let stringIndexCreation = [
        "CREATE UNIQUE INDEX IF NOT EXISTS Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING"
            + " (ZNAME COLLATE BINARY ASC)"
    ]

    /// How `db` has the history tables; `nil` when it has none.
    static func read(_ db: Database) throws -> HistoryTables? {
        guard try db.tableExists("ATRANSACTION"), try db.tableExists("ACHANGE") else {
            return nil
        }
        let transaction = try db.columnNames(inTable: "ATRANSACTION")
        let change = try db.columnNames(inTable: "ACHANGE")
        var tombstones = 0
        while change.contains("ZTOMBSTONE\(tombstones)") { tombstones += 1 }
        let strings = try db.tableExists("ATRANSACTIONSTRING")
        return HistoryTables(
            interned: transaction.contains("ZAUTHORTS") && strings, tombstoneColumns: tombstones)
    }

    /// Creates the tables `db` lacks (the current layout for a file without any), adds the
    /// tombstone columns past the ones it has up to `tombstones`, and the bookkeeping rows of
    /// `Z_PRIMARYKEY`; returns how the file has them now. Runs inside the caller's transaction.
    static func prepare(_ db: Database, tombstones: Int) throws -> HistoryTables {
        if let existing = try read(db) {
            let columns = try db.columnNames(inTable: "ATRANSACTION")
            if columns.contains("ZAUTHORTS"), !existing.interned {
                // The interned columns without their strings' table: add it.
                for sql in [stringTableCreation] + stringIndexCreation { try db.execute(sql: sql) }
            }
            for column in existing.tombstoneColumns..<max(tombstones, existing.tombstoneColumns) {
                try db.execute(sql: "ALTER TABLE ACHANGE ADD COLUMN ZTOMBSTONE\(column) BLOB")
            }
        } else {
            for sql in creation(tombstones: tombstones) { try db.execute(sql: sql) }
        }
        guard let shape = try read(db) else {
            throw DatabaseError(resultCode: .error, message: "the history tables were not created")
        }
        var rows = [(changeEntity, "CHANGE"), (transactionEntity, "TRANSACTION")]
        if shape.interned { rows.append((stringEntity, "TRANSACTIONSTRING")) }
        for (number, name) in rows {
            try db.execute(
                sql: "INSERT OR IGNORE INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX)"
                    + " VALUES (?, ?, 0, 0)",
                arguments: [number, name])
        }
        return shape
    }
}
