import Foundation
import SQLiteDatabase

/// The Swift functions and collations that compiled queries call, so that SQL compares strings
/// and does arithmetic exactly as the predicate evaluator and `SortDescriptor` do. Register
/// them once on every connection that runs compiled queries.
///
/// ```swift
/// let db = try Database(path: url.path)
/// try SQLFunctions.register(on: db)
/// ```
///
/// - `og_string_equal(a, b, options)`: `ValueComparison` string equality with `[c]`/`[d]`
///   (1 when both are NULL, 0 when one is).
/// - `og_string_compare(a, b, options)`: -1, 0 or 1 on folded strings, NULL when either is NULL.
/// - `og_string_match(operation, text, pattern, options)`: `BEGINSWITH`, `ENDSWITH`, `LIKE`,
///   `MATCHES` and substring `CONTAINS` through `StringMatching` (0 when either is NULL; an
///   invalid regular expression is an error).
/// - `og_arithmetic(operator, a, b, operator₂, c, …)`: `Arithmetic.apply` left to right,
///   `((a op b) op₂ c) …` (integer overflow and division by zero are errors, as in the
///   evaluator).
/// - `og_function(selector, arguments…)`: the built-in functions of `FunctionEvaluator` that
///   take and give single values (`abs:`, `sqrt:`, `floor:`, `uppercase:`, bitwise, …).
/// - `og_method(selector, text)`: `FUNCTION(text, 'uppercaseString' | 'lowercaseString' |
///   'length')`.
/// - `og_sort_key(text, mode)`: a BLOB that sorts bytewise as `SortDescriptor`'s standard,
///   case-insensitive or localized order (NFC UTF-8 of the folded string).
/// - `og_is_nfc(text)`: 1 when the text is in Unicode NFC (or NULL).
/// - Collations `og_standard`, `og_case_insensitive`, `og_localized`, `og_localized_standard`:
///   `SortDescriptor`'s string orders.
enum SQLFunctions {
    static let stringEqual = "og_string_equal"
    static let stringCompare = "og_string_compare"
    static let stringOperation = "og_string_match"
    static let arithmetic = "og_arithmetic"
    static let function = "og_function"
    static let sortKey = "og_sort_key"
    static let isNFC = "og_is_nfc"
    /// Whether the text `value` has a character outside ASCII (or a NUL): its length in
    /// characters differs from its length in bytes. A blob (read back as text) is measured as
    /// text too. SQLite counts characters in a tight loop, about four times as fast as matching
    /// the GLOB `*[^\x01-\x7F]*` (which steps through the text a character at a time); NULL
    /// stays NULL. (Text that is not valid UTF-8, which neither Core Data nor ObjectGraph
    /// writes, can pass for ASCII.)
    static func hasNonASCII(_ value: SQLPiece) -> SQLPiece {
        "(length(CAST(" + value + " AS TEXT)) != length(CAST(" + value + " AS BLOB)))"
    }

    /// The string orders `og_sort_key` turns into byte-comparable keys.
    enum SortKey: Int64 {
        case standard = 0
        case caseInsensitive = 1
        case localized = 2

        init?(_ comparison: SortDescriptor.Comparison) {
            switch comparison {
            case .standard: self = .standard
            case .caseInsensitive: self = .caseInsensitive
            case .localized: self = .localized
            case .localizedStandard: return nil
            }
        }

        /// The key: UTF-8 of the NFC form of the folded string.
        func key(_ text: String) -> Data {
            let folded: String
            switch self {
            case .standard: folded = text
            case .caseInsensitive: folded = text.lowercased()
            case .localized:
                folded = text.folding(
                    options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            }
            return Data(folded.precomposedStringWithCanonicalMapping.utf8)
        }
    }
    static let method = "og_method"

    /// Whether `text` is in Unicode Normalization Form C. Text whose scalars are all below
    /// U+0300 is (no character there decomposes to something else, combines with a neighbour
    /// or is a combining mark: the first of those is U+0300), which covers ASCII and the
    /// Latin-1 and Latin Extended letters without asking Foundation to normalize.
    static func isNormalizationFormC(_ text: String) -> Bool {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return true }
        if text.unicodeScalars.allSatisfy({ $0.value < 0x300 }) { return true }
        return text.utf8.elementsEqual(text.precomposedStringWithCanonicalMapping.utf8)
    }
    static let standardCollation = "og_standard"
    static let caseInsensitiveCollation = "og_case_insensitive"
    static let localizedCollation = "og_localized"
    static let localizedStandardCollation = "og_localized_standard"

    /// The string operators `og_string_match` implements, by their bound code.
    enum StringOperation: Int64 {
        case beginsWith = 1
        case endsWith = 2
        case like = 3
        case matches = 4
        case contains = 5
    }

    /// What a built-in function takes and gives, for typing its call.
    struct Signature {
        var arguments: [SQLValueKind]
        var result: SQLValueKind
        /// The result is always an integer.
        var integerResult = false
        /// The result is an integer when every argument is.
        var keepsIntegers = false
        /// The result may be NaN (`sqrt:` of a negative number, …).
        var mayBeNaN = false
    }

    /// The functions `og_function` runs, by selector.
    static let signatures: [String: Signature] = {
        var table: [String: Signature] = [:]
        for name in ["sqrt:", "log:", "ln:", "exp:"] {
            table[name] = Signature(arguments: [.number], result: .number, mayBeNaN: true)
        }
        for name in ["floor:", "ceiling:", "trunc:"] {
            table[name] = Signature(arguments: [.number], result: .number)
        }
        table["abs:"] = Signature(arguments: [.number], result: .number, keepsIntegers: true)
        for name in ["uppercase:", "lowercase:"] {
            table[name] = Signature(arguments: [.string], result: .string)
        }
        for name in [
            "modulus:by:", "bitwiseAnd:with:", "bitwiseOr:with:", "bitwiseXor:with:",
            "leftshift:by:", "rightshift:by:",
        ] {
            table[name] = Signature(
                arguments: [.number, .number], result: .number, integerResult: true)
        }
        table["onesComplement:"] = Signature(
            arguments: [.number], result: .number, integerResult: true)
        return table
    }()

    /// The functions that are arithmetic operators.
    static let arithmeticSelectors: [String: ArithmeticOperator] = [
        "add:to:": .add, "from:subtract:": .subtract, "multiply:by:": .multiply,
        "divide:by:": .divide, "raise:toPower:": .power,
    ]

    /// The `FUNCTION` string methods `og_method` runs, with their result kinds.
    static let methodResults: [String: SQLValueKind] = [
        "uppercaseString": .string, "lowercaseString": .string, "length": .number,
    ]

    /// Whether `text` is ASCII without `K`, `;` and `` ` ``: then a string is canonically
    /// equivalent to it (Swift's `==`) exactly when its bytes are equal, since only U+212A,
    /// U+037E and U+1FEF decompose to ASCII characters.
    static func isCanonicallyPlain(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            scalar.value < 0x80 && scalar != "K" && scalar != ";" && scalar != "`"
        }
    }

    /// The bound code of an arithmetic operator.
    static func arithmeticCode(_ op: ArithmeticOperator) -> Int64 {
        switch op {
        case .add: return 1
        case .subtract: return 2
        case .multiply: return 3
        case .divide: return 4
        case .power: return 5
        }
    }

    private static let operators: [Int64: ArithmeticOperator] = Dictionary(
        uniqueKeysWithValues: ArithmeticOperator.allCases.map { (arithmeticCode($0), $0) })

    /// The collation of a sort descriptor's string comparison.
    static func collation(for comparison: SortDescriptor.Comparison) -> String {
        switch comparison {
        case .standard: return standardCollation
        case .caseInsensitive: return caseInsensitiveCollation
        case .localized: return localizedCollation
        case .localizedStandard: return localizedStandardCollation
        }
    }

    /// Registers every function and collation on `db`.
    static func register(on db: Database) throws {
        try db.createFunction(name: stringEqual, argumentCount: 3, deterministic: true) { args in
            let a = text(args[0])
            let b = text(args[1])
            guard let a, let b else { return .integer(a == nil && b == nil ? 1 : 0) }
            let options = ComparisonOptions(rawValue: Int(integer(args[2])))
            return .integer(
                StringMatching.fold(a, options) == StringMatching.fold(b, options) ? 1 : 0)
        }
        try db.createFunction(name: stringCompare, argumentCount: 3, deterministic: true) { args in
            guard let a = text(args[0]), let b = text(args[1]) else { return .null }
            let options = ComparisonOptions(rawValue: Int(integer(args[2])))
            let x = StringMatching.fold(a, options)
            let y = StringMatching.fold(b, options)
            return .integer(x == y ? 0 : x < y ? -1 : 1)
        }
        try db.createFunction(name: stringOperation, argumentCount: 4, deterministic: true) {
            args in
            guard let operation = StringOperation(rawValue: integer(args[0])),
                let subject = text(args[1]), let pattern = text(args[2])
            else { return .integer(0) }
            let options = ComparisonOptions(rawValue: Int(integer(args[3])))
            let result: Bool
            switch operation {
            case .beginsWith:
                result = try StringMatching.match(subject, .beginsWith, pattern, options: options)
            case .endsWith:
                result = try StringMatching.match(subject, .endsWith, pattern, options: options)
            case .like:
                result = try StringMatching.match(subject, .like, pattern, options: options)
            case .matches:
                result = try StringMatching.match(subject, .matches, pattern, options: options)
            case .contains:
                result = StringMatching.contains(subject, pattern, options: options)
            }
            return .integer(result ? 1 : 0)
        }
        try db.createFunction(name: arithmetic, deterministic: true) { args in
            // (op₁, a, b, op₂, c, op₃, d, …): ((a op₁ b) op₂ c) op₃ d …, left to right.
            guard args.count >= 3, args.count % 2 == 1 else {
                throw PredicateEvaluationError.unsupported(
                    "og_arithmetic needs an operator, two operands, then operator-operand pairs")
            }
            var result = EvaluationValue.value(try number(args[1]))
            var next = 0
            while next < args.count {
                guard let op = operators[integer(args[next])] else {
                    throw PredicateEvaluationError.unsupported("an unknown arithmetic operator")
                }
                let operand = next == 0 ? 2 : next + 1
                result = try Arithmetic.apply(op, result, .value(number(args[operand])))
                next = operand + 1
            }
            return try databaseValue(result)
        }
        try db.createFunction(name: sortKey, argumentCount: 2, deterministic: true) { args in
            guard let value = text(args[0]), let mode = SortKey(rawValue: integer(args[1])) else {
                return .null
            }
            return .blob(mode.key(value))
        }
        try db.createFunction(name: isNFC, argumentCount: 1, deterministic: true) { args in
            guard let value = text(args[0]) else { return .integer(1) }
            return .integer(isNormalizationFormC(value) ? 1 : 0)
        }
        try db.createFunction(name: function, deterministic: true) { args in
            guard case .text(let selector)? = args.first, signatures[selector] != nil else {
                throw PredicateEvaluationError.unsupported("og_function without a known selector")
            }
            var values: [EvaluationValue] = []
            for argument in args.dropFirst() { values.append(.value(try value(argument))) }
            return try databaseValue(FunctionEvaluator.call(selector, values))
        }
        try db.createFunction(name: method, argumentCount: 2, deterministic: true) { args in
            guard case .text(let selector) = args[0], methodResults[selector] != nil else {
                throw PredicateEvaluationError.unsupported("og_method without a known selector")
            }
            return try databaseValue(
                FunctionEvaluator.method(selector, on: .value(value(args[1])), []))
        }
        try db.createCollation(name: standardCollation) { three($0, $1) }
        try db.createCollation(name: caseInsensitiveCollation) {
            three($0.lowercased(), $1.lowercased())
        }
        try db.createCollation(name: localizedCollation) {
            let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]
            return three(
                $0.folding(options: options, locale: nil), $1.folding(options: options, locale: nil)
            )
        }
        try db.createCollation(name: localizedStandardCollation) {
            NaturalOrder.compare($0.lowercased(), $1.lowercased())
        }
    }

    private static func three(_ x: String, _ y: String) -> ComparisonResult {
        x < y ? .orderedAscending : x == y ? .orderedSame : .orderedDescending
    }

    /// A string argument as the store reads a string column (numbers as their text).
    private static func text(_ value: DatabaseValue) -> String? {
        switch value {
        case .text(let text): return text
        case .integer(let n): return String(n)
        case .real(let d): return String(d)
        case .blob(let bytes): return String(data: bytes, encoding: .utf8)
        case .null: return nil
        }
    }

    private static func integer(_ value: DatabaseValue) -> Int64 {
        switch value {
        case .integer(let n): return n
        case .real(let d): return Int64(exactly: d.rounded(.towardZero)) ?? 0
        default: return 0
        }
    }

    /// A function argument as a predicate value.
    private static func value(_ value: DatabaseValue) throws -> Value {
        if case .text(let text) = value { return .string(text) }
        return try number(value)
    }

    /// A function result as an SQLite value (NaN is NULL, as SQLite stores it anyway).
    private static func databaseValue(_ result: EvaluationValue) throws -> DatabaseValue {
        switch result {
        case .value(.null): return .null
        case .value(.integer(let n)): return .integer(n)
        case .value(.double(let d)): return d.isNaN ? .null : .real(d)
        case .value(.bool(let b)): return .integer(b ? 1 : 0)
        case .value(.decimal(let d)): return .real(NSDecimalNumber(decimal: d).doubleValue)
        case .value(.string(let text)): return .text(text)
        default:
            throw PredicateEvaluationError.typeMismatch("a function gave \(result)")
        }
    }

    private static func number(_ value: DatabaseValue) throws -> Value {
        switch value {
        case .null: return .null
        case .integer(let n): return .integer(n)
        case .real(let d): return .double(d)
        case .text, .blob:
            throw PredicateEvaluationError.typeMismatch("arithmetic needs numbers, not \(value)")
        }
    }
}
