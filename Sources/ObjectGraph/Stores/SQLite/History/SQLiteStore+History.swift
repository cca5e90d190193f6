import Foundation
import SQLiteDatabase

/// Reading, deleting and bookmarking the history in the file's `ATRANSACTION` and `ACHANGE`
/// tables, in either layout (see ``HistoryTables``).
extension SQLiteStore: HistoryStore {
    var history: (any HistoryStore)? { self }

    var tracksHistory: Bool { historyState.tracksHistory }

    var historyOrigin: HistoryOrigin {
        get { historyState.origin }
        set { historyState.origin = newValue }
    }

    func fetchHistory(_ start: HistoryRequest.Start, includeChanges: Bool) throws
        -> [HistoryTransaction]
    {
        try sqlite {
            guard let tables = try HistoryTables.read(database) else { return [] }
            let (condition, arguments) = try historyCondition(start)
            let transactions = try readTransactions(tables, condition, arguments)
            guard includeChanges, !transactions.isEmpty else { return transactions }
            var changes = try readChanges(tables, condition, arguments)
            return transactions.map { transaction in
                var filled = transaction
                filled.changes = changes.removeValue(forKey: transaction.transactionNumber) ?? []
                return filled
            }
        }
    }

    func deleteHistory(throughTransaction number: Int64?, before date: Date?) throws -> Int {
        try sqlite {
            guard try HistoryTables.read(database) != nil else { return 0 }
            let condition: String
            let argument: DatabaseValue
            if let number {
                (condition, argument) = ("Z_PK <= ?", .integer(number))
            } else {
                (condition, argument) = (
                    "ZTIMESTAMP < ?", .real((date ?? .distantPast).timeIntervalSinceReferenceDate)
                )
            }
            return try writeTransaction { db in
                try db.execute(
                    sql: "DELETE FROM ACHANGE WHERE ZTRANSACTIONID IN"
                        + " (SELECT Z_PK FROM ATRANSACTION WHERE \(condition))",
                    arguments: StatementArguments(positional: [argument]))
                try db.execute(
                    sql: "DELETE FROM ATRANSACTION WHERE \(condition)",
                    arguments: StatementArguments(positional: [argument]))
                return db.changes
            }
        }
    }

    func currentHistoryToken() throws -> HistoryToken? {
        try sqlite {
            guard try HistoryTables.read(database) != nil else { return nil }
            return HistoryToken(
                storeIdentifier: description.identifier, transactionNumber: try lastTransaction())
        }
    }

    /// The highest transaction number given out (`Z_MAX`, or the largest kept when higher).
    private func lastTransaction() throws -> Int64 {
        let given =
            try database.fetchValue(
                Int64.self, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?",
                arguments: [HistoryTables.transactionEntity]) ?? 0
        let kept =
            try database.fetchValue(Int64.self, sql: "SELECT MAX(Z_PK) FROM ATRANSACTION") ?? 0
        return max(given, kept)
    }

    /// The `WHERE` condition on `ATRANSACTION t` selecting `start`'s transactions; throws
    /// for a token whose following history was deleted.
    private func historyCondition(_ start: HistoryRequest.Start) throws
        -> (String, [DatabaseValue])
    {
        switch start {
        case .beginning:
            return ("1", [])
        case .afterDate(let date):
            return ("t.ZTIMESTAMP > ?", [.real(date.timeIntervalSinceReferenceDate)])
        case .afterToken(let token):
            try checkNotExpired(token, needing: token.transactionNumber + 1)
            return ("t.Z_PK > ?", [.integer(token.transactionNumber)])
        case .transaction(let token):
            try checkNotExpired(token, needing: token.transactionNumber)
            return ("t.Z_PK = ?", [.integer(token.transactionNumber)])
        }
    }

    /// Throws ``HistoryError/expiredToken(_:oldestKept:)`` when the transaction `needed` was
    /// deleted: transactions are numbered without gaps, so a number below the oldest kept
    /// (or, with none kept, at most the last given) names a deleted one.
    private func checkNotExpired(_ token: HistoryToken, needing needed: Int64) throws {
        let oldest = try database.fetchValue(Int64.self, sql: "SELECT MIN(Z_PK) FROM ATRANSACTION")
        let firstKept = try oldest ?? (lastTransaction() + 1)
        guard needed < firstKept, firstKept > 1 else { return }
        throw HistoryError.expiredToken(
            token,
            oldestKept: oldest.map {
                HistoryToken(storeIdentifier: description.identifier, transactionNumber: $0)
            })
    }

    /// The transactions matching `condition`, without changes, oldest first.
    private func readTransactions(
        _ tables: HistoryTables, _ condition: String, _ arguments: [DatabaseValue]
    ) throws -> [HistoryTransaction] {
        let names = ["AUTHOR", "BUNDLEID", "CONTEXTNAME", "PROCESSID"]
        let sql: String
        if tables.interned {
            sql =
                "SELECT t.Z_PK, t.ZTIMESTAMP, "
                + names.enumerated().map { "COALESCE(s\($0.offset).ZNAME, t.Z\($0.element))" }
                .joined(separator: ", ") + " FROM ATRANSACTION t"
                + names.enumerated().map {
                    " LEFT JOIN ATRANSACTIONSTRING s\($0.offset) ON s\($0.offset).Z_PK = t.Z\($0.element)TS"
                }.joined() + " WHERE \(condition) ORDER BY t.Z_PK"
        } else {
            sql =
                "SELECT t.Z_PK, t.ZTIMESTAMP, " + names.map { "t.Z\($0)" }.joined(separator: ", ")
                + " FROM ATRANSACTION t WHERE \(condition) ORDER BY t.Z_PK"
        }
        var result: [HistoryTransaction] = []
        let cursor = try database.cachedStatement(sql: sql).makeCursor(
            arguments: StatementArguments(positional: arguments))
        while try cursor.step() {
            guard case .integer(let number) = try cursor.value(at: 0) else { continue }
            let seconds: Double
            switch try cursor.value(at: 1) {
            case .real(let value): seconds = value
            case .integer(let value): seconds = Double(value)
            default: seconds = 0
            }
            var texts: [String?] = []
            for column in 2..<6 {
                if case .text(let text) = try cursor.value(at: column) {
                    texts.append(text)
                } else {
                    texts.append(nil)
                }
            }
            result.append(
                HistoryTransaction(
                    token: HistoryToken(
                        storeIdentifier: description.identifier, transactionNumber: number),
                    timestamp: Date(timeIntervalSinceReferenceDate: seconds), author: texts[0],
                    contextName: texts[2], bundleID: texts[1], processID: texts[3]))
        }
        return result
    }

    /// The changes of the transactions matching `condition`, by transaction number.
    private func readChanges(
        _ tables: HistoryTables, _ condition: String, _ arguments: [DatabaseValue]
    ) throws -> [Int64: [HistoryChange]] {
        let sql =
            "SELECT c.Z_PK, c.ZCHANGETYPE, c.ZENTITY, c.ZENTITYPK, c.ZTRANSACTIONID, c.ZCOLUMNS"
            + (0..<tables.tombstoneColumns).map { ", c.ZTOMBSTONE\($0)" }.joined()
            + " FROM ACHANGE c WHERE c.ZTRANSACTIONID IN (SELECT t.Z_PK FROM ATRANSACTION t"
            + " WHERE \(condition)) ORDER BY c.ZTRANSACTIONID, c.Z_PK"
        var result: [Int64: [HistoryChange]] = [:]
        let cursor = try database.cachedStatement(sql: sql).makeCursor(
            arguments: StatementArguments(positional: arguments))
        while try cursor.step() {
            var row: [DatabaseValue] = []
            for column in 0..<(6 + tables.tombstoneColumns) {
                row.append(try cursor.value(at: column))
            }
            let change = try historyChange(row)
            result[change.transactionToken.transactionNumber, default: []].append(change)
        }
        return result
    }

    /// One `ACHANGE` row as a change.
    private func historyChange(_ row: [DatabaseValue]) throws -> HistoryChange {
        func integer(_ value: DatabaseValue) -> Int64 {
            if case .integer(let number) = value { return number }
            return 0
        }
        let changeID = integer(row[0])
        let number = Int(truncatingIfNeeded: integer(row[2]))
        guard let index = schemaIndexByNumber[number] else {
            throw HistoryError.unknownEntity(number: number, change: changeID, path: path)
        }
        guard let type = HistoryChangeType(rawValue: Int(truncatingIfNeeded: integer(row[1])))
        else {
            throw StoreError.sqlite(
                path: path,
                message: "history change \(changeID) has change type \(row[1]), not 0, 1 or 2")
        }
        let entity = schema.entities[index]
        var change = HistoryChange(
            changeID: changeID, changedObjectID: objectID(entity.name, integer(row[3])),
            changeType: type,
            transactionToken: HistoryToken(
                storeIdentifier: description.identifier, transactionNumber: integer(row[4])))
        switch type {
        case .insert:
            break
        case .update:
            if case .blob(let mask) = row[5] {
                change.updatedProperties = HistoryChangeRecord.propertyNames(
                    in: mask, names: entity.names)
            }
        case .delete:
            var tombstone: [String: Value] = [:]
            for (slot, attribute) in tombstoneAttributes(ofEntity: index).enumerated()
            where 6 + slot < row.count {
                do {
                    tombstone[attribute.name] = try ValueCoding.value(
                        from: row[6 + slot], type: attribute.type)
                } catch {
                    throw StoreError.sqlite(
                        path: path,
                        message: "history change \(changeID): tombstone of"
                            + " \(entity.name).\(attribute.name): \(error)")
                }
            }
            change.tombstone = tombstone
        }
        return change
    }
}
