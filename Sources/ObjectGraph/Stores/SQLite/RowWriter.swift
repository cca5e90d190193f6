import SQLiteDatabase

/// Runs one save's row statements: each statement is looked up once per save and entity (not
/// per row, which would hash its SQL text every time), and one argument buffer is reused for
/// every row.
struct RowWriter {
    let db: Database
    /// The arguments of the next ``run(_:)``, appended in parameter order.
    var values: [DatabaseValue] = []
    private var inserts: [Int: Statement] = [:]
    private var deletes: [Int: Statement] = [:]
    private var updates: [RowWritingPlan.UpdateKey: Statement] = [:]

    init(db: Database) {
        self.db = db
        values.reserveCapacity(16)
    }

    /// The INSERT of the entity at `index`.
    mutating func insertStatement(for index: Int, sql: String) throws -> Statement {
        if let known = inserts[index] { return known }
        let statement = try db.cachedStatement(sql: sql)
        inserts[index] = statement
        return statement
    }

    /// The DELETE of the entity at `index`.
    mutating func deleteStatement(for index: Int, sql: String) throws -> Statement {
        if let known = deletes[index] { return known }
        let statement = try db.cachedStatement(sql: sql)
        deletes[index] = statement
        return statement
    }

    /// The UPDATE of the columns `key` names (`sql` made only the first time).
    mutating func updateStatement(
        for key: RowWritingPlan.UpdateKey, sql: () -> String
    ) throws -> Statement {
        if let known = updates[key] { return known }
        let statement = try db.cachedStatement(sql: sql())
        updates[key] = statement
        return statement
    }

    /// Runs `statement` once with ``values``, then empties them (keeping their storage).
    mutating func run(_ statement: Statement) throws {
        defer { values.removeAll(keepingCapacity: true) }
        try statement.execute(arguments: StatementArguments(positional: values))
    }
}
