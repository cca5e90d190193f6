/// One line of the architecture table: which layers it applies to, which layers they must not
/// reach, and why.
///
/// A layer is the first folder under `Sources/ObjectGraph`. A rule of kind `names` forbids a
/// layer's files to name any top-level type declared in a forbidden layer; a rule of kind
/// `casts` forbids `as?`, `as!`, `is` (and `let x as T` patterns) to such a type, optionally only
/// to types whose name ends with a suffix.
struct BoundaryRule: Sendable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        /// The layers must not name the forbidden layers' types at all.
        case names
        /// The layers must not cast to the forbidden layers' types whose name ends with `suffix`
        /// (any name when `suffix` is empty).
        case casts(suffix: String)
        /// The layers must not spell these identifiers at all, as a type or as a member (the
        /// store-facing parts of a type the layers may otherwise use).
        case identifiers(Set<String>)
    }

    /// The rule's name, as the test reports it.
    var name: String
    /// The layers whose files the rule checks.
    var layers: [String]
    /// What the rule forbids.
    var kind: Kind
    /// The layers whose types the checked files must not name (or cast to).
    var forbidden: [String]
    /// Why, for whoever breaks the rule.
    var why: String

    /// A rule forbidding `layers` to name the types of `forbidden`.
    static func names(
        _ name: String, _ layers: [String], mustNotName forbidden: [String], _ why: String
    ) -> BoundaryRule {
        BoundaryRule(name: name, layers: layers, kind: .names, forbidden: forbidden, why: why)
    }

    /// A rule forbidding `layers` to cast to the types of `forbidden` ending with `suffix`.
    static func casts(
        _ name: String, _ layers: [String], mustNotCastTo forbidden: [String],
        endingWith suffix: String = "", _ why: String
    ) -> BoundaryRule {
        BoundaryRule(
            name: name, layers: layers, kind: .casts(suffix: suffix), forbidden: forbidden,
            why: why)
    }

    /// A rule forbidding `layers` to spell any of `identifiers`, as a type or a member.
    static func identifiers(
        _ name: String, _ layers: [String], mustNotSpell identifiers: Set<String>,
        _ why: String
    ) -> BoundaryRule {
        BoundaryRule(
            name: name, layers: layers, kind: .identifiers(identifiers), forbidden: [], why: why)
    }

    var description: String { name }
}

/// A place where a layer crosses a boundary.
struct BoundaryViolation: Sendable, Hashable, CustomStringConvertible {
    /// The offending file, relative to the scanned root (`Stores/SQLite/SQLiteStore.swift`).
    var path: String
    /// The 1-based line and column of the offending name.
    var line: Int
    var column: Int
    /// The layer of the offending file.
    var layer: String
    /// The type named.
    var name: String
    /// The file declaring it, relative to the scanned root.
    var declaredIn: String
    /// The rule broken.
    var rule: String
    /// Whether the name was named (`false`) or cast to (`true`).
    var isCast: Bool
    /// The rule's explanation.
    var why: String

    var description: String { message(root: "") }

    /// `root+path:line: Layer names Type (declared in …) — why`.
    func message(root: String) -> String {
        let verb = isCast ? "casts to" : "names"
        let place = "\(root)\(path):\(line)"
        return "\(place): \(layer) \(verb) \(name) (declared in \(declaredIn)) — \(why)"
    }
}

/// A small lexical scanner for Swift source: enough to find type declarations and the names a
/// file uses, with comments and string literals stripped and line numbers kept.
///
/// It is not a parser. It knows file scope from brace depth, declarations from their keywords,
/// members from a preceding `.`, and casts from `as?`, `as!`, `is` and `let x as`.
enum SwiftSourceScanner {
    /// A token: an identifier (or keyword), a number, or one punctuation character (`->` is one).
    struct Token: Sendable, Equatable {
        enum Kind: Sendable, Equatable { case identifier, number, punctuation }
        var kind: Kind
        var text: String
        var line: Int
        var column: Int
        /// Written in backticks: an identifier even when it spells a keyword.
        var isEscaped = false

        var isIdentifier: Bool { kind == .identifier }
        /// A declaration modifier: `public`, `private`, `final`, `nonisolated`, ….
        var isModifier: Bool {
            kind == .identifier && !isEscaped && declarationModifiers.contains(text)
        }
        /// An identifier that is not a keyword.
        var isName: Bool { kind == .identifier && (isEscaped || !keywords.contains(text)) }
    }

    /// A type declared in a file.
    struct Declaration: Sendable, Equatable {
        var name: String
        var line: Int
        /// `private` or `fileprivate` at file scope: visible to its own file only.
        var isFileLocal: Bool
    }

    /// What a file declares.
    struct FileDeclarations: Sendable, Equatable {
        /// Types declared at file scope.
        var topLevel: [Declaration] = []
        /// Names the file declares elsewhere: nested types, generic parameters, associated
        /// types. In this file they may shadow a top-level type of the same name.
        var local: Set<String> = []
    }

    /// A file's tokens, comments and string literals left out (interpolations kept).
    static func tokens(_ text: String) -> [Token] {
        var lexer = Lexer(bytes: Array(text.utf8))
        lexer.lexCode(insideInterpolation: false)
        return lexer.tokens
    }

    /// The types a file declares.
    static func declarations(_ tokens: [Token]) -> FileDeclarations {
        var result = FileDeclarations()
        var depth = 0
        var modifiers: Set<String> = []
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            let next = index + 1 < tokens.count ? tokens[index + 1] : nil
            defer { index += 1 }
            switch token.kind {
            case .punctuation where token.text == "{":
                depth += 1
                modifiers = []
            case .punctuation where token.text == "}":
                depth = max(0, depth - 1)
                modifiers = []
            case .punctuation where token.text == "@" && depth == 0:
                // An attribute: `@frozen`, `@available(…)`; skip its name and arguments.
                index += 1
                if index + 1 < tokens.count, tokens[index + 1].text == "(" {
                    index = closingParenthesis(tokens, from: index + 1)
                }
            case .identifier where !token.isEscaped && typeKeywords.contains(token.text):
                guard let next, next.isName else {
                    modifiers = []
                    break
                }
                if index > 0, tokens[index - 1].isIdentifier, tokens[index - 1].text == "import" {
                    break  // `import struct Module.Type`
                }
                if depth == 0 {
                    let isFileLocal =
                        modifiers.contains("private") || modifiers.contains("fileprivate")
                    result.topLevel.append(
                        Declaration(name: next.text, line: next.line, isFileLocal: isFileLocal))
                } else {
                    result.local.insert(next.text)
                }
                modifiers = []
                result.local.formUnion(genericParameters(tokens, after: index + 1))
            case .identifier where !token.isEscaped && token.text == "associatedtype":
                if let next, next.isName { result.local.insert(next.text) }
            case .identifier
            where !token.isEscaped && ["func", "init", "subscript"].contains(token.text):
                // `func name<T>`, `init<T>`, `subscript<T>`; not `func < (…)`, an operator.
                if token.text != "func" || next?.isName == true {
                    let nameEnd = token.text == "func" ? index + 1 : index
                    result.local.formUnion(genericParameters(tokens, after: nameEnd))
                }
                modifiers = []
            case .identifier where depth == 0 && token.isModifier:
                modifiers.insert(token.text)
                if let next, next.text == "(" {
                    index = closingParenthesis(tokens, from: index + 1)  // `private(set)`
                }
            default:
                modifiers = []
            }
        }
        return result
    }

    /// The identifiers of a file that name a type: not keywords, not members after a `.` (except
    /// after the module name), not compiler directives after `#`.
    static func typeNameUses(_ tokens: [Token], module: String) -> [Token] {
        var result: [Token] = []
        for (index, token) in tokens.enumerated() where token.isName {
            if index > 0 {
                let previous = tokens[index - 1]
                if previous.text == "#" { continue }
                if previous.text == "." {
                    let qualifier = index > 1 ? tokens[index - 2] : nil
                    guard let qualifier, qualifier.isIdentifier, qualifier.text == module else {
                        continue
                    }
                }
            }
            result.append(token)
        }
        return result
    }

    /// The type names a file casts to: the head names of the type after `as?`, `as!`, `is`, and
    /// after `as` in a binding pattern (`case let x as T`, `catch let e as T`).
    static func castTargets(_ tokens: [Token], module: String) -> [Token] {
        var result: [Token] = []
        for (index, token) in tokens.enumerated()
        where token.isIdentifier && !token.isEscaped && (token.text == "as" || token.text == "is") {
            var start = index + 1
            if token.text == "as" {
                if start < tokens.count, tokens[start].text == "?" || tokens[start].text == "!" {
                    start += 1
                } else if index >= 2, tokens[index - 1].isName, tokens[index - 2].isIdentifier,
                    ["let", "var"].contains(tokens[index - 2].text)
                {
                    // A pattern: `let x as T` casts.
                } else {
                    continue  // An upcast or a coercion.
                }
            }
            var parser = TypeParser(tokens: tokens, index: start, module: module)
            parser.parseType()
            result += parser.names
        }
        return result
    }

    // MARK: - Lexing

    private struct Lexer {
        let bytes: [UInt8]
        var index = 0
        var line = 1
        var lineStart = 0
        var tokens: [Token] = []

        init(bytes: [UInt8]) { self.bytes = bytes }

        func byte(_ offset: Int = 0) -> UInt8? {
            index + offset < bytes.count ? bytes[index + offset] : nil
        }

        mutating func newline() {
            line += 1
            lineStart = index + 1
        }

        /// Lexes code up to the end, or, inside an interpolation, up to its closing parenthesis.
        mutating func lexCode(insideInterpolation: Bool) {
            var parentheses = 0
            while let c = byte() {
                switch c {
                case ascii("\n"):
                    newline()
                    index += 1
                case ascii(" "), ascii("\t"), ascii("\r"):
                    index += 1
                case ascii("/") where byte(1) == ascii("/"):
                    while let d = byte(), d != ascii("\n") { index += 1 }
                case ascii("/") where byte(1) == ascii("*"):
                    skipBlockComment()
                case ascii("\""):
                    skipString(hashes: 0)
                case ascii("#") where rawStringHashes() != nil:
                    let hashes = rawStringHashes()!
                    index += hashes
                    skipString(hashes: hashes)
                case ascii("`"):
                    let start = index + 1
                    index += 1
                    while let d = byte(), d != ascii("`"), d != ascii("\n") { index += 1 }
                    emit(.identifier, from: start, to: index, escaped: true, column: start - 1)
                    if byte() == ascii("`") { index += 1 }
                case _ where isIdentifierHead(c):
                    let start = index
                    while let d = byte(), isIdentifierHead(d) || isDigit(d) { index += 1 }
                    emit(.identifier, from: start, to: index)
                case _ where isDigit(c):
                    let start = index
                    while let d = byte(),
                        isIdentifierHead(d) || isDigit(d)
                            || (d == ascii(".") && byte(1).map(isDigit) == true)
                    {
                        index += 1
                    }
                    emit(.number, from: start, to: index)
                case ascii("-") where byte(1) == ascii(">"):
                    index += 2
                    emit(.punctuation, from: index - 2, to: index)
                default:
                    if insideInterpolation {
                        if c == ascii("(") { parentheses += 1 }
                        if c == ascii(")") {
                            if parentheses == 0 {
                                index += 1
                                return
                            }
                            parentheses -= 1
                        }
                    }
                    index += 1
                    emit(.punctuation, from: index - 1, to: index)
                }
            }
        }

        mutating func emit(
            _ kind: Token.Kind, from start: Int, to end: Int, escaped: Bool = false,
            column: Int? = nil
        ) {
            let text = String(decoding: bytes[start..<end], as: UTF8.self)
            tokens.append(
                Token(
                    kind: kind, text: text, line: line,
                    column: (column ?? start) - lineStart + 1, isEscaped: escaped))
        }

        /// `/* … */`, nested.
        mutating func skipBlockComment() {
            var depth = 0
            while let c = byte() {
                if c == ascii("/"), byte(1) == ascii("*") {
                    depth += 1
                    index += 2
                } else if c == ascii("*"), byte(1) == ascii("/") {
                    depth -= 1
                    index += 2
                    if depth == 0 { return }
                } else {
                    if c == ascii("\n") { newline() }
                    index += 1
                }
            }
        }

        /// The number of `#` before a `"` at the current position, if a raw string starts here.
        func rawStringHashes() -> Int? {
            var count = 0
            while byte(count) == ascii("#") { count += 1 }
            return byte(count) == ascii("\"") ? count : nil
        }

        /// Skips a string literal starting at its first `"`: single or multi-line, raw with
        /// `hashes` number signs, interpolations lexed as code.
        mutating func skipString(hashes: Int) {
            let isMultiline = byte(1) == ascii("\"") && byte(2) == ascii("\"")
            let quotes = isMultiline ? 3 : 1
            index += quotes
            while let c = byte() {
                if c == ascii("\\"), (0..<hashes).allSatisfy({ byte(1 + $0) == ascii("#") }) {
                    index += 1 + hashes
                    guard let escaped = byte() else { return }
                    if escaped == ascii("(") {
                        index += 1
                        lexCode(insideInterpolation: true)
                    } else {
                        if escaped == ascii("\n") { newline() }
                        index += 1
                    }
                } else if c == ascii("\""),
                    (0..<quotes).allSatisfy({ byte($0) == ascii("\"") }),
                    (0..<hashes).allSatisfy({ byte(quotes + $0) == ascii("#") })
                {
                    index += quotes + hashes
                    return
                } else if c == ascii("\n") {
                    if !isMultiline { return }  // An unterminated literal ends at its line.
                    newline()
                    index += 1
                } else {
                    index += 1
                }
            }
        }
    }

    // MARK: - Types after a cast

    /// Reads a type (`T`, `any P`, `M.T`, `T<U>`, `[T]`, `[K: V]`, `(T, U)`, `P & Q`, `T?`) and
    /// collects the names that head each of its parts.
    private struct TypeParser {
        let tokens: [Token]
        var index: Int
        let module: String
        var names: [Token] = []

        func peek(_ text: String) -> Bool {
            index < tokens.count && tokens[index].text == text
        }

        mutating func parseType() {
            while index < tokens.count, tokens[index].isIdentifier,
                ["any", "some"].contains(tokens[index].text)
            {
                index += 1
            }
            guard index < tokens.count else { return }
            let token = tokens[index]
            if token.text == "(" || token.text == "[" {
                let closing = token.text == "(" ? ")" : "]"
                index += 1
                while index < tokens.count, !peek(closing) {
                    let before = index
                    parseType()
                    if peek(",") || peek(":") { index += 1 }
                    if index == before { index += 1 }  // Not a type: move on.
                }
                index += 1
            } else if token.isName {
                index += 1
                if token.text == module, peek("."), index + 1 < tokens.count {
                    index += 1
                    names.append(tokens[index])
                    index += 1
                } else {
                    names.append(token)
                }
                while peek("."), index + 1 < tokens.count, tokens[index + 1].isIdentifier {
                    index += 2  // A nested type or `.Type`: not a head.
                }
                if peek("<") {
                    index += 1
                    while index < tokens.count, !peek(">") {
                        let before = index
                        parseType()
                        if peek(",") { index += 1 }
                        if index == before { index += 1 }
                    }
                    index += 1
                }
            } else {
                return
            }
            while peek("?") || peek("!") { index += 1 }
            if peek("&") {
                index += 1
                parseType()
            }
        }
    }

    // MARK: - Helpers

    private static func genericParameters(_ tokens: [Token], after nameIndex: Int) -> [String] {
        var index = nameIndex + 1
        guard index < tokens.count, tokens[index].text == "<" else { return [] }
        var result: [String] = []
        var depth = 0
        while index < tokens.count {
            let token = tokens[index]
            if token.text == "<" {
                depth += 1
            } else if token.text == ">" {
                depth -= 1
                if depth == 0 { break }
            } else if depth == 1, token.isName, ["<", ","].contains(tokens[index - 1].text) {
                result.append(token.text)
            }
            index += 1
        }
        return result
    }

    private static func closingParenthesis(_ tokens: [Token], from open: Int) -> Int {
        var depth = 0
        var index = open
        while index < tokens.count {
            if tokens[index].text == "(" { depth += 1 }
            if tokens[index].text == ")" {
                depth -= 1
                if depth == 0 { return index }
            }
            index += 1
        }
        return index
    }

    private static let typeKeywords: Set<String> = [
        "struct", "class", "enum", "protocol", "actor", "typealias",
    ]

    static let declarationModifiers: Set<String> = [
        "public", "open", "internal", "package", "private", "fileprivate", "final", "indirect",
        "nonisolated", "isolated", "dynamic", "override", "required", "convenience", "static",
        "nonmutating", "mutating", "lazy", "weak", "unowned", "optional", "distributed",
    ]

    /// Swift's keywords, and the capitalized names every file may use.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import",
        "init", "inout", "internal", "let", "open", "operator", "private", "precedencegroup",
        "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough",
        "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "as",
        "await", "false", "is", "nil", "self", "super", "throws", "true", "try", "Any", "Self",
        "Type", "Protocol", "some", "any", "package",
    ]
}

private func ascii(_ character: Unicode.Scalar) -> UInt8 { UInt8(character.value) }

private func isIdentifierHead(_ byte: UInt8) -> Bool {
    (byte >= ascii("a") && byte <= ascii("z")) || (byte >= ascii("A") && byte <= ascii("Z"))
        || byte == ascii("_") || byte == ascii("$") || byte >= 0x80
}

private func isDigit(_ byte: UInt8) -> Bool { byte >= ascii("0") && byte <= ascii("9") }

/// Checks source files against boundary rules: a pure function of the files' text.
enum BoundaryChecker {
    /// The layer of a path relative to the scanned root: its first folder, `nil` for a file
    /// directly in the root.
    static func layer(of path: String) -> String? {
        let parts = path.split(separator: "/")
        return parts.count > 1 ? String(parts[0]) : nil
    }

    /// Every place where `files` (paths relative to the module's source folder) break `rules`,
    /// in rule order, then by path and line.
    static func violations(
        in files: [(path: String, text: String)], rules: [BoundaryRule],
        module: String = "ObjectGraph"
    ) -> [BoundaryViolation] {
        typealias Scanned = (
            path: String, layer: String?, tokens: [SwiftSourceScanner.Token],
            declarations: SwiftSourceScanner.FileDeclarations
        )
        let scanned: [Scanned] = files.map { file in
            let tokens = SwiftSourceScanner.tokens(file.text)
            return (
                file.path, layer(of: file.path), tokens, SwiftSourceScanner.declarations(tokens)
            )
        }

        // Every type visible across files, with the layers and files declaring it.
        var declared: [String: [(layer: String?, path: String)]] = [:]
        for file in scanned {
            for declaration in file.declarations.topLevel where !declaration.isFileLocal {
                declared[declaration.name, default: []].append((file.layer, file.path))
            }
        }

        var result: [BoundaryViolation] = []
        var seen: Set<[String]> = []
        for file in scanned {
            guard let layer = file.layer else { continue }
            let applicable = rules.filter { $0.layers.contains(layer) }
            guard !applicable.isEmpty else { continue }
            // Names this file declares for itself shadow the other layers' types.
            let shadowing = file.declarations.local.union(
                file.declarations.topLevel.filter(\.isFileLocal).map(\.name))

            // A name also declared in an allowed layer (or in no layer) is not a violation: for
            // naming, a layer's allowed layers are those no naming rule applying to it forbids.
            let forbiddenNames = Set(
                applicable.filter { $0.kind == .names }.flatMap(\.forbidden))

            func record(
                _ token: SwiftSourceScanner.Token, _ rule: BoundaryRule, bounds: Set<String>,
                isCast: Bool
            ) {
                let declarations = declared[token.text] ?? []
                guard
                    declarations.allSatisfy({ $0.layer.map(bounds.contains) ?? false }),
                    let hit = declarations.first(where: {
                        $0.layer.map(rule.forbidden.contains) ?? false
                    }),
                    seen.insert([file.path, "\(token.line)", token.text, rule.name]).inserted
                else { return }
                result.append(
                    BoundaryViolation(
                        path: file.path, line: token.line, column: token.column, layer: layer,
                        name: token.text, declaredIn: hit.path, rule: rule.name, isCast: isCast,
                        why: rule.why))
            }

            let uses = SwiftSourceScanner.typeNameUses(file.tokens, module: module)
            let casts = SwiftSourceScanner.castTargets(file.tokens, module: module)
            for rule in applicable {
                switch rule.kind {
                case .names:
                    for use in uses where !shadowing.contains(use.text) {
                        record(use, rule, bounds: forbiddenNames, isCast: false)
                    }
                case .casts(let suffix):
                    for cast in casts
                    where !shadowing.contains(cast.text) && cast.text.hasSuffix(suffix) {
                        record(cast, rule, bounds: Set(rule.forbidden), isCast: true)
                    }
                case .identifiers(let identifiers):
                    for token in file.tokens
                    where token.kind == .identifier && identifiers.contains(token.text)
                        && seen.insert([file.path, "\(token.line)", token.text, rule.name])
                            .inserted
                    {
                        result.append(
                            BoundaryViolation(
                                path: file.path, line: token.line, column: token.column,
                                layer: layer, name: token.text,
                                declaredIn: "the rule's list of names", rule: rule.name,
                                isCast: false, why: rule.why))
                    }
                }
            }
        }
        let order = Dictionary(
            rules.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { a, _ in a }
        )
        return result.sorted {
            (order[$0.rule]!, $0.path, $0.line, $0.column)
                < (order[$1.rule]!, $1.path, $1.line, $1.column)
        }
    }
}
