import Foundation

extension PredicateParser {
    /// Words that are keywords of the language; as key path components they need a `#`.
    static let reservedWords: Set<String> = [
        "AND", "OR", "NOT", "IN", "LIKE", "MATCHES", "BEGINSWITH", "ENDSWITH", "CONTAINS",
        "BETWEEN", "ANY", "SOME", "ALL", "NONE", "NULL", "NIL", "TRUE", "FALSE", "YES", "NO",
        "SELF", "FIRST", "LAST", "SIZE", "SUBQUERY", "TERNARY", "CAST", "FUNCTION",
        "TRUEPREDICATE", "FALSEPREDICATE", "ANYKEY", "FETCH",
    ]

    // MARK: Arithmetic

    /// Additive level: `+`, `-` and the bitwise `&`, `|`, `^` (Apple's infix spellings of
    /// `bitwiseAnd:with:`, `bitwiseOr:with:` and `bitwiseXor:with:`), left-associative.
    mutating func expression() throws(PredicateSyntaxError) -> Expression {
        var left = try term()
        var levels = 0
        defer { leave(levels) }
        while true {
            let make: (Expression, Expression) -> Expression
            if current.isSymbol("+") {
                make = { .arithmetic($0, .add, $1) }
            } else if current.isSymbol("-") {
                make = { .arithmetic($0, .subtract, $1) }
            } else if let selector = Self.bitwiseSelectors[current.kind] {
                make = { .function(selector, [$0, $1]) }
            } else {
                return left
            }
            advance()
            try enter()
            levels += 1
            left = make(left, try term())
        }
    }

    /// The infix bitwise operators and the functions they stand for.
    static let bitwiseSelectors: [PredicateToken.Kind: String] = [
        .symbol("&"): "bitwiseAnd:with:", .symbol("|"): "bitwiseOr:with:",
        .symbol("^"): "bitwiseXor:with:",
    ]

    mutating func term() throws(PredicateSyntaxError) -> Expression {
        var left = try power()
        var levels = 0
        defer { leave(levels) }
        while current.isSymbol("*") || current.isSymbol("/") {
            let op: ArithmeticOperator = current.isSymbol("*") ? .multiply : .divide
            advance()
            try enter()
            levels += 1
            left = .arithmetic(left, op, try power())
        }
        return left
    }

    mutating func power() throws(PredicateSyntaxError) -> Expression {
        var left = try unary()
        var levels = 0
        defer { leave(levels) }
        while current.isSymbol("**") {
            advance()
            try enter()
            levels += 1
            left = .arithmetic(left, .power, try unary())
        }
        return left
    }

    mutating func unary() throws(PredicateSyntaxError) -> Expression {
        if current.isSymbol("-") {
            let minus = current
            advance()
            if case .number(let text) = current.kind, current.offset == minus.offset + 1 {
                let number = current
                advance()
                return try postfix(.constant(numberValue(text, negative: true, token: number)))
            }
            try enter()
            defer { leave() }
            return .negate(try unary())
        }
        // A parenthesized key path stays whole: `(a).b` is `b` of the value `a`, not `a.b`.
        let parenthesized = current.isSymbol("(")
        return try postfix(try primary(), mergesKeyPaths: !parenthesized)
    }

    // MARK: Postfix: key path continuation and indexes

    mutating func postfix(_ base: Expression, mergesKeyPaths: Bool = true)
        throws(PredicateSyntaxError) -> Expression
    {
        var mergesKeyPaths = mergesKeyPaths
        var result = base
        var levels = 0
        defer { leave(levels) }
        while true {
            if current.isSymbol(".") {
                advance()
                let more = try keyPathComponents()
                switch result {
                case .keyPath(let path) where mergesKeyPaths:
                    result = .keyPath(try continuedKeyPath(path, more))
                case .member(let inner, let path) where mergesKeyPaths:
                    result = .member(inner, try continuedKeyPath(path, more))
                default:
                    try enter()
                    levels += 1
                    result = .member(result, try continuedKeyPath(PredicateKeyPath([]), more))
                    mergesKeyPaths = true
                }
            } else if current.isSymbol("[") {
                advance()
                try enter()
                levels += 1
                let selector: ExpressionIndex
                if current.isKeyword("FIRST") {
                    advance()
                    selector = .first
                } else if current.isKeyword("LAST") {
                    advance()
                    selector = .last
                } else if current.isKeyword("SIZE") {
                    advance()
                    selector = .size
                } else {
                    selector = .expression(try expression())
                }
                try expectSymbol("]")
                result = .index(result, selector)
                mergesKeyPaths = true
            } else {
                return result
            }
        }
    }

    /// `path`, then `more`, then every further `.component` of the run: one array, appended
    /// in place, so that a key path of n components parses in time linear in n (appending to
    /// a copy of the path taken out of the expression each time copied it, quadratic).
    mutating func continuedKeyPath(
        _ path: PredicateKeyPath, _ more: [PredicateKeyPath.Component]
    ) throws(PredicateSyntaxError) -> PredicateKeyPath {
        var components = path.components
        components.append(contentsOf: more)
        while current.isSymbol(".") {
            advance()
            components.append(contentsOf: try keyPathComponents())
        }
        return PredicateKeyPath(components)
    }

    /// One step of a key path after a `.`: a key, an `@name` (a collection operator; an
    /// unknown one stays the key `@name`, an evaluation error as on Apple platforms, not a
    /// syntax error), or `%K`, whose key path (`"a.b"`: several components) is spliced in.
    mutating func keyPathComponents() throws(PredicateSyntaxError) -> [PredicateKeyPath.Component] {
        let token = current
        switch token.kind {
        case .identifier(let name), .escapedIdentifier(let name):
            advance()
            return [.key(name)]
        case .atIdentifier(let name):
            advance()
            return [Self.atComponent(name)]
        case .formatArgument("K"):
            advance()
            guard case .keyPath(let path) = try formatArgument("K", token: token) else {
                throw error("a key path argument for %K", at: token)
            }
            return path.components
        default:
            throw error("a key name")
        }
    }

    /// `@name`: the collection operator it names, or the key `@name` when it names none.
    static func atComponent(_ name: String) -> PredicateKeyPath.Component {
        CollectionOperator(rawValue: name).map { .operator($0) } ?? .key("@" + name)
    }

    // MARK: Primary expressions

    mutating func primary() throws(PredicateSyntaxError) -> Expression {
        let token = current
        switch token.kind {
        case .number(let text):
            advance()
            return .constant(try numberValue(text, negative: false, token: token))
        case .string(let text):
            advance()
            return .constant(.string(text))
        case .variable(let name):
            advance()
            return .variable(name)
        case .formatArgument(let conversion):
            advance()
            return try formatArgument(conversion, token: token)
        case .atIdentifier, .escapedIdentifier:
            return .keyPath(PredicateKeyPath(try keyPathComponents()))
        case .symbol("{"):
            try enter()
            defer { leave() }
            advance()
            let elements = try expressionList(until: "}")
            return .aggregate(elements)
        case .symbol("("):
            try enter()
            defer { leave() }
            advance()
            let inner = try expression()
            try expectSymbol(")")
            return inner
        case .identifier(let name):
            return try identifierExpression(name, token: token)
        default:
            throw error("an expression")
        }
    }

    /// Parses `a, b, c` up to and including the closing symbol (which may come at once).
    mutating func expressionList(until close: String) throws(PredicateSyntaxError)
        -> [Expression]
    {
        var elements: [Expression] = []
        if current.isSymbol(close) {
            advance()
            return elements
        }
        while true {
            elements.append(try expression())
            if current.isSymbol(",") {
                advance()
                continue
            }
            try expectSymbol(close)
            return elements
        }
    }

    mutating func identifierExpression(_ name: String, token: PredicateToken)
        throws(PredicateSyntaxError) -> Expression
    {
        switch token.keyword {
        case "NULL", "NIL":
            advance()
            return .constant(.null)
        case "TRUE", "YES":
            advance()
            return .constant(.bool(true))
        case "FALSE", "NO":
            advance()
            return .constant(.bool(false))
        case "SELF":
            advance()
            return .evaluatedObject
        case "SUBQUERY":
            return try subquery()
        case "TERNARY":
            return try ternary()
        case "CAST":
            return try cast()
        case "FUNCTION":
            return try functionCall()
        default:
            break
        }
        if peek(1).isSymbol("(") || peek(1).isSymbol(":") {
            return try builtinFunction(name)
        }
        if Self.reservedWords.contains(name.uppercased()) {
            throw error("an expression (escape a key named like a keyword as '#\(name)')")
        }
        advance()
        return .keyPath(PredicateKeyPath([.key(name)]))
    }

    mutating func subquery() throws(PredicateSyntaxError) -> Expression {
        advance()
        try expectSymbol("(")
        try enter(2)
        defer { leave(2) }
        let collection = try expression()
        try expectSymbol(",")
        guard case .variable(let variable) = current.kind else {
            throw error("a variable ($x) naming the element")
        }
        advance()
        try expectSymbol(",")
        let condition = try predicate()
        try expectSymbol(")")
        return .subquery(collection, variable, condition)
    }

    mutating func ternary() throws(PredicateSyntaxError) -> Expression {
        advance()
        try expectSymbol("(")
        try enter(2)
        defer { leave(2) }
        let condition = try predicate()
        try expectSymbol(",")
        let whenTrue = try expression()
        try expectSymbol(",")
        let whenFalse = try expression()
        try expectSymbol(")")
        return .ternary(condition, whenTrue, whenFalse)
    }

    mutating func cast() throws(PredicateSyntaxError) -> Expression {
        advance()
        try expectSymbol("(")
        try enter(2)
        defer { leave(2) }
        let value = try expression()
        try expectSymbol(",")
        let typeToken = current
        guard case .constant(.string(let type)) = try expression() else {
            throw error("a class name string such as \"NSDate\"", at: typeToken)
        }
        try expectSymbol(")")
        return CastFolding.fold(value, type)
    }

    mutating func functionCall() throws(PredicateSyntaxError) -> Expression {
        advance()
        try expectSymbol("(")
        try enter(2)
        defer { leave(2) }
        let target = try expression()
        try expectSymbol(",")
        let selectorToken = current
        guard case .constant(.string(let selector)) = try expression() else {
            throw error("a selector name string such as \"uppercaseString\"", at: selectorToken)
        }
        var arguments: [Expression] = []
        if current.isSymbol(",") {
            advance()
            arguments = try expressionList(until: ")")
        } else {
            try expectSymbol(")")
        }
        return .functionCall(target, selector, arguments)
    }

    /// `average({1, 2})`, `now()` or the selector form `add:to:(1, 2)`.
    mutating func builtinFunction(_ name: String) throws(PredicateSyntaxError) -> Expression {
        let nameToken = current
        advance()
        var selector = name
        if current.isSymbol(":") {
            selector += ":"
            advance()
            while case .identifier(let part) = current.kind, peek(1).isSymbol(":") {
                selector += part + ":"
                advance()
                advance()
            }
        }
        guard let function = BuiltinFunction.lookup(selector) else {
            throw error("a known function (average, sum, count, now, add:to:, …)", at: nameToken)
        }
        try expectSymbol("(")
        try enter(2)
        defer { leave(2) }
        let arguments = try expressionList(until: ")")
        guard arguments.count == function.arity else {
            throw PredicateSyntaxError(
                source: source, offset: nameToken.offset,
                expected: "\(function.arity) argument(s) for \(function.selector)",
                found: "\(arguments.count)")
        }
        return .function(function.selector, arguments)
    }

    // MARK: Literals and arguments

    func numberValue(_ text: String, negative: Bool, token: PredicateToken)
        throws(PredicateSyntaxError) -> Value
    {
        let sign = negative ? "-" : ""
        let radix: Int? =
            text.hasPrefix("0x") ? 16 : text.hasPrefix("0o") ? 8 : text.hasPrefix("0b") ? 2 : nil
        if let radix {
            guard let magnitude = UInt64(text.dropFirst(2), radix: radix) else {
                throw error("a number in base \(radix)", at: token)
            }
            if negative {
                if magnitude <= UInt64(Int64.max) { return .integer(-Int64(magnitude)) }
                if magnitude == UInt64(Int64.max) + 1 { return .integer(Int64.min) }
            } else if magnitude <= UInt64(Int64.max) {
                return .integer(Int64(magnitude))
            }
            throw error("a number that fits in 64 bits", at: token)
        }
        if !text.contains(".") && !text.contains("e"), let integer = Int64(sign + text) {
            return .integer(integer)
        }
        guard let double = Double(sign + text) else { throw error("a number", at: token) }
        return .double(double)
    }

    mutating func formatArgument(_ conversion: String, token: PredicateToken)
        throws(PredicateSyntaxError) -> Expression
    {
        if conversion == "%" { throw error("an expression ('%%' is not a value)", at: token) }
        guard let argument = arguments.next() else {
            throw PredicateSyntaxError(
                source: source, offset: token.offset,
                expected: "a format argument for %\(conversion)",
                found: "only \(arguments.count) argument(s)")
        }
        do {
            return try FormatArgument.expression(for: conversion, argument)
        } catch {
            throw PredicateSyntaxError(
                source: source, offset: token.offset, expected: error.expected,
                found: error.found)
        }
    }
}
