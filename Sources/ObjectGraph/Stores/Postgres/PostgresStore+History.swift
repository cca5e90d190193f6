import Foundation
import PostgresClient

/// Reading, deleting and bookmarking the history in the schema's `ATRANSACTION` and `ACHANGE`
/// tables (see ``PostgresHistoryTables``; recorded by `PostgresStore+Publishing.swift`).
/// Transaction numbers are the tables' keys, so tokens survive restarts and are the same for
/// every process on the schema.
extension PostgresStore: HistoryStore {
    var history: (any HistoryStore)? { self }

    var tracksHistory: Bool { publishing.tracksHistory.load(ordering: .relaxed) }

    var historyOrigin: HistoryOrigin {
        get { saveOrigin }
        set { saveOrigin = newValue }
    }

    func fetchHistory(_ start: HistoryRequest.Start, includeChanges: Bool) throws
        -> [HistoryTransaction]
    {
        try postgres {
            guard try PostgresHistoryTables.exist(connection) else { return [] }
            let (condition, arguments) = try historyCondition(start)
            let transactions = try readTransactions(condition, arguments)
            guard includeChanges, !transactions.isEmpty else { return transactions }
            var changes = try readChanges(of: transactions.map(\.transactionNumber))
            return transactions.map { transaction in
                var filled = transaction
                filled.changes = changes.removeValue(forKey: transaction.transactionNumber) ?? []
                return filled
            }
        }
    }

    func deleteHistory(throughTransaction number: Int64?, before date: Date?) throws -> Int {
        if description.isReadOnly { throw StoreError.readOnly(path: path) }
        return try postgres {
            guard try PostgresHistoryTables.exist(connection) else { return 0 }
            let (condition, argument): (String, PostgresValue) =
                if let number {
                    ("\"Z_PK\" <= $1", .integer(number))
                } else {
                    (
                        "\"ZTIMESTAMP\" < $1",
                        .double((date ?? .distantPast).timeIntervalSinceReferenceDate)
                    )
                }
            return try connection.transaction {
                try connection.execute(
                    "DELETE FROM \"ACHANGE\" WHERE \"ZTRANSACTIONID\" IN"
                        + " (SELECT \"Z_PK\" FROM \"ATRANSACTION\" WHERE \(condition))",
                    [argument])
                return try connection.execute(
                    "DELETE FROM \"ATRANSACTION\" WHERE \(condition)", [argument]
                ).affectedRows
            }
        }
    }

    func currentHistoryToken() throws -> HistoryToken? {
        try postgres {
            guard try PostgresHistoryTables.exist(connection) else { return nil }
            return HistoryToken(
                storeIdentifier: description.identifier,
                transactionNumber: try lastTransaction().last)
        }
    }

    /// The highest transaction number given out (`Z_MAX`, or the largest kept when higher)
    /// and the oldest kept.
    private func lastTransaction() throws -> (last: Int64, oldest: Int64?) {
        let result = try connection.execute(
            "SELECT COALESCE((SELECT \"Z_MAX\" FROM \"Z_PRIMARYKEY\" WHERE \"Z_ENT\" = $1), 0),"
                + " (SELECT MAX(\"Z_PK\") FROM \"ATRANSACTION\"),"
                + " (SELECT MIN(\"Z_PK\") FROM \"ATRANSACTION\")",
            [.integer(Int64(HistoryTables.transactionEntity))])
        guard let row = result.rows.first else { return (0, nil) }
        let given = try row.int64(0)
        let kept = try row.int64OrNil(1) ?? 0
        return (max(given, kept), try row.int64OrNil(2))
    }

    /// The `WHERE` condition on `ATRANSACTION t` selecting `start`'s transactions; throws for
    /// a token whose following history was deleted.
    private func historyCondition(_ start: HistoryRequest.Start) throws
        -> (String, [PostgresValue])
    {
        switch start {
        case .beginning:
            return ("TRUE", [])
        case .afterDate(let date):
            return ("t.\"ZTIMESTAMP\" > $1", [.double(date.timeIntervalSinceReferenceDate)])
        case .afterToken(let token):
            try checkNotExpired(token, needing: token.transactionNumber + 1)
            return ("t.\"Z_PK\" > $1", [.integer(token.transactionNumber)])
        case .transaction(let token):
            try checkNotExpired(token, needing: token.transactionNumber)
            return ("t.\"Z_PK\" = $1", [.integer(token.transactionNumber)])
        }
    }

    /// Throws ``HistoryError/expiredToken(_:oldestKept:)`` when the transaction `needed` was
    /// deleted.
    private func checkNotExpired(_ token: HistoryToken, needing needed: Int64) throws {
        let (last, oldest) = try lastTransaction()
        guard HistoryChangeRecord.isDeleted(needed, oldestKept: oldest, lastGiven: last) else {
            return
        }
        throw HistoryError.expiredToken(
            token,
            oldestKept: oldest.map {
                HistoryToken(storeIdentifier: description.identifier, transactionNumber: $0)
            })
    }

    /// The transactions matching `condition`, without changes, oldest first (their strings
    /// from `ATRANSACTIONSTRING`, or inline where a writer left them there).
    private func readTransactions(_ condition: String, _ arguments: [PostgresValue]) throws
        -> [HistoryTransaction]
    {
        let names = ["AUTHOR", "BUNDLEID", "CONTEXTNAME", "PROCESSID"]
        let sql =
            "SELECT t.\"Z_PK\", t.\"ZTIMESTAMP\", "
            + names.enumerated().map { "COALESCE(s\($0.offset).\"ZNAME\", t.\"Z\($0.element)\")" }
            .joined(separator: ", ") + " FROM \"ATRANSACTION\" t"
            + names.enumerated().map {
                " LEFT JOIN \"ATRANSACTIONSTRING\" s\($0.offset) ON s\($0.offset).\"Z_PK\""
                    + " = t.\"Z\($0.element)TS\""
            }.joined() + " WHERE \(condition) ORDER BY t.\"Z_PK\""
        return try connection.execute(sql, arguments).rows.map { row in
            HistoryTransaction(
                token: HistoryToken(
                    storeIdentifier: description.identifier, transactionNumber: try row.int64(0)),
                timestamp: Date(timeIntervalSinceReferenceDate: try row.double(1) ?? 0),
                author: row.string(2), contextName: row.string(4), bundleID: row.string(3),
                processID: row.string(5))
        }
    }

    /// The changes of the transactions `numbers`, by transaction number.
    private func readChanges(of numbers: [Int64]) throws -> [Int64: [HistoryChange]] {
        let width = try PostgresHistoryTables.tombstoneColumns(connection)
        let sql =
            "SELECT c.\"Z_PK\", c.\"ZCHANGETYPE\", c.\"ZENTITY\", c.\"ZENTITYPK\","
            + " c.\"ZTRANSACTIONID\", c.\"ZCOLUMNS\""
            + (0..<width).map { ", c.\"ZTOMBSTONE\($0)\"" }.joined()
            + " FROM \"ACHANGE\" c WHERE c.\"ZTRANSACTIONID\" = ANY($1::bigint[])"
            + " ORDER BY c.\"ZTRANSACTIONID\", c.\"Z_PK\""
        var result: [Int64: [HistoryChange]] = [:]
        for row in try connection.execute(sql, [PostgresHistoryTables.integerArray(numbers)]).rows {
            let change = try historyChange(row)
            result[change.transactionToken.transactionNumber, default: []].append(change)
        }
        return result
    }

    /// One `ACHANGE` row as a change.
    private func historyChange(_ row: PostgresRow) throws -> HistoryChange {
        let changeID = try row.int64(0)
        let number = Int(truncatingIfNeeded: try row.int64(2))
        guard let index = schemaIndexByNumber[number] else {
            throw HistoryError.unknownEntity(number: number, change: changeID, path: path)
        }
        let rawType = try row.int64OrNil(1) ?? -1
        guard let type = HistoryChangeType(rawValue: Int(truncatingIfNeeded: rawType)) else {
            throw StoreError.postgres(
                url: path,
                message: "history change \(changeID) has change type \(rawType), not 0, 1 or 2")
        }
        let entity = schema.entities[index]
        var change = HistoryChange(
            changeID: changeID, changedObjectID: objectID(entity.name, try row.int64(3)),
            changeType: type,
            transactionToken: HistoryToken(
                storeIdentifier: description.identifier, transactionNumber: try row.int64(4)))
        switch type {
        case .insert:
            break
        case .update:
            if let mask = try row.bytes(5) {
                change.updatedProperties = HistoryChangeRecord.propertyNames(
                    in: mask, names: entity.names)
            }
        case .delete:
            var tombstone: [String: Value] = [:]
            for (slot, attribute) in tombstoneAttributes(ofEntity: index).enumerated()
            where 6 + slot < row.columns.count {
                let kept = PostgresRow(columns: [attribute.name], texts: [row.text(6 + slot)])
                do {
                    tombstone[attribute.name] = try PostgresValueCoding.value(
                        in: kept, column: 0, type: attribute.type)
                } catch {
                    throw StoreError.postgres(
                        url: path,
                        message: "history change \(changeID): tombstone of"
                            + " \(entity.name).\(attribute.name): \(error)")
                }
            }
            change.tombstone = tombstone
        }
        return change
    }
}
