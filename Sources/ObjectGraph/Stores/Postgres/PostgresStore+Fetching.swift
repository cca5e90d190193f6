import Foundation
import PostgresClient
import SQLiteDatabase

/// Fetches and counts compiled to PostgreSQL SQL by the store's compiler in its PostgreSQL
/// dialect (see ``SQLDialect`` and the translator's PostgreSQL notes): what the compiler
/// cannot translate with exactly the evaluator's answer is left to the context's in-memory
/// evaluator (the store answers `nil`), and ``inMemoryReason(for:)`` says why. Plain string
/// comparisons with constants, a plain `BEGINSWITH` of an ASCII prefix and a `.standard`
/// string sort compare the texts' NFC forms in byte order in the statement; other string
/// comparisons and sorts read the distinct values of their columns first (one more statement
/// each), which the evaluator decides in Swift.
extension PostgresStore: SQLQueryingStore {
    /// The compiler for this store's layout, writing PostgreSQL SQL.
    var queryCompiler: SQLQueryCompiler {
        var compiler = SQLQueryCompiler(
            layout: layout, model: schema.model, storeIdentifier: description.identifier,
            dialect: .postgres)
        compiler.byteOrderCollation = byteOrderCollation
        return compiler
    }

    /// What makes a text comparison byte order on the server `connection` reaches: nothing
    /// when the database's default collation is C (libc's `C` or `POSIX`, or the builtin `C`),
    /// ` COLLATE "C"` otherwise, nil when the server's encoding is not UTF-8 (or cannot be
    /// read), where characters are not code points.
    static func byteOrderCollation(_ connection: PostgresConnection) -> String? {
        let rows = try? connection.execute(
            "SELECT current_setting('server_encoding'), CAST(to_jsonb(d) AS text)"
                + " FROM pg_database AS d WHERE d.datname = current_database()"
        ).rows
        guard let row = rows?.first, row.text(0) == "UTF8" else { return nil }
        let settings =
            row.text(1).flatMap { text in
                try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            } ?? [:]
        let provider = settings["datlocprovider"] as? String ?? "c"
        let collate = settings["datcollate"] as? String
        let locale = settings["datlocale"] as? String
        let bytewise =
            (provider == "c" && (collate == "C" || collate == "POSIX"))
            || (provider == "b" && locale == "C")
        return bytewise ? "" : " COLLATE \"C\""
    }

    var sqlQuerying: (any SQLQueryingStore)? { self }

    func fetch(_ query: StoreQuery) throws -> [StoreRow]? {
        try withSelectPlan(query) { plan in
            guard case .sql(let statement) = plan else { return nil }
            return try rows(of: statement, query.result, limit: query.limit)
        }
    }

    /// The most fetch plans ``selectPlans`` keeps; past it, the cache starts again.
    static let selectPlanLimit = 256

    /// Runs `body` with the plan of `query`, on one connection of the pool. A plan whose
    /// compiling read no column's values depends on the query alone (the layout, the model and
    /// the server's collation do not change under an open store): it is kept, and the next
    /// fetch of the same query neither compiles nor numbers its placeholders again, as the
    /// SQLite store keeps its compiled queries.
    func withSelectPlan<T>(_ query: StoreQuery, _ body: (Plan) throws -> T) throws -> T {
        if let known = selectPlans[query] { return try postgres { try body(known) } }
        return try withValues { values in
            let plan = selectPlan(query, values: values)
            if !values.wasRead {
                if selectPlans.count >= Self.selectPlanLimit { selectPlans.removeAll() }
                selectPlans[query] = plan
            }
            return try body(plan)
        }
    }

    /// The rows `statement` selects (whole, or IDs only), read in place: streamed unless
    /// `limit` (`0`: none) keeps them few.
    private func rows(of statement: PostgresStatement, _ result: StoreQuery.Result, limit: Int)
        throws -> [StoreRow]
    {
        try postgres { () throws -> [StoreRow] in
            try connection.execute(
                statement.sql, statement.arguments, binary: true,
                streaming: Self.streams(atMost: limit > 0 ? limit : nil)
            ) { cursor in
                var rows: [StoreRow] = []
                rows.reserveCapacity(cursor.rowCount)
                var decoder = PostgresRowDecoder(store: self)
                while cursor.next() {
                    switch result {
                    case .rows:
                        if let row = try decoder.storeRow(cursor) { rows.append(row) }
                    case .ids:
                        guard let number = try cursor.int64OrNil(1),
                            let index = schemaIndexByNumber[Int(truncatingIfNeeded: number)]
                        else { continue }
                        rows.append(
                            StoreRow(
                                id: objectID(schema.entities[index].name, try cursor.int64(0)),
                                entityIndex: index, version: 0, values: []))
                    }
                }
                return rows
            }
        }
    }

    func count(_ query: StoreQuery) throws -> Int? {
        let entity = schema.entities[query.entityIndex]
        let counted = try withValues { values -> Int64? in
            let plan = Self.plan { () throws(SQLTranslationError) in
                try queryCompiler.count(
                    entity: entity.name,
                    includesSubentities: query.entityIndexes != [entity.index],
                    predicate: query.predicate, values: values)
            }
            guard case .sql(let statement) = plan else { return nil }
            return try postgres {
                try connection.execute(statement.sql, statement.arguments).rows.first?.int64(0)
                    ?? 0
            }
        }
        guard let total = counted else { return nil }
        let afterOffset = max(0, Int(total) - max(0, query.offset))
        return query.limit > 0 ? min(afterOffset, query.limit) : afterOffset
    }

    func sqlText(for query: StoreQuery) -> String? {
        let plan = try? withValues { selectPlan(query, values: $0) }
        if case .sql(let statement)? = plan { return statement.description }
        return nil
    }

    func inMemoryReason(for query: StoreQuery) -> String? {
        switch try? withValues({ selectPlan(query, values: $0) }) {
        case .inMemory(let reason)?: return reason
        case .sql?: return nil
        case nil: return "the column values could not be read"
        }
    }

    /// Runs `body` with a reader of column values for the compiler, ending the transaction
    /// its first read opened: committed when `body` returns, rolled back when it throws.
    /// The store holds one connection of its pool throughout (the reads, the statement and
    /// the transaction's end), and gives it back after.
    func withValues<T>(_ body: (PostgresDistinctTexts) throws -> T) throws -> T {
        try postgres {
            let values = PostgresDistinctTexts(connection: try connection)
            let result: T
            do {
                result = try body(values)
            } catch {
                try? values.finish(commit: false)
                throw error
            }
            try values.finish(commit: true)
            return result
        }
    }

    /// How a PostgreSQL store answers a fetch: this statement, or in memory for the reason
    /// given.
    enum Plan {
        case sql(PostgresStatement)
        case inMemory(reason: String)
    }

    /// The plan of the statement `compile` makes.
    static func plan(_ compile: () throws(SQLTranslationError) -> CompiledQuery) -> Plan {
        do {
            return .sql(try PostgresStatement(compile()))
        } catch let error as SQLTranslationError {
            return .inMemory(reason: error.description)
        } catch {
            return .inMemory(reason: "\(error)")
        }
    }

    /// The SELECT of `query` (columns of the entity's table for rows, `Z_PK` and `Z_ENT` for
    /// IDs), or why it is evaluated in memory.
    func selectPlan(_ query: StoreQuery, values: PostgresDistinctTexts) -> Plan {
        let entity = schema.entities[query.entityIndex]
        let table = entityLayouts[query.entityIndex].tableName
        let columns: [String]
        switch query.result {
        case .rows: columns = columnNames(of: table)
        case .ids: columns = ["Z_PK", "Z_ENT"]
        }
        var compiler = queryCompiler
        compiler.ordersUnsortedByKey = query.needsKeyOrder
        return Self.plan { () throws(SQLTranslationError) in
            try compiler.select(
                entity: entity.name, includesSubentities: query.entityIndexes != [entity.index],
                predicate: query.predicate, sortDescriptors: query.sortDescriptors,
                offset: query.offset, limit: query.limit, columns: columns, values: values)
        }
    }

    /// The statements a fetch runs and PostgreSQL's `EXPLAIN` of each, or what is evaluated
    /// in memory.
    func explain(_ query: StoreQuery) throws -> FetchExplanation {
        var explanation = FetchExplanation(entityName: "", storeType: description.type)
        switch try withValues({ selectPlan(query, values: $0) }) {
        case .sql(let statement):
            explanation.statements = [try explained(statement, purpose: "the fetch")]
        case .inMemory(let reason):
            explanation.inMemory = [
                FetchExplanation.InMemoryPart(
                    part: "the predicate and sort",
                    reason: reason + "; every row of the fetched entities is read and the"
                        + " evaluator filters and sorts them")
            ]
            var byTable: [String: [Int64]] = [:]
            for index in query.entityIndexes.sorted() {
                byTable[entityLayouts[index].tableName, default: []].append(
                    Int64(entityLayouts[index].entityNumber))
            }
            for (table, numbers) in byTable.sorted(by: { $0.key < $1.key }) {
                let statement = PostgresStatement(
                    sql: selectAll(from: table) + " WHERE \"Z_ENT\" = ANY($1::integer[])",
                    arguments: [Self.arrayLiteral(numbers)])
                explanation.statements.append(
                    try explained(statement, purpose: "every row, for the in-memory evaluator"))
            }
        }
        return explanation
    }

    /// `statement` with PostgreSQL's plan for it, one step a line of `EXPLAIN`.
    private func explained(_ statement: PostgresStatement, purpose: String) throws
        -> FetchExplanation.SQLStatement
    {
        let lines = try postgres {
            try connection.execute("EXPLAIN " + statement.sql, statement.arguments).rows
                .compactMap { $0.text(0) }
        }
        return FetchExplanation.SQLStatement(
            purpose: purpose, sql: statement.sql,
            arguments: statement.arguments.map(PostgresStatement.text),
            plan: QueryPlan(steps: lines.map { QueryPlan.Step(detail: $0) }))
    }
}
