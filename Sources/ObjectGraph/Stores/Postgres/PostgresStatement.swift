import Foundation
import PostgresClient
import SQLiteDatabase

/// A compiled query (``CompiledQuery``, `?` placeholders and SQLite-typed arguments) as
/// PostgreSQL runs it: each `?` numbered and typed by its argument (`$1::bigint`,
/// `$2::double precision`, `$3::text`, `$4::bytea`), so the server never has to infer a
/// parameter's type.
///
/// ```swift
/// let statement = try PostgresStatement(compiled)
/// let result = try connection.execute(statement.sql, statement.arguments)
/// ```
struct PostgresStatement: Hashable, CustomStringConvertible {
    /// The SQL with numbered placeholders.
    var sql: String
    /// The parameters, in order.
    var arguments: [PostgresValue]

    /// Why a compiled query could not be converted.
    struct Mismatch: Error, CustomStringConvertible {
        let description: String
    }

    /// A statement as it is.
    init(sql: String, arguments: [PostgresValue]) {
        self.sql = sql
        self.arguments = arguments
    }

    /// Numbers and types the placeholders of `query`. `?` inside quoted identifiers and
    /// string literals is left alone.
    /// - Throws: ``Mismatch`` when the placeholders and arguments do not pair up.
    init(_ query: CompiledQuery) throws(Mismatch) {
        var sql = ""
        sql.reserveCapacity(query.sql.utf8.count + query.arguments.count * 12)
        var arguments: [PostgresValue] = []
        var quote: Character?
        for character in query.sql {
            if let open = quote {
                if character == open { quote = nil }
                sql.append(character)
                continue
            }
            switch character {
            case "\"", "'":
                quote = character
                sql.append(character)
            case "?":
                guard arguments.count < query.arguments.count else {
                    throw Mismatch(description: "more placeholders than arguments in \(query.sql)")
                }
                let (value, type) = Self.parameter(query.arguments[arguments.count])
                arguments.append(value)
                sql += "$\(arguments.count)" + type
            default:
                sql.append(character)
            }
        }
        guard arguments.count == query.arguments.count else {
            throw Mismatch(description: "fewer placeholders than arguments in \(query.sql)")
        }
        self.sql = sql
        self.arguments = arguments
    }

    /// The parameter of `value` and its cast.
    private static func parameter(_ value: DatabaseValue) -> (PostgresValue, String) {
        switch value {
        case .null: return (.null, "::text")
        case .integer(let number): return (.integer(number), "::bigint")
        case .real(let number): return (.double(number), "::double precision")
        case .text(let text): return (.text(text), "::text")
        case .blob(let bytes): return (.bytes(bytes), "::bytea")
        }
    }

    /// The SQL followed by its arguments, for `--sql` output and messages.
    var description: String {
        sql + " -- " + arguments.map(Self.text).joined(separator: ", ")
    }

    /// An argument as SQL-like text (`30`, `'Ann'`).
    static func text(_ argument: PostgresValue) -> String {
        switch argument {
        case .null: return "NULL"
        case .bool(let flag): return flag ? "TRUE" : "FALSE"
        case .integer(let number): return String(number)
        case .double(let number): return "\(number)"
        case .numeric(let text): return text
        case .text(let text): return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .bytes(let data):
            return "'\\x" + data.map { String(format: "%02x", $0) }.joined() + "'"
        case .uuid(let uuid): return "'\(uuid.uuidString)'"
        }
    }
}

/// Reads the distinct texts of a column for the PostgreSQL compiler's string comparisons and
/// sorts (see ``SQLValueSource``), on the store's connection. The first read opens a
/// `REPEATABLE READ` transaction (when none is open), so that the statement compiled from the
/// values sees the rows they were read from, whatever other servers commit meanwhile; the
/// caller ends it with ``finish(commit:)`` after running the statement.
final class PostgresDistinctTexts: SQLValueSource {
    private let connection: PostgresConnection
    /// Whether this reader opened the transaction it reads in.
    private(set) var openedTransaction = false
    /// Whether the compiler read any column's values (its SQL then depends on them, not on
    /// the query alone).
    private(set) var wasRead = false

    init(connection: PostgresConnection) {
        self.connection = connection
    }

    /// Ends the transaction the first read opened (committing it, or rolling it back).
    func finish(commit: Bool) throws {
        guard openedTransaction else { return }
        openedTransaction = false
        try connection.run(commit ? "COMMIT" : "ROLLBACK")
    }

    func distinctTexts(table: String, column: String, limit: Int) throws -> [String] {
        wasRead = true
        if !connection.isInsideTransaction {
            try connection.run("BEGIN ISOLATION LEVEL REPEATABLE READ")
            openedTransaction = true
        }
        let name = PostgresIdentifier.quoted(column)
        let result = try connection.execute(
            "SELECT DISTINCT \(name) FROM \(PostgresIdentifier.quoted(table)) WHERE \(name)"
                + " IS NOT NULL LIMIT $1::bigint", [.integer(Int64(limit))])
        return result.rows.compactMap { $0.text(0) }
    }
}
