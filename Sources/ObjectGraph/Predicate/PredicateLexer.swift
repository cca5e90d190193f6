/// Splits predicate format text into tokens, reporting the first bad character as a
/// ``PredicateSyntaxError``.
struct PredicateLexer {
    private let scalars: [Unicode.Scalar]
    private let source: String
    private var position = 0

    init(_ source: String) {
        self.source = source
        self.scalars = Array(source.unicodeScalars)
    }

    /// All tokens, ending with `.end`.
    static func tokenize(_ source: String) throws(PredicateSyntaxError) -> [PredicateToken] {
        var lexer = PredicateLexer(source)
        var tokens: [PredicateToken] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if case .end = token.kind { return tokens }
        }
    }

    private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        let index = position + ahead
        return index < scalars.count ? scalars[index] : nil
    }

    private func error(_ expected: String, at offset: Int, found: String? = nil)
        -> PredicateSyntaxError
    {
        let shown: String
        if let found {
            shown = found
        } else if offset < scalars.count {
            shown = "'\(Character(scalars[offset]))'"
        } else {
            shown = "end of input"
        }
        return PredicateSyntaxError(
            source: source, offset: offset, expected: expected, found: shown)
    }

    /// Letters (ASCII or not) and `_` start an identifier.
    static func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "a"..."z", "A"..."Z", "_": return true
        default: return c.value >= 128 && c.properties.isAlphabetic
        }
    }

    /// Letters, digits, `_` and `$` continue one.
    static func isIdentifierPart(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "$": return true
        default: return c.value >= 128 && c.properties.isAlphabetic
        }
    }

    /// Whether `name` reads as one identifier token: a letter or `_`, then letters, digits,
    /// `_` and `$`.
    static func isIdentifier(_ name: String) -> Bool {
        var scalars = name.unicodeScalars.makeIterator()
        guard let first = scalars.next(), isIdentifierStart(first) else { return false }
        while let next = scalars.next() {
            guard isIdentifierPart(next) else { return false }
        }
        return true
    }

    private mutating func identifierText() -> String {
        var text = String.UnicodeScalarView()
        while let c = peek(), Self.isIdentifierPart(c) {
            text.append(c)
            position += 1
        }
        return String(text)
    }

    private mutating func next() throws(PredicateSyntaxError) -> PredicateToken {
        while let c = peek(), c.properties.isWhitespace { position += 1 }
        let start = position
        guard let c = peek() else {
            return PredicateToken(kind: .end, offset: start, length: 0)
        }
        func token(_ kind: PredicateToken.Kind) -> PredicateToken {
            PredicateToken(kind: kind, offset: start, length: position - start)
        }
        if Self.isIdentifierStart(c) {
            return token(.identifier(identifierText()))
        }
        if ("0"..."9").contains(c) {
            return token(.number(try numberText()))
        }
        switch c {
        case "\"", "'":
            return token(.string(try stringLiteral(quote: c)))
        case "#", "@", "$":
            position += 1
            if c != "@", let q = peek(), q == "\"" || q == "'" {
                // `#"a b"` and `$"a b"`: a key or a variable whose name is not an identifier
                // (how the canonical form prints one), escapes as in strings.
                let name = try stringLiteral(quote: q)
                return token(c == "#" ? .escapedIdentifier(name) : .variable(name))
            }
            guard let n = peek(), Self.isIdentifierStart(n) else {
                throw error("an identifier after '\(Character(c))'", at: position)
            }
            let name = identifierText()
            switch c {
            case "#": return token(.escapedIdentifier(name))
            case "@": return token(.atIdentifier(name))
            default: return token(.variable(name))
            }
        case "%":
            position += 1
            return token(.formatArgument(try formatConversion()))
        default:
            break
        }
        if let n = peek(1) {
            let pair: String?
            switch (c, n) {
            case ("=", "="): pair = "=="
            case ("!", "="): pair = "!="
            case ("<", ">"): pair = "<>"
            case ("<", "="): pair = "<="
            case ("=", "<"): pair = "=<"
            case (">", "="): pair = ">="
            case ("=", ">"): pair = "=>"
            case ("&", "&"): pair = "&&"
            case ("|", "|"): pair = "||"
            case ("*", "*"): pair = "**"
            default: pair = nil
            }
            if let pair {
                position += 2
                return token(.symbol(pair))
            }
        }
        switch c {
        case "(", ")", "{", "}", "[", "]", ",", ".", ":", "=", "<", ">", "!", "+", "-", "*", "/",
            "&", "|", "^":
            position += 1
            return token(.symbol(String(Character(c))))
        default:
            break
        }
        throw error("a token", at: start)
    }

    private mutating func numberText() throws(PredicateSyntaxError) -> String {
        var text = ""
        if peek() == "0", let p = peek(1), "xXoObB".unicodeScalars.contains(p) {
            text = "0" + String(Character(p)).lowercased()
            position += 2
            while let c = peek(), c.properties.isASCIIHexDigit {
                text.unicodeScalars.append(c)
                position += 1
            }
            if text.count == 2 { throw error("digits after '\(text)'", at: position) }
            return text
        }
        while let c = peek(), ("0"..."9").contains(c) {
            text.unicodeScalars.append(c)
            position += 1
        }
        if peek() == ".", let d = peek(1), ("0"..."9").contains(d) {
            text += "."
            position += 1
            while let c = peek(), ("0"..."9").contains(c) {
                text.unicodeScalars.append(c)
                position += 1
            }
        }
        if let e = peek(), e == "e" || e == "E" {
            var ahead = 1
            if let s = peek(1), s == "+" || s == "-" { ahead = 2 }
            if let d = peek(ahead), ("0"..."9").contains(d) {
                text += "e"
                if ahead == 2, let s = peek(1) { text.unicodeScalars.append(s) }
                position += ahead
                while let c = peek(), ("0"..."9").contains(c) {
                    text.unicodeScalars.append(c)
                    position += 1
                }
            }
        }
        if let c = peek(), Self.isIdentifierStart(c) {
            throw error("a separator after the number", at: position)
        }
        return text
    }

    private mutating func stringLiteral(quote: Unicode.Scalar) throws(PredicateSyntaxError)
        -> String
    {
        let start = position
        position += 1
        var text = String.UnicodeScalarView()
        while true {
            guard let c = peek() else {
                throw error(
                    "a closing \(Character(quote)) for the string at offset \(start)",
                    at: position)
            }
            position += 1
            if c == quote { return String(text) }
            guard c == "\\" else {
                text.append(c)
                continue
            }
            guard let e = peek() else {
                throw error("an escaped character after '\\'", at: position)
            }
            position += 1
            switch e {
            case "n": text.append("\n")
            case "t": text.append("\t")
            case "r": text.append("\r")
            case "0": text.append("\u{0}")
            case "\\", "\"", "'": text.append(e)
            case "u":
                var value: UInt32 = 0
                for _ in 0..<4 {
                    guard let h = peek(), let digit = Self.hexValue(h) else {
                        throw error("four hexadecimal digits after '\\u'", at: position)
                    }
                    value = value * 16 + digit
                    position += 1
                }
                guard let scalar = Unicode.Scalar(value) else {
                    throw error(
                        "a valid Unicode scalar", at: position - 6,
                        found: "'\\u\(String(value, radix: 16))'")
                }
                text.append(scalar)
            default:
                // Unknown escapes keep their backslash, so regular expressions read naturally.
                text.append("\\")
                text.append(e)
            }
        }
    }

    static func hexValue(_ c: Unicode.Scalar) -> UInt32? {
        switch c {
        case "0"..."9": return c.value - 48
        case "a"..."f": return c.value - 87
        case "A"..."F": return c.value - 55
        default: return nil
        }
    }

    private mutating func formatConversion() throws(PredicateSyntaxError) -> String {
        var text = ""
        if let c = peek(), c == "@" || c == "K" || c == "%" {
            position += 1
            return String(Character(c))
        }
        while let c = peek(), "hlqLzjt".unicodeScalars.contains(c), text.count < 2 {
            text.unicodeScalars.append(c)
            position += 1
        }
        guard let c = peek(), "dDiuUxXoOfFeEgGsScp".unicodeScalars.contains(c) else {
            throw error("a format conversion (%@, %K, %d, %f, %s…)", at: position)
        }
        position += 1
        text.unicodeScalars.append(c)
        return text
    }
}
