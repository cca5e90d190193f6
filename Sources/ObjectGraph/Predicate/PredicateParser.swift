import Foundation

/// A recursive-descent parser for the predicate format language, with an explicit nesting limit
/// so that hostile input produces an error instead of exhausting the stack.
struct PredicateParser {
    /// The deepest nesting of parentheses, operators and calls the parser accepts. Each level
    /// costs several recursive calls (kilobytes of stack in a debug build), so the limit keeps
    /// the deepest parse far inside a secondary thread's stack; real predicates nest a few levels.
    static let maximumDepth = 256

    let source: String
    let tokens: [PredicateToken]
    /// For each `(` token, the index of its matching `)` (or -1).
    let matchingParenthesis: [Int]
    var arguments: FormatArguments
    var index = 0
    var depth = 0

    init(_ source: String, arguments: [Any?]) throws(PredicateSyntaxError) {
        self.source = source
        self.tokens = try PredicateLexer.tokenize(source)
        self.arguments = FormatArguments(arguments)
        var matches = [Int](repeating: -1, count: tokens.count)
        var open: [Int] = []
        for (i, token) in tokens.enumerated() {
            if token.isSymbol("(") {
                open.append(i)
            } else if token.isSymbol(")"), let o = open.popLast() {
                matches[o] = i
            }
        }
        self.matchingParenthesis = matches
    }

    /// Parses a whole predicate.
    static func parsePredicate(_ source: String, arguments: [Any?]) throws(PredicateSyntaxError)
        -> Predicate
    {
        var parser = try PredicateParser(source, arguments: arguments)
        let predicate = try parser.predicate()
        try parser.expectEnd()
        return predicate
    }

    /// Parses a whole expression.
    static func parseExpression(_ source: String, arguments: [Any?]) throws(PredicateSyntaxError)
        -> Expression
    {
        var parser = try PredicateParser(source, arguments: arguments)
        let expression = try parser.expression()
        try parser.expectEnd()
        return expression
    }

    // MARK: Token helpers

    var current: PredicateToken { tokens[min(index, tokens.count - 1)] }

    func peek(_ ahead: Int) -> PredicateToken { tokens[min(index + ahead, tokens.count - 1)] }

    mutating func advance() {
        if index < tokens.count - 1 { index += 1 }
    }

    func error(_ expected: String, at token: PredicateToken? = nil) -> PredicateSyntaxError {
        let token = token ?? current
        return PredicateSyntaxError(
            source: source, offset: token.offset, expected: expected, found: token.display)
    }

    mutating func expectSymbol(_ symbol: String) throws(PredicateSyntaxError) {
        guard current.isSymbol(symbol) else { throw error("'\(symbol)'") }
        advance()
    }

    mutating func expectEnd() throws(PredicateSyntaxError) {
        guard case .end = current.kind else { throw error("end of input") }
    }

    /// Enters one level of nesting, failing past ``maximumDepth``.
    mutating func enter(_ weight: Int = 1) throws(PredicateSyntaxError) {
        depth += weight
        if depth > Self.maximumDepth {
            throw error("at most \(Self.maximumDepth) levels of nesting")
        }
    }

    mutating func leave(_ levels: Int = 1) { depth -= levels }

    // MARK: Predicates

    mutating func predicate() throws(PredicateSyntaxError) -> Predicate {
        var terms = [try conjunction()]
        while current.isKeyword("OR") || current.isSymbol("||") {
            advance()
            terms.append(try conjunction())
        }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    mutating func conjunction() throws(PredicateSyntaxError) -> Predicate {
        var terms = [try negation()]
        while current.isKeyword("AND") || current.isSymbol("&&") {
            advance()
            terms.append(try negation())
        }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    mutating func negation() throws(PredicateSyntaxError) -> Predicate {
        if current.isKeyword("NOT") || current.isSymbol("!") {
            try enter()
            defer { leave() }
            advance()
            return .not(try negation())
        }
        return try primaryPredicate()
    }

    mutating func primaryPredicate() throws(PredicateSyntaxError) -> Predicate {
        if current.isKeyword("TRUEPREDICATE") {
            advance()
            return .constant(true)
        }
        if current.isKeyword("FALSEPREDICATE") {
            advance()
            return .constant(false)
        }
        if current.isSymbol("("), !parenthesisStartsExpression() {
            try enter()
            defer { leave() }
            advance()
            let inner = try predicate()
            try expectSymbol(")")
            return inner
        }
        for (word, modifier) in [("ANY", ComparisonModifier.any), ("SOME", .any), ("ALL", .all)]
        where current.isKeyword(word) {
            advance()
            return .comparison(try comparison(modifier: modifier))
        }
        if current.isKeyword("NONE") {
            advance()
            return .not(.comparison(try comparison(modifier: .any)))
        }
        return .comparison(try comparison(modifier: .direct))
    }

    /// Whether the `(` at the current token opens an expression (`(a + b) > 2`) rather than a
    /// predicate, judged by the token after its matching `)`.
    func parenthesisStartsExpression() -> Bool {
        let close = matchingParenthesis[index]
        guard close >= 0, close + 1 < tokens.count else { return false }
        let after = tokens[close + 1]
        if Self.comparisonOperator(after) != nil { return true }
        for symbol in ["+", "-", "*", "/", "**", "&", "|", "^", ".", "["]
        where after.isSymbol(symbol) {
            return true
        }
        return false
    }

    static func comparisonOperator(_ token: PredicateToken) -> ComparisonOperator? {
        switch token.kind {
        case .symbol(let s):
            switch s {
            case "=", "==": return .equal
            case "!=", "<>": return .notEqual
            case "<": return .lessThan
            case "<=", "=<": return .lessThanOrEqual
            case ">": return .greaterThan
            case ">=", "=>": return .greaterThanOrEqual
            default: return nil
            }
        case .identifier:
            switch token.keyword {
            case "BEGINSWITH": return .beginsWith
            case "ENDSWITH": return .endsWith
            case "CONTAINS": return .contains
            case "LIKE": return .like
            case "MATCHES": return .matches
            case "IN": return .in
            case "BETWEEN": return .between
            default: return nil
            }
        default:
            return nil
        }
    }

    mutating func comparison(modifier: ComparisonModifier) throws(PredicateSyntaxError)
        -> Comparison
    {
        let left = try expression()
        guard let op = Self.comparisonOperator(current) else {
            throw error("a comparison operator")
        }
        advance()
        var options: ComparisonOptions = []
        if current.isSymbol("[") {
            advance()
            guard case .identifier(let letters) = current.kind else {
                throw error("comparison options (c, d, cd, n, l)")
            }
            for letter in letters.lowercased() {
                switch letter {
                case "c": options.insert(.caseInsensitive)
                case "d": options.insert(.diacriticInsensitive)
                case "n": options.insert(.normalized)
                case "l": options.insert(.localeSensitive)
                default: throw error("comparison options (c, d, cd, n, l)")
                }
            }
            advance()
            try expectSymbol("]")
        }
        let right = try expression()
        return Comparison(left, op, right, modifier: modifier, options: options)
    }
}
