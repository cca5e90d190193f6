/// One token of the predicate format language, with its position in the source.
struct PredicateToken: Sendable, Hashable {
    /// What the token is.
    enum Kind: Sendable, Hashable {
        /// A bare identifier or keyword (keywords are matched case-insensitively by the parser).
        case identifier(String)
        /// `#name`: an identifier that is never a keyword; `#"a b"` (or `#'a b'`, escapes as in
        /// strings) for a key that is not an identifier.
        case escapedIdentifier(String)
        /// `@name`: a collection operator in a key path.
        case atIdentifier(String)
        /// `$name`, or `$"a b"` for a name that is not an identifier.
        case variable(String)
        /// A quoted string, escapes resolved.
        case string(String)
        /// A number as written (`12`, `1.5e3`, `0x1F`), without sign.
        case number(String)
        /// `%@`, `%K`, `%d`, `%lld`… : the conversion text after `%`.
        case formatArgument(String)
        /// Punctuation and operators: `( ) { } [ ] , . : == != < …`.
        case symbol(String)
        /// The end of the input.
        case end
    }

    /// The kind and payload.
    var kind: Kind
    /// Offset of the first character, in Unicode scalars from the start of the source.
    var offset: Int
    /// Length in Unicode scalars.
    var length: Int
    /// For an identifier, its uppercase form, computed once for keyword tests.
    var keyword: String = ""

    init(kind: Kind, offset: Int, length: Int) {
        self.kind = kind
        self.offset = offset
        self.length = length
        if case .identifier(let name) = kind, name.utf8.count <= 16 {
            keyword = name.uppercased()
        }
    }

    /// Whether this is the symbol `text`.
    func isSymbol(_ text: String) -> Bool {
        if case .symbol(let s) = kind { return s == text }
        return false
    }

    /// Whether this is the (unescaped) keyword `word`, compared case-insensitively.
    func isKeyword(_ word: String) -> Bool {
        keyword == word
    }

    /// A short rendering for error messages.
    var display: String {
        switch kind {
        case .identifier(let s): return "'\(s)'"
        case .escapedIdentifier(let s): return "'#\(s)'"
        case .atIdentifier(let s): return "'@\(s)'"
        case .variable(let s): return "'$\(s)'"
        case .string: return "a string"
        case .number(let s): return "'\(s)'"
        case .formatArgument(let s): return "'%\(s)'"
        case .symbol(let s): return "'\(s)'"
        case .end: return "end of input"
        }
    }
}
