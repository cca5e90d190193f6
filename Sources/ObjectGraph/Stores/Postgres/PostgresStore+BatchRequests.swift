import Foundation
import PostgresClient

/// Batch deletes and batch updates of constants run in the store (``StoreBatch``), each in one
/// `REPEATABLE READ` transaction: the matched rows' keys are chosen first
/// (``batchKeys(_:)``), then every change is a set-based statement over key arrays
/// (`WHERE "Z_PK" = ANY($1)`). The transaction sees one snapshot from its first statement, so
/// the keys chosen and the rules applied agree; a row another writer changed meanwhile makes
/// PostgreSQL refuse the transaction (a serialization failure), and the batch runs again, up
/// to ``batchAttempts`` times. Updates whose values are expressions of each row run in SQL
/// where PostgreSQL's answer is the evaluator's (see ``PostgresStore/batchUpdate(_:_:)``).
/// A batch that changed rows ends with the `NOTIFY` a save sends (``announce(transaction:)``),
/// so other processes' listeners hear it; on a store keeping history, a batch update is
/// recorded first, as a save of the same changes is (``publishBatch(_:rows:positions:)``). A
/// batch delete there runs as a save (its rows' tombstones are read by the rows path).
extension PostgresStore {
    /// How many times a batch is run when other writers keep changing its rows.
    static let batchAttempts = 20

    func execute(_ batch: StoreBatch) throws -> StoreBatchOutcome? {
        switch batch {
        case .delete(let query):
            // A store keeping history records each deleted row's tombstone, which the
            // caller's rows path reads: it runs the batch as a save.
            if tracksHistory { return nil }
            return try batchDelete(query)
        case .update(let query, let values):
            return try batchUpdate(query, values.map { ($0.position, .constant($0.value)) })
        case .updateExpressions(let query, let expressions):
            return try batchUpdate(query, expressions)
        }
    }

    /// Deletes the rows `query` matches and applies the delete rules: in one statement
    /// (``PostgresBatchDeleteStatement``) when no relationship of the query's entities
    /// cascades or denies, else rule by rule (``PostgresBatchDeletion``).
    private func batchDelete(_ query: StoreQuery) throws -> StoreBatchOutcome {
        let table = entityLayouts[query.entityIndex].tableName
        let statement = PostgresBatchDeleteStatement(
            store: self, table: table,
            entityNumbers: Set(query.entityIndexes.map { entityLayouts[$0].entityNumber }))
        return try batchTransaction { connection in
            let outcome: StoreBatchOutcome
            if let statement {
                outcome = try statement.run(
                    deleting: try batchDeletedRows(query), store: self, on: connection)
            } else {
                var deletion = PostgresBatchDeletion(store: self, connection: connection)
                try deletion.run(matched: try batchKeys(query), table: table)
                outcome = deletion.outcome()
            }
            if !outcome.deleted.isEmpty { try announce() }
            return outcome
        }
    }

    /// What follows `DELETE FROM <table>` to delete the rows `query` matches: the compiled
    /// condition on the table (`AS t0 WHERE …`) when it reads no other table, else `WHERE
    /// "Z_PK" IN` the compiled key select, else (a predicate evaluated in memory) the keys
    /// ``batchKeys(_:)`` chose, bound as one array. Run inside the batch's transaction.
    func batchDeletedRows(_ query: StoreQuery) throws -> PostgresStatement {
        let entity = schema.entities[query.entityIndex]
        let compiler = queryCompiler
        let condition = try withValues { values -> CompiledQuery? in
            guard
                let (_, context, condition) = try? compiler.prepare(
                    entity: entity.name,
                    includesSubentities: query.entityIndexes != [entity.index],
                    predicate: query.predicate, values: values),
                context.tableCount == 1
            else { return nil }
            return CompiledQuery(
                sql: " AS t0" + (condition.map { " WHERE " + $0.sql } ?? ""),
                arguments: condition?.arguments ?? [])
        }
        if let condition, let statement = try? PostgresStatement(condition) {
            return statement
        }
        if case .sql(let select) = try withSelectPlan(Self.keysOnly(query), { $0 }) {
            return PostgresStatement(
                sql: " WHERE \"Z_PK\" IN (SELECT m.k FROM (" + select.sql + ") AS m(k, e))",
                arguments: select.arguments)
        }
        return PostgresStatement(
            sql: " WHERE \"Z_PK\" = ANY($1::bigint[])",
            arguments: [Self.arrayLiteral(try batchKeys(query).map(\.key))])
    }

    /// `query` asking for the keys of every row it matches, unsorted.
    static func keysOnly(_ query: StoreQuery) -> StoreQuery {
        var keysOnly = query
        keysOnly.result = .ids
        keysOnly.sortDescriptors = []
        keysOnly.offset = 0
        keysOnly.limit = 0
        return keysOnly
    }

    /// The keys (`Z_PK`) and entities of the rows `query` matches, in key order, read on the
    /// batch's connection inside its transaction. The one place a batch chooses its rows:
    /// answered by ``fetch(_:)`` when the store compiles the query to SQL, else by the
    /// predicate evaluated in memory over the rows of the query's entities (related rows read
    /// as the predicate needs them), exactly as the context's evaluator chooses them.
    func batchKeys(_ query: StoreQuery) throws -> [(key: Int64, entityIndex: Int)] {
        let matched: [StoreRow]
        if let answered = try fetch(Self.keysOnly(query)) {
            matched = answered
        } else {
            let graph = PostgresRowGraph(store: self)
            matched = try rows(ofEntities: query.entityIndexes).filter { row in
                try query.predicate?.evaluate(with: graph.view(of: row)) ?? true
            }
        }
        var seen = Set<Int64>()
        var keys: [(key: Int64, entityIndex: Int)] = []
        for row in matched {
            guard case .permanent(let key) = row.id.key, seen.insert(key).inserted else { continue }
            keys.append((key, row.entityIndex))
        }
        return keys.sorted { $0.key < $1.key }
    }

    /// Runs `body` in a `REPEATABLE READ` transaction on the store's connection, again (from
    /// the start, on a new snapshot) when PostgreSQL refuses it because another writer changed
    /// its rows meanwhile (SQLSTATE 40001) or chose it to break a deadlock (40P01).
    func batchTransaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try postgres {
            var attempt = 1
            while true {
                do {
                    return try connection.transaction(isolation: .repeatableRead) {
                        try body(try connection)
                    }
                } catch let error as PostgresError
                    where (error.sqlState == "40001" || error.sqlState == "40P01")
                    && attempt < Self.batchAttempts
                {
                    attempt += 1
                }
            }
        }
    }
}
