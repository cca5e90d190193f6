import SQLiteDatabase

/// How a SQLite store answers a fetch or a count: with compiled SQL, or — when the compiler
/// cannot translate a part of it, or SQLite refuses the statement as too deep or too large —
/// by the context's in-memory evaluation over the entity's rows, for the reason given.
///
/// ```swift
/// switch SQLPlan.checked(try compiler.count(...), on: db) {
/// case .sql(let query): print(query.sql)
/// case .inMemory(let reason): print("-- evaluated in memory: \(reason)")
/// }
/// ```
enum SQLPlan {
    /// Run this statement.
    case sql(CompiledQuery)
    /// Evaluate in memory; the reason names what SQL could not take.
    case inMemory(reason: String)

    /// The statement, when there is one.
    var query: CompiledQuery? {
        if case .sql(let query) = self { return query }
        return nil
    }

    /// The plan for compiling with `compile`: its statement, prepared on `database` into the
    /// statement cache (where running it finds it) so that SQLite's limits are known before
    /// it runs, and it is prepared only once.
    static func make(
        on database: Database, _ compile: () throws(SQLTranslationError) -> CompiledQuery
    ) -> SQLPlan {
        let query: CompiledQuery
        do {
            query = try compile()
        } catch {
            return .inMemory(reason: error.description)
        }
        do {
            _ = try database.cachedStatement(sql: query.sql)
        } catch let error as DatabaseError {
            if let reason = limitReached(error) { return .inMemory(reason: reason) }
        } catch {}
        // Any other error is reported when the statement runs, naming the store.
        return .sql(query)
    }

    /// SQLite's messages for statements beyond its compile-time limits: parse depth (100
    /// nested rules), expression depth (1,000), function arguments, joined tables, bound
    /// variables and statement length. The predicate has an answer all the same, in memory.
    static let limitMessages = [
        "parser stack overflow", "Expression tree is too large", "too many arguments on",
        "at most 64 tables in a join", "too many FROM clause terms", "too many SQL variables",
        "too many terms in", "string or blob too big", "statement too long",
    ]

    /// Why SQLite refused a statement as too deep or too large, or nil for any other error.
    static func limitReached(_ error: DatabaseError) -> String? {
        let limit =
            error.resultCode == .tooBig
            || limitMessages.contains { error.message.localizedCaseInsensitiveContains($0) }
        guard limit else { return nil }
        return "SQLite cannot prepare the statement (\(error.message))"
    }
}
