import SQLiteDatabase

/// The PostgreSQL dialect's native string translations, used where PostgreSQL's answer is
/// provably the evaluator's, on a UTF-8 server (``byteOrderCollation`` set) (everything else reads the column's distinct values, see
/// `SQLPredicateTranslator+Postgres.swift`):
///
/// - `col BEGINSWITH 'prefix'` without `[c]`/`[d]`, for an ASCII prefix ending in a printable
///   character, without CR and without `K`, `;` and `` ` `` (which U+212A, U+037E and U+1FEF
///   decompose to): the byte range of texts starting with the prefix, and the text's next
///   character either absent, below U+0300, or not one of ``GraphemeJoiners`` (which would
///   make the prefix's last character another `Character` in Swift's `hasPrefix`). The
///   prefix's characters are single ASCII scalars that nothing else is canonically equivalent
///   to, so Swift's answer is exactly this; the texts need not be NFC.
/// - Sorting by a string with the `.standard` comparison: byte order (`COLLATE "C"`, UTF-8 is
///   code point order), which is Swift's order of NFC strings. A text whose scalars are all
///   below U+0300 is NFC (none combines or decomposes; ``SQLFunctions/isNormalizationFormC(_:)``
///   relies on the same), so the statement also selects whether every sorted text is such
///   (`bool_and(…) OVER ()`, over all the rows the WHERE keeps, before the LIMIT); when one is
///   not, the store compiles the fetch again with the ranked distinct values. Only callers that
///   read that column ask for it (``SQLQueryCompiler/checksTextOrder``).
extension SQLPredicateTranslator {
    /// `column BEGINSWITH prefix` as byte comparisons, or nil when PostgreSQL's answer could
    /// differ from the evaluator's.
    func postgresPrefix(_ column: SQLFragment, _ prefix: String, _ options: ComparisonOptions)
        -> SQLPiece?
    {
        let scalars = Array(prefix.unicodeScalars)
        guard let collation = byteOrderCollation,
            options.isDisjoint(with: [.caseInsensitive, .diacriticInsensitive]),
            column.source != nil, let last = scalars.last, (0x20...0x7E).contains(last.value),
            let successor = Unicode.Scalar(last.value + 1),
            SQLFunctions.isCanonicallyPlain(prefix), !scalars.contains("\r")
        else { return nil }
        var end = String(String.UnicodeScalarView(scalars.dropLast()))
        end.unicodeScalars.append(successor)
        var plainNext = prefix
        plainNext.unicodeScalars.append(GraphemeJoiners.first)
        let text = column.piece + collation
        var terms: [SQLPiece] = []
        if column.nullable { terms.append("(" + column.piece + " IS NOT NULL)") }
        terms.append("(" + text + " >= " + SQLPiece.bound(.text(prefix)) + ")")
        terms.append("(" + text + " < " + SQLPiece.bound(.text(end)) + ")")
        // The prefix's bytes begin the text; what follows them must start a new Character.
        terms.append(
            "((" + text + " < " + SQLPiece.bound(.text(plainNext)) + ") OR (substr("
                + column.piece + ", \(scalars.count + 1), 1) COLLATE \"C\" !~ "
                + SQLPiece.bound(.text(GraphemeJoiners.postgresPattern)) + "))")
        return SQLPiece.all(terms)
    }

    /// The ORDER BY term of a `.standard` string sort in byte order, with its check recorded
    /// in ``textOrderChecks``; nil when the caller reads no check.
    func postgresByteOrderSort(_ value: SQLFragment, direction: String) -> SQLPiece? {
        guard let collation = byteOrderCollation, textOrderChecks != nil, value.kind == .string
        else { return nil }
        // NULL for nil, which `bool_and` skips; otherwise whether every scalar is below U+0300
        // (ASCII without a regular expression).
        textOrderChecks?.append(
            "(octet_length(" + value.piece + ") = char_length(" + value.piece + ") OR "
                + value.piece + " COLLATE \"C\" !~ "
                + SQLPiece.bound(.text("[\u{300}-\u{10FFFF}]")) + ")")
        return value.piece + collation + direction
    }
}
