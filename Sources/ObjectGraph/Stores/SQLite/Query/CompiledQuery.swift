import SQLiteDatabase

/// An SQL statement and its bound arguments, in the order of the `?` placeholders.
///
/// ```swift
/// let query = try compiler.count(entity: "Person", includesSubentities: true, predicate: p)
/// let count = try db.fetchValue(Int.self, sql: query.sql, arguments: query.statementArguments)
/// ```
struct CompiledQuery: Hashable, Sendable, CustomStringConvertible {
    /// The SQL text; every value is a `?` placeholder.
    var sql: String
    /// The values for the placeholders, in order.
    var arguments: [DatabaseValue]

    /// The arguments as the database layer takes them.
    var statementArguments: StatementArguments { StatementArguments(positional: arguments) }

    /// The SQL followed by its arguments, for `--sql` output and messages.
    var description: String {
        sql + " -- " + arguments.map(\.description).joined(separator: ", ")
    }
}
