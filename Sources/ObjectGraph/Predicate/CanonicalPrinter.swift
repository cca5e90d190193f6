import Foundation

/// Writes predicates and expressions in Apple's canonical format style: spelled-out operators,
/// `"`-quoted strings, `{…}` aggregates, parenthesized compound subpredicates. What it writes
/// parses back to an equal tree.
enum CanonicalPrinter {
    static func predicate(_ predicate: Predicate) -> String {
        var out = ""
        write(predicate, to: &out)
        return out
    }

    static func expression(_ expression: Expression) -> String {
        var out = ""
        write(expression, to: &out)
        return out
    }

    static func write(_ predicate: Predicate, to out: inout String) {
        switch predicate {
        case .constant(let value):
            out += value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .and(let terms):
            writeCompound(terms, separator: " AND ", empty: "TRUEPREDICATE", to: &out)
        case .or(let terms):
            writeCompound(terms, separator: " OR ", empty: "FALSEPREDICATE", to: &out)
        case .not(let inner):
            out += "NOT "
            // `NOT NOT x` needs no parentheses, so nesting depth is not doubled on reparse.
            if case .not = inner {
                write(inner, to: &out)
            } else {
                writeOperand(inner, to: &out)
            }
        case .comparison(let comparison):
            write(comparison, to: &out)
        }
    }

    private static func writeCompound(
        _ terms: [Predicate], separator: String, empty: String, to out: inout String
    ) {
        if terms.isEmpty {
            out += empty
            return
        }
        for (i, term) in terms.enumerated() {
            if i > 0 { out += separator }
            writeOperand(term, to: &out)
        }
    }

    /// Subpredicates of a compound are parenthesized when they are compound themselves.
    private static func writeOperand(_ predicate: Predicate, to out: inout String) {
        switch predicate {
        case .and, .or, .not:
            out += "("
            write(predicate, to: &out)
            out += ")"
        default:
            write(predicate, to: &out)
        }
    }

    static func write(_ comparison: Comparison, to out: inout String) {
        switch comparison.modifier {
        case .direct: break
        case .any: out += "ANY "
        case .all: out += "ALL "
        }
        write(comparison.left, to: &out)
        out += " " + comparison.operator.symbol
        let letters = comparison.options.letters
        if !letters.isEmpty { out += "[\(letters)]" }
        out += " "
        write(comparison.right, to: &out)
    }

    static func write(_ expression: Expression, to out: inout String) {
        switch expression {
        case .constant(let value):
            write(value, to: &out)
        case .aggregate(let elements):
            out += "{"
            writeList(elements, to: &out)
            out += "}"
        case .evaluatedObject:
            out += "SELF"
        case .keyPath(let path):
            write(path, to: &out)
        case .member(let base, let path):
            writePostfixBase(base, parenthesizeKeyPath: true, to: &out)
            out += "."
            write(path, to: &out)
        case .variable(let name):
            out += variable(name)
        case .index(let base, let selector):
            writePostfixBase(base, parenthesizeKeyPath: false, to: &out)
            out += "["
            switch selector {
            case .expression(let e): write(e, to: &out)
            case .first: out += "FIRST"
            case .last: out += "LAST"
            case .size: out += "SIZE"
            }
            out += "]"
        case .function(let selector, let arguments):
            if let symbol = infixSymbol(expression) {
                writeArithmeticOperand(arguments[0], leftOf: level(expression), to: &out)
                out += " \(symbol) "
                writeArithmeticOperand(arguments[1], to: &out)
                return
            }
            out += selector + "("
            writeList(arguments, to: &out)
            out += ")"
        case .functionCall(let target, let selector, let arguments):
            out += "FUNCTION("
            writeList([target, .constant(.string(selector))] + arguments, to: &out)
            out += ")"
        case .arithmetic(let left, let op, let right):
            writeArithmeticOperand(left, leftOf: level(expression), to: &out)
            out += " \(op.rawValue) "
            writeArithmeticOperand(right, to: &out)
        case .negate(let inner):
            out += "-"
            switch inner {
            case .negate:
                out += " "
                write(inner, to: &out)
            case .arithmetic, .constant(.integer), .constant(.double):
                out += "("
                write(inner, to: &out)
                out += ")"
            default:
                if infixSymbol(inner) != nil {
                    out += "("
                    write(inner, to: &out)
                    out += ")"
                } else {
                    write(inner, to: &out)
                }
            }
        case .subquery(let collection, let variable, let predicate):
            out += "SUBQUERY("
            write(collection, to: &out)
            out += ", " + Self.variable(variable) + ", "
            write(predicate, to: &out)
            out += ")"
        case .ternary(let condition, let whenTrue, let whenFalse):
            out += "TERNARY("
            write(condition, to: &out)
            out += ", "
            writeList([whenTrue, whenFalse], to: &out)
            out += ")"
        case .cast(let value, let type):
            out += "CAST("
            writeList([value, .constant(.string(type))], to: &out)
            out += ")"
        }
    }

    private static func writeList(_ expressions: [Expression], to out: inout String) {
        for (i, e) in expressions.enumerated() {
            if i > 0 { out += ", " }
            write(e, to: &out)
        }
    }

    /// `&`, `|` or `^` for a two-argument bitwise function, which Apple prints infix.
    static func infixSymbol(_ expression: Expression) -> String? {
        guard case .function(let selector, let arguments) = expression, arguments.count == 2
        else { return nil }
        switch selector {
        case "bitwiseAnd:with:": return "&"
        case "bitwiseOr:with:": return "|"
        case "bitwiseXor:with:": return "^"
        default: return nil
        }
    }

    /// The precedence level of an infix expression: 1 additive and bitwise, 2 multiplicative,
    /// 3 power; nil for anything else.
    static func level(_ expression: Expression) -> Int? {
        switch expression {
        case .arithmetic(_, let op, _):
            switch op {
            case .add, .subtract: return 1
            case .multiply, .divide: return 2
            case .power: return 3
            }
        case .function:
            return infixSymbol(expression) != nil ? 1 : nil
        default:
            return nil
        }
    }

    /// Infix operands are parenthesized, except a left operand at the same level: operators
    /// associate to the left, so `a - b - c` needs none (and reparses at the same depth).
    private static func writeArithmeticOperand(
        _ expression: Expression, leftOf parent: Int? = nil, to out: inout String
    ) {
        guard let own = level(expression) else {
            write(expression, to: &out)
            return
        }
        let bare = parent == own
        if !bare { out += "(" }
        write(expression, to: &out)
        if !bare { out += ")" }
    }

    /// The base of `.key` and `[…]` needs parentheses unless it is a primary expression.
    /// A key path base of a member needs them too, or `(a).b` would read as the path `a.b`.
    private static func writePostfixBase(
        _ expression: Expression, parenthesizeKeyPath: Bool, to out: inout String
    ) {
        let needsParentheses: Bool
        switch expression {
        case .arithmetic, .negate, .constant: needsParentheses = true
        case .function: needsParentheses = infixSymbol(expression) != nil
        case .keyPath, .member: needsParentheses = parenthesizeKeyPath
        default: needsParentheses = false
        }
        if needsParentheses { out += "(" }
        write(expression, to: &out)
        if needsParentheses { out += ")" }
    }

    static func write(_ path: PredicateKeyPath, to out: inout String) {
        for (i, component) in path.components.enumerated() {
            if i > 0 { out += "." }
            switch component {
            case .key(let name): out += identifier(name)
            case .operator(let op): out += "@" + op.rawValue
            }
        }
    }

    /// A key name as it parses back to the same key: as it is when it is an identifier,
    /// `#name` for a reserved word, and `#"…"` (quoted and escaped as a string) for anything
    /// else — spaces, dots, a leading digit, punctuation, the empty name, `@count` as a key.
    /// An `@name` key that names no collection operator (`items.@lastObject`) prints as it
    /// was written: it parses back to the same key.
    static func identifier(_ name: String) -> String {
        if name.hasPrefix("@"), case .key = PredicateParser.atComponent(String(name.dropFirst())),
            PredicateLexer.isIdentifier(String(name.dropFirst()))
        {
            return name
        }
        guard PredicateLexer.isIdentifier(name) else { return "#" + StringLiteral.quoted(name) }
        return PredicateParser.reservedWords.contains(name.uppercased()) ? "#" + name : name
    }

    /// `$name`, or `$"…"` for a variable name that is not an identifier.
    static func variable(_ name: String) -> String {
        "$" + (PredicateLexer.isIdentifier(name) ? name : StringLiteral.quoted(name))
    }

    static func write(_ value: Value, to out: inout String) {
        switch value {
        case .null: out += "nil"
        case .integer(let n): out += String(n)
        case .double(let d): out += number(d)
        case .bool(let b): out += b ? "TRUE" : "FALSE"
        case .string(let s): StringLiteral.appendQuoted(s, to: &out)
        case .decimal(let d):
            out += "CAST(\(StringLiteral.quoted(d.description)), \"NSDecimalNumber\")"
        case .date(let date):
            out += "CAST(\(number(date.timeIntervalSinceReferenceDate)), \"NSDate\")"
        case .data(let data):
            out += "CAST(\(StringLiteral.quoted(data.base64EncodedString())), \"NSData\")"
        case .uuid(let uuid): out += "CAST(\(StringLiteral.quoted(uuid.uuidString)), \"NSUUID\")"
        case .uri(let url): out += "CAST(\(StringLiteral.quoted(url.absoluteString)), \"NSURL\")"
        case .objectID(let id):
            out += "CAST(\(StringLiteral.quoted(id.description)), \"NSManagedObjectID\")"
        }
    }

    /// A double that reads back as a double: always with a `.` or an exponent.
    static func number(_ d: Double) -> String {
        guard d.isFinite else {
            if d.isNaN { return "CAST(\"nan\", \"NSNumber\")" }
            return d < 0 ? "CAST(\"-inf\", \"NSNumber\")" : "CAST(\"inf\", \"NSNumber\")"
        }
        let text = "\(d)"
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }
}

extension Predicate: CustomStringConvertible {
    /// The canonical format string; parsing it gives an equal predicate.
    public var description: String { CanonicalPrinter.predicate(self) }
}

extension Expression: CustomStringConvertible {
    /// The canonical format string of the expression.
    public var description: String { CanonicalPrinter.expression(self) }
}

extension Comparison: CustomStringConvertible {
    /// The canonical format string of the comparison.
    public var description: String {
        var out = ""
        CanonicalPrinter.write(self, to: &out)
        return out
    }
}
