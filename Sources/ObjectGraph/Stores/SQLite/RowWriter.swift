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
    private var updates: [UpdateKey: Statement] = [:]

    /// An UPDATE by entity and changed positions (`nil`: every column).
    private struct UpdateKey: Hashable {
        let entityIndex: Int
        let changed: UInt64?
    }

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

    /// The UPDATE of the entity at `index` writing the columns of the positions in `changed`
    /// (every column when `nil`); `sql` is made only the first time.
    mutating func updateStatement(
        for index: Int, changed: UInt64?, sql: () -> String
    ) throws -> Statement {
        let key = UpdateKey(entityIndex: index, changed: changed)
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
