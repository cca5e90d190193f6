import SQLiteDatabase

/// `EXPLAIN QUERY PLAN` for the statements a fetch runs.
extension SQLiteStore {
    func explain(_ query: StoreQuery) throws -> FetchExplanation {
        var explanation = FetchExplanation(entityName: "", storeType: description.type)
        switch selectPlan(query) {
        case .sql(let compiled):
            explanation.statements = [try statement(compiled, purpose: "the fetch")]
        case .inMemory(let reason):
            explanation.inMemory = [
                FetchExplanation.InMemoryPart(
                    part: Self.translatedParts(of: query),
                    reason: reason + "; every row of the fetched entities is read and the"
                        + " evaluator filters and sorts them")
            ]
            explanation.statements = try entityRowQueries(query.entityIndexes).map {
                try statement($0, purpose: "every row, for the in-memory evaluator")
            }
        }
        return explanation
    }

    /// `compiled` with SQLite's plan for it.
    private func statement(_ compiled: CompiledQuery, purpose: String) throws
        -> FetchExplanation.SQLStatement
    {
        FetchExplanation.SQLStatement(
            purpose: purpose, sql: compiled.sql, arguments: compiled.arguments.map(\.description),
            plan: try sqlite {
                try database.queryPlan(sql: compiled.sql, arguments: compiled.statementArguments)
            })
    }

    /// The parts of `query` the SQL compiler translates as a whole: its predicate and sort.
    private static func translatedParts(of query: StoreQuery) -> String {
        var parts: [String] = []
        if let predicate = query.predicate { parts.append("the predicate `\(predicate)`") }
        if !query.sortDescriptors.isEmpty {
            parts.append(
                "the sort by "
                    + query.sortDescriptors.map { "\($0.key)\($0.ascending ? "" : " desc")" }
                    .joined(separator: ", "))
        }
        return parts.isEmpty ? "the whole fetch" : parts.joined(separator: " and ")
    }
}
