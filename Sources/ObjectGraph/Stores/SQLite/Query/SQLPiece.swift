import SQLiteDatabase

/// A piece of SQL text with the arguments of its `?` placeholders, in text order. Pieces are
/// only ever concatenated, so arguments always stay in the order of their placeholders.
struct SQLPiece: Sendable {
    var sql: String
    var arguments: [DatabaseValue]

    init(_ sql: String, _ arguments: [DatabaseValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    /// A single bound value.
    static func bound(_ value: DatabaseValue) -> SQLPiece { SQLPiece("?", [value]) }

    /// `(?, ?, ?)` for a list of integers.
    static func list(_ numbers: [Int]) -> SQLPiece {
        SQLPiece(
            "(" + numbers.map { _ in "?" }.joined(separator: ", ") + ")",
            numbers.map { .integer(Int64($0)) })
    }

    static func + (lhs: SQLPiece, rhs: SQLPiece) -> SQLPiece {
        SQLPiece(lhs.sql + rhs.sql, lhs.arguments + rhs.arguments)
    }

    static func + (lhs: SQLPiece, rhs: String) -> SQLPiece {
        SQLPiece(lhs.sql + rhs, lhs.arguments)
    }

    static func + (lhs: String, rhs: SQLPiece) -> SQLPiece {
        SQLPiece(lhs + rhs.sql, rhs.arguments)
    }

    /// The pieces joined by `separator`.
    /// Appends in place, so a long list (`x IN (?, ?, …)`) costs time linear in its length.
    static func joined(_ pieces: [SQLPiece], separator: String) -> SQLPiece {
        var result = SQLPiece("")
        for (index, piece) in pieces.enumerated() {
            if index > 0 { result.sql += separator }
            result.sql += piece.sql
            result.arguments += piece.arguments
        }
        return result
    }

    /// `(a AND b AND …)`; `1` for none.
    static func all(_ pieces: [SQLPiece]) -> SQLPiece {
        if pieces.isEmpty { return SQLPiece("1") }
        return balanced(pieces[...], " AND ")
    }

    /// `(a OR b OR …)`; `0` for none.
    static func any(_ pieces: [SQLPiece]) -> SQLPiece {
        if pieces.isEmpty { return SQLPiece("0") }
        return balanced(pieces[...], " OR ")
    }

    /// Long lists nest as a balanced tree, so that SQLite's expression depth limit (1,000)
    /// is not reached by a predicate with many terms.
    private static func balanced(_ pieces: ArraySlice<SQLPiece>, _ separator: String)
        -> SQLPiece
    {
        if pieces.count == 1, let only = pieces.first { return only }
        if pieces.count <= 8 { return "(" + joined(Array(pieces), separator: separator) + ")" }
        let middle = pieces.startIndex + pieces.count / 2
        return "(" + balanced(pieces[..<middle], separator) + separator
            + balanced(pieces[middle...], separator) + ")"
    }

    /// `(NOT p)`.
    static func not(_ piece: SQLPiece) -> SQLPiece { "(NOT " + piece + ")" }
}
