import Foundation
import SQLiteDatabase

/// Fetches and counts compiled to SQL. What the compiler cannot translate, and statements
/// SQLite refuses as too deep or too large (see ``SQLPlan``), are left to the context's
/// in-memory evaluator (the store answers `nil`), so the answer never differs;
/// ``inMemoryReason(for:)`` says why.
extension SQLiteStore: RowDecodingStore, SQLQueryingStore {
    func fetch(_ query: StoreQuery) throws -> [StoreRow]? {
        guard let compiled = compiledSelect(query) else { return nil }
        return try sqlite {
            var rows: [StoreRow] = []
            let cursor = try database.cachedStatement(sql: compiled.sql).makeCursor(
                arguments: compiled.statementArguments)
            switch query.result {
            case .rows:
                var decoder = SQLiteRowDecoder(
                    store: self, table: entityLayouts[query.entityIndex].tableName)
                while try cursor.step() {
                    if let row = try decoder.storeRow(cursor) { rows.append(row) }
                }
            case .ids:
                while try cursor.step() {
                    guard case .integer(let pk) = try cursor.value(at: 0),
                        case .integer(let number) = try cursor.value(at: 1),
                        let index = schemaIndexByNumber[Int(number)]
                    else { continue }
                    rows.append(
                        StoreRow(
                            id: objectID(schema.entities[index].name, pk), entityIndex: index,
                            version: 0, values: []))
                }
            }
            return rows
        }
    }

    /// ``fetch(_:)`` for whole rows, decoded straight into `sink` row by row (see
    /// ``RowDecodingStore``).
    func fetchDecoded<Sink: RowSink>(_ query: StoreQuery, into sink: inout Sink) throws -> Bool {
        var query = query
        query.result = .rows
        guard let compiled = compiledSelect(query) else { return false }
        try sqlite {
            let cursor = try database.cachedStatement(sql: compiled.sql).makeCursor(
                arguments: compiled.statementArguments)
            var decoder = SQLiteRowDecoder(
                store: self, table: entityLayouts[query.entityIndex].tableName)
            while try cursor.step() { try decoder.decode(cursor, into: &sink) }
        }
        return true
    }

    func count(_ query: StoreQuery) throws -> Int? {
        let entity = schema.entities[query.entityIndex]
        let plan = SQLPlan.make(on: database) { () throws(SQLTranslationError) in
            try compiler.count(
                entity: entity.name, includesSubentities: query.entityIndexes != [entity.index],
                predicate: query.predicate)
        }
        guard let compiled = plan.query else { return nil }
        let total = try sqlite {
            try database.fetchValue(
                Int.self, sql: compiled.sql, arguments: compiled.statementArguments) ?? 0
        }
        let afterOffset = max(0, total - max(0, query.offset))
        return query.limit > 0 ? min(afterOffset, query.limit) : afterOffset
    }

    var rowDecoding: (any RowDecodingStore)? { self }

    var sqlQuerying: (any SQLQueryingStore)? { self }

    func sqlText(for query: StoreQuery) -> String? {
        compiledSelect(query)?.description
    }

    func inMemoryReason(for query: StoreQuery) -> String? {
        if case .inMemory(let reason) = selectPlan(query) { return reason }
        return nil
    }

    /// The SQL of `query`, or `nil` when part of it cannot run in SQL.
    func compiledSelect(_ query: StoreQuery) -> CompiledQuery? {
        if let known = compiledQueries[query] { return known }
        let compiled = selectPlan(query).query
        if compiledQueries.count > 256 { compiledQueries.removeAll() }
        compiledQueries[query] = compiled
        return compiled
    }

    /// The SELECT of `query`, or why it is evaluated in memory.
    func selectPlan(_ query: StoreQuery) -> SQLPlan {
        let entity = schema.entities[query.entityIndex]
        let table = entityLayouts[query.entityIndex].tableName
        let columns: [String]
        switch query.result {
        case .rows: columns = tableColumns[table]?.names ?? []
        case .ids: columns = ["Z_PK", "Z_ENT"]
        }
        return SQLPlan.make(on: database) { () throws(SQLTranslationError) in
            try compiler.select(
                entity: entity.name, includesSubentities: query.entityIndexes != [entity.index],
                predicate: query.predicate, sortDescriptors: query.sortDescriptors,
                offset: query.offset, limit: query.limit, columns: columns)
        }
    }
}
