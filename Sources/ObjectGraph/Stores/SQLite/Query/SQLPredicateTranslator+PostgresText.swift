import SQLiteDatabase

/// The PostgreSQL dialect's native string translations, on a UTF-8 server
/// (``byteOrderCollation`` set; everything else reads the column's distinct values, see
/// `SQLPredicateTranslator+Postgres.swift`).
///
/// Swift orders strings by the Unicode scalars of their NFC forms, and `==` is canonical
/// equivalence: NFC(a) == NFC(b). UTF-8 byte order is scalar order, so the text
/// `normalize(col, NFC) COLLATE "C"` (``postgresNFC(_:)``, which skips normalizing ASCII
/// texts) compares exactly as the evaluator compares the strings, NFC or not. On it:
///
/// - A `.standard` string sort: `normalize(col, NFC) COLLATE "C" ASC|DESC NULLS FIRST`, ties
///   (canonically equivalent texts) left to `Z_PK`, as the evaluator's stable sort leaves them.
/// - A column `==`, `!=`, `<`, `<=`, `>`, `>=` a constant, `IN` a list of constants, without
///   `[c]`/`[d]`: the same comparison with the constant's NFC form (an argument below U+0300,
///   NFC already, as it is; otherwise `normalize($n, NFC)`), false for nil (`!=` true).
/// - `col BEGINSWITH 'prefix'` without `[c]`/`[d]`, for an ASCII prefix ending in a printable
///   character, without CR and without `K`, `;` and `` ` ``: the byte range of NFC texts
///   starting with the prefix, and the NFC text's next scalar either absent, below U+0300, or
///   not one of ``GraphemeJoiners``. Why that is Swift's `hasPrefix` (a Character-wise
///   comparison under canonical equivalence): only the prefix's own scalars are canonically
///   equivalent to its characters (U+212A, U+037E and U+1FEF, the only other scalars
///   decomposing to an ASCII character, decompose to the three excluded ones; no canonical
///   mapping gives several ASCII characters), so `s.hasPrefix(p)` holds exactly when `s`'s
///   scalars start with `p`'s and the next scalar starts a new Character, that is, is not a
///   joiner (after a printable ASCII character only Extend, ZWJ and SpacingMark scalars join:
///   no ASCII character is Prepend, a control, Hangul or emoji). NFC leaves such a start as it
///   is (an ASCII starter composes only with a following combining mark, a joiner, and
///   reordering moves only non-starters), keeps a joining next scalar joining (it decomposes
///   or composes to marks, which join) and a non-joining one non-joining; and when `s`'s
///   scalars do not start so, neither do NFC(s)'s (a scalar decomposing to `p`'s first
///   characters decomposes to more, a non-starter, or is one of the excluded three). So the
///   test on NFC(s) is Swift's answer for `s`.
///
/// All three read the same expression, so an index on it (PostgresSchemaDDL creates one for
/// a string attribute's fetch index) serves the comparison, the range and the order.
extension SQLPredicateTranslator {
    /// ``postgresNFCExpression(_:)`` of `text` in byte order: the text as Swift compares and
    /// orders it; nil on a server whose encoding may not be UTF-8.
    func postgresNFC(_ text: SQLPiece) -> SQLPiece? {
        guard let collation = byteOrderCollation else { return nil }
        return Self.postgresNFCExpression(text) + collation
    }

    /// The NFC form of the column `text`: `normalize(text, NFC)`, which PostgreSQL computes in
    /// full for every text (some microseconds), skipped for ASCII texts (fewer bytes than
    /// characters is never the case; as many means ASCII, which is NFC). The fetch indexes
    /// PostgresSchemaDDL creates for string attributes are this expression, so it must stay
    /// the same in both.
    static func postgresNFCExpression(_ text: SQLPiece) -> SQLPiece {
        "(CASE WHEN octet_length(" + text + ") = char_length(" + text + ") THEN " + text
            + " ELSE normalize(" + text + ", NFC) END)"
    }

    /// The NFC form of a string constant: the bound text when every scalar is below U+0300
    /// (none of those combines or decomposes, see ``SQLFunctions/isNormalizationFormC(_:)``),
    /// otherwise normalized by the server, with the same tables as the column.
    static func postgresNFCConstant(_ text: String) -> SQLPiece {
        if text.unicodeScalars.allSatisfy({ $0.value < 0x300 }) { return .bound(.text(text)) }
        return "normalize(" + SQLPiece.bound(.text(text)) + ", NFC)"
    }

    /// `column op constant` (`==` or an ordering) on the NFC text, false when the column is
    /// nil; nil when not translated so (options, no column, no UTF-8).
    func postgresNativeString(
        _ column: SQLFragment, _ op: ComparisonOperator, _ constant: String,
        _ options: ComparisonOptions
    ) -> SQLPiece? {
        let symbol: String
        switch op {
        case .equal: symbol = " = "
        case .lessThan: symbol = " < "
        case .lessThanOrEqual: symbol = " <= "
        case .greaterThan: symbol = " > "
        case .greaterThanOrEqual: symbol = " >= "
        default: return nil
        }
        guard options.isDisjoint(with: [.caseInsensitive, .diacriticInsensitive]),
            column.source != nil, let text = postgresNFC(column.piece)
        else { return nil }
        var terms = ["(" + text + symbol + Self.postgresNFCConstant(constant) + ")"]
        if column.nullable { terms.append("(" + column.piece + " IS NOT NULL)") }
        return SQLPiece.all(terms)
    }

    /// `column IN (constants)` on the NFC text (the constants are strings; the caller adds
    /// the nil test of a nil in the list); nil when not translated so.
    func postgresNativeMembership(
        _ column: SQLFragment, _ constants: [String], _ options: ComparisonOptions
    ) -> SQLPiece? {
        guard options.isDisjoint(with: [.caseInsensitive, .diacriticInsensitive]),
            column.source != nil, let text = postgresNFC(column.piece)
        else { return nil }
        guard !constants.isEmpty else { return dialect.alwaysFalse }
        var terms = [
            "(" + text + " IN ("
                + SQLPiece.joined(constants.map(Self.postgresNFCConstant), separator: ", ")
                + "))"
        ]
        if column.nullable { terms.append("(" + column.piece + " IS NOT NULL)") }
        return SQLPiece.all(terms)
    }

    /// `column BEGINSWITH prefix` as byte comparisons of the NFC text, or nil when
    /// PostgreSQL's answer could differ from the evaluator's.
    func postgresPrefix(_ column: SQLFragment, _ prefix: String, _ options: ComparisonOptions)
        -> SQLPiece?
    {
        let scalars = Array(prefix.unicodeScalars)
        guard options.isDisjoint(with: [.caseInsensitive, .diacriticInsensitive]),
            column.source != nil, let text = postgresNFC(column.piece), let last = scalars.last,
            (0x20...0x7E).contains(last.value), let successor = Unicode.Scalar(last.value + 1),
            SQLFunctions.isCanonicallyPlain(prefix), !scalars.contains("\r")
        else { return nil }
        var end = String(String.UnicodeScalarView(scalars.dropLast()))
        end.unicodeScalars.append(successor)
        var plainNext = prefix
        plainNext.unicodeScalars.append(GraphemeJoiners.first)
        var terms: [SQLPiece] = []
        if column.nullable { terms.append("(" + column.piece + " IS NOT NULL)") }
        terms.append("(" + text + " >= " + SQLPiece.bound(.text(prefix)) + ")")
        terms.append("(" + text + " < " + SQLPiece.bound(.text(end)) + ")")
        // The prefix's bytes begin the NFC text; what follows them must start a new Character.
        // A CASE rather than an OR: the same answer (NULL for nil), but the planner estimates
        // no histogram or pattern for it, and the pattern is only tried past the first test.
        terms.append(
            "(CASE WHEN " + text + " < " + SQLPiece.bound(.text(plainNext))
                + " THEN TRUE ELSE substr(" + text + ", \(scalars.count + 1), 1) !~ "
                + SQLPiece.bound(.text(GraphemeJoiners.postgresPattern)) + " END)")
        return SQLPiece.all(terms)
    }

    /// The ORDER BY term of a `.standard` string sort: the NFC text in byte order; nil on a
    /// server whose encoding may not be UTF-8.
    func postgresCodePointSort(_ value: SQLFragment, direction: String) -> SQLPiece? {
        guard value.kind == .string, let text = postgresNFC(value.piece) else { return nil }
        return text + direction
    }
}
