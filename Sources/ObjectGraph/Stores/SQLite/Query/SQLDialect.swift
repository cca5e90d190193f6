/// The SQL the query compiler writes: SQLite's (conditions are integers 0 or 1, `IS` is
/// null-safe equality, Swift functions registered on the connection) or PostgreSQL's (conditions
/// are `boolean`, `IS NOT DISTINCT FROM`, no Swift functions: string operators are answered
/// through a ``SQLValueSource``, and what has no exact PostgreSQL form is refused, so the store
/// evaluates in memory). Placeholders stay `?` while compiling; the PostgreSQL store numbers
/// them (`$1`, …) when it runs the statement.
///
/// ```swift
/// let compiler = SQLQueryCompiler(layout: layout, model: model, dialect: .postgres)
/// ```
enum SQLDialect: Sendable, Hashable {
    case sqlite
    case postgres

    /// The condition that always holds: `1`, `TRUE`.
    var alwaysTrue: SQLPiece { SQLPiece(self == .sqlite ? "1" : "TRUE") }

    /// The condition that never holds: `0`, `FALSE`.
    var alwaysFalse: SQLPiece { SQLPiece(self == .sqlite ? "0" : "FALSE") }

    /// `condition`, false where it is NULL: `IFNULL(c, 0)`, `COALESCE(c, FALSE)`.
    func falseWhenNull(_ condition: SQLPiece) -> SQLPiece {
        self == .sqlite
            ? "IFNULL(" + condition + ", 0)" : "COALESCE(" + condition + ", FALSE)"
    }

    /// Null-safe equality: `(a IS b)`, `(a IS NOT DISTINCT FROM b)`.
    func same(_ left: SQLPiece, _ right: SQLPiece) -> SQLPiece {
        "(" + left + (self == .sqlite ? " IS " : " IS NOT DISTINCT FROM ") + right + ")"
    }

    /// A condition as the integer 0 or 1 (for adding conditions up).
    func integer(_ condition: SQLPiece) -> SQLPiece {
        self == .sqlite ? condition : "CAST(" + condition + " AS integer)"
    }

    /// `ASC`/`DESC` with nil first in both directions, as `SortDescriptor` orders nil.
    func direction(ascending: Bool) -> String {
        switch self {
        case .sqlite: return ascending ? " ASC" : " DESC NULLS FIRST"
        case .postgres: return ascending ? " ASC NULLS FIRST" : " DESC NULLS FIRST"
        }
    }

    /// ` LIMIT ? OFFSET ?` (`LIMIT ALL` on PostgreSQL when `limit` is 0), or nothing.
    ///
    /// PostgreSQL gets no `OFFSET` when `offset` is 0: a bound offset is one the planner cannot
    /// see in a prepared statement's generic plan, which it then costs as skipping a tenth of
    /// the rows, so it plans the statement anew at every run instead (as much time as running
    /// it, for a short indexed fetch).
    func limitClause(limit: Int, offset: Int) -> SQLPiece {
        guard limit > 0 || offset > 0 else { return SQLPiece("") }
        let count: SQLPiece
        if limit > 0 {
            count = .bound(.integer(Int64(limit)))
        } else {
            count = self == .sqlite ? .bound(.integer(-1)) : SQLPiece("ALL")
        }
        if self == .postgres && offset <= 0 { return " LIMIT " + count }
        return " LIMIT " + count + " OFFSET " + SQLPiece.bound(.integer(Int64(max(0, offset))))
    }

    /// `(a AND b …)`, the always-true condition for none.
    func all(_ pieces: [SQLPiece]) -> SQLPiece {
        pieces.isEmpty ? alwaysTrue : SQLPiece.all(pieces)
    }

    /// `(a OR b …)`, the never-true condition for none.
    func any(_ pieces: [SQLPiece]) -> SQLPiece {
        pieces.isEmpty ? alwaysFalse : SQLPiece.any(pieces)
    }

    /// `(x IS NULL)` of `fragment`; the constants for the nil constant and never-nil values.
    func isNullTest(_ fragment: SQLFragment) -> SQLPiece {
        if fragment.kind == .null { return alwaysTrue }
        if !fragment.nullable { return alwaysFalse }
        return fragment.isNullTest
    }
}

/// Where the PostgreSQL compiler reads the distinct values of a column, to answer a string
/// comparison or order in Swift, value by value, exactly as the evaluator does (PostgreSQL has
/// no case or diacritic folding, canonical equivalence or grapheme matching that is Swift's).
protocol SQLValueSource: AnyObject {
    /// The distinct non-nil texts of `column` in `table`, at most `limit` of them.
    func distinctTexts(table: String, column: String, limit: Int) throws -> [String]
}
