import Foundation
import SQLiteDatabase

/// Where a predicate is evaluated: the current object (`SELF`, and the start of plain key
/// paths) and the objects bound to `SUBQUERY` variables.
struct SQLScope {
    var object: SQLObjectScope
    var variables: [String: SQLObjectScope]
    /// Inside a `SUBQUERY`: each variable's element as a value (an attribute of the row, or
    /// the object, nil for an element reached through a to-one); a variable also in
    /// ``variables`` continues its key paths from that object.
    var values: [String: SQLFragment] = [:]
    /// Inside a `SUBQUERY`: `SELF`, the element, as a value (see ``values``).
    var selfValue: SQLFragment? = nil
    /// For a having-predicate: the result columns it may name, as keys or variables (see
    /// ``SQLAggregateCompiler``); `nil` elsewhere.
    var resultColumns: [String: SQLFragment]? = nil
}

/// Translates predicate trees into SQL conditions with the evaluator's semantics.
///
/// Every condition it produces is 0 or 1, never NULL, so `NOT`, `AND` and `OR` combine as the
/// evaluator's two-valued logic does. Comparisons are typed from the model: a comparison whose
/// answer in SQL could differ from the evaluator's throws ``SQLTranslationError``.
final class SQLPredicateTranslator {
    let schema: SQLSchema
    private var aliasCount = 0
    /// For the PostgreSQL dialect: where string comparisons read the values they decide.
    var values: (any SQLValueSource)?
    /// Distinct values already read, by column, for this statement.
    var valueCache: [SQLColumnSource: [String]] = [:]
    /// For the PostgreSQL dialect: what makes a text comparison byte order (see
    /// ``SQLQueryCompiler/byteOrderCollation``); nil: no native string translation.
    var byteOrderCollation: String?
    /// The dialect written.
    var dialect: SQLDialect { schema.dialect }

    init(schema: SQLSchema) {
        self.schema = schema
    }

    /// A fresh table alias (`t1`, `t2`, …); `t0` is the fetched table.
    func newAlias() -> String {
        aliasCount += 1
        return "t\(aliasCount)"
    }

    // MARK: Predicates

    func condition(_ predicate: Predicate, _ scope: SQLScope) throws(SQLTranslationError)
        -> SQLPiece
    {
        switch predicate {
        case .constant(let value):
            return value ? dialect.alwaysTrue : dialect.alwaysFalse
        case .and(let terms):
            var pieces: [SQLPiece] = []
            for term in Self.flattened(terms, conjunction: true) {
                pieces.append(try condition(term, scope))
            }
            return dialect.all(pieces)
        case .or(let terms):
            var pieces: [SQLPiece] = []
            for term in Self.flattened(terms, conjunction: false) {
                pieces.append(try condition(term, scope))
            }
            return dialect.any(pieces)
        case .not(var inner):
            // `NOT NOT x` is `x`: every condition is 0 or 1, never NULL, and the evaluator's
            // logic is two-valued, so only the parity of a run of negations matters (and
            // SQLite's parser stack does not grow with the run).
            var negated = true
            while case .not(let deeper) = inner {
                negated.toggle()
                inner = deeper
            }
            let piece = try condition(inner, scope)
            return negated ? SQLPiece.not(piece) : piece
        case .comparison(let comparison):
            return try condition(comparison, scope)
        }
    }

    /// The terms of nested `AND`s (`conjunction`) or `OR`s in one list, in order:
    /// `a AND (b AND (c AND d))` is `a AND b AND c AND d`, which ``SQLPiece/all(_:)`` nests
    /// as a shallow balanced tree instead of one level per term.
    static func flattened(_ terms: [Predicate], conjunction: Bool) -> [Predicate] {
        var result: [Predicate] = []
        var pending = Array(terms.reversed())
        while let term = pending.popLast() {
            switch term {
            case .and(let inner) where conjunction, .or(let inner) where !conjunction:
                pending.append(contentsOf: inner.reversed())
            default:
                result.append(term)
            }
        }
        return result
    }

    private func condition(_ comparison: Comparison, _ scope: SQLScope)
        throws(SQLTranslationError) -> SQLPiece
    {
        var text: String { comparison.description }
        switch comparison.modifier {
        case .direct:
            let left = try operand(comparison.left, scope)
            let right = try operand(comparison.right, scope)
            return try compare(
                left, comparison.operator, right, comparison.options, fragment: text)
        case .any, .all:
            guard case .collection(let source) = try operand(comparison.left, scope) else {
                throw .unsupported(text, reason: "ANY and ALL need a to-many key path on the left")
            }
            let right = try operand(comparison.right, scope)
            let test = try compare(
                .scalar(source.element), comparison.operator, right, comparison.options,
                fragment: text)
            if comparison.modifier == .any { return source.exists(test) }
            return SQLPiece.not(source.exists(SQLPiece.not(test)))
        }
    }

    // MARK: Comparisons

    /// The condition `left op right`, for operands of known kinds.
    func compare(
        _ left: SQLOperand, _ op: ComparisonOperator, _ right: SQLOperand,
        _ options: ComparisonOptions, fragment: String
    ) throws(SQLTranslationError) -> SQLPiece {
        switch op {
        case .contains:
            return try membership(left, right, options, fragment: fragment)
        case .in:
            return try membership(right, left, options, fragment: fragment)
        case .between:
            guard case .scalar(let value) = left, case .list(let bounds) = right,
                bounds.count == 2
            else {
                throw .unsupported(fragment, reason: "BETWEEN needs a value and {low, high}")
            }
            let low = try compare(
                value, .greaterThanOrEqual, bounds[0], options, fragment: fragment)
            let high = try compare(value, .lessThanOrEqual, bounds[1], options, fragment: fragment)
            return SQLPiece.all([low, high])
        default:
            guard case .scalar(let l) = left, case .scalar(let r) = right else {
                throw .unsupported(
                    fragment,
                    reason: "a collection compared with a single value needs ANY, ALL or CONTAINS")
            }
            return try compare(l, op, r, options, fragment: fragment)
        }
    }

    /// Whether `container` holds `element` (`CONTAINS`; `IN` swapped).
    private func membership(
        _ container: SQLOperand, _ element: SQLOperand, _ options: ComparisonOptions,
        fragment: String
    ) throws(SQLTranslationError) -> SQLPiece {
        guard case .scalar(let item) = element else {
            throw .unsupported(fragment, reason: "the element of IN/CONTAINS must be one value")
        }
        switch container {
        case .list(let items):
            if let plain = constantMembership(items, item, options) { return plain }
            var tests: [SQLPiece] = []
            for candidate in items {
                tests.append(try compare(candidate, .equal, item, options, fragment: fragment))
            }
            return dialect.any(tests)
        case .collection(let source):
            let test = try compare(source.element, .equal, item, options, fragment: fragment)
            return source.exists(test)
        case .scalar(let text):
            if text.kind == .null || item.kind == .null { return dialect.alwaysFalse }
            guard text.kind == .string, item.kind == .string else {
                throw .unsupported(
                    fragment, reason: "IN/CONTAINS on a single value needs two strings")
            }
            if dialect == .postgres {
                return try postgresString(
                    text, .contains, item, options, fragment: fragment)
            }
            return stringFunction(.contains, text, item, options)
        }
    }

    /// `x IN {constants}` as `x IN (?, …)`: flat (a long list does not nest ORs), and served
    /// by an index. Constants of another kind equal nothing; a nil constant matches nil.
    private func constantMembership(
        _ items: [SQLFragment], _ element: SQLFragment, _ options: ComparisonOptions
    ) -> SQLPiece? {
        guard element.isSimple, !element.mayBeNaN, element.kind != .null,
            items.allSatisfy({ $0.kind == .null || ($0.piece.sql == "?" && !$0.nullable) })
        else { return nil }
        let same = items.filter { $0.kind == element.kind }
        var tests: [SQLPiece] = []
        if items.contains(where: { $0.kind == .null }) {
            tests.append(dialect.isNullTest(element))
        }
        func member(_ key: SQLPiece, _ values: [SQLFragment], nullable: Bool) -> SQLPiece {
            var terms = [
                "(" + key + " IN (" + SQLPiece.joined(values.map(\.piece), separator: ", ")
                    + "))"
            ]
            if nullable { terms.append("(" + key + " IS NOT NULL)") }
            return SQLPiece.all(terms)
        }
        if dialect == .postgres, element.kind == .number || element.kind == .uuid {
            return nil  // compared one by one, exactly across number types
        }
        switch element.kind {
        case .number, .date, .uuid, .data, .uri:
            if !same.isEmpty {
                tests.append(member(element.piece, same, nullable: element.nullable))
            }
        case .string where dialect == .postgres && byteOrderCollation != nil:
            guard
                let native = postgresNativeMembership(
                    element, same.compactMap(\.constantText), options)
            else { return nil }
            tests.append(native)
        case .string:
            guard element.isColumn,
                options.isDisjoint(with: [.caseInsensitive, .diacriticInsensitive]),
                same.allSatisfy({ SQLFunctions.isCanonicallyPlain($0.constantText ?? "K") })
            else { return nil }
            if !same.isEmpty {
                tests.append(member(element.piece, same, nullable: element.nullable))
            }
        case .object:
            guard let entity = element.entity else { return nil }
            var groups: [Int64: [SQLFragment]] = [:]
            var order: [Int64] = []
            for id in same {
                guard case .integer(let number)? = id.entity?.arguments.first,
                    id.entity?.sql == "?"
                else { return nil }
                if groups[number] == nil { order.append(number) }
                groups[number, default: []].append(id)
            }
            for number in order {
                tests.append(
                    SQLPiece.all([
                        member(element.piece, groups[number] ?? [], nullable: element.nullable),
                        dialect.same(entity, SQLPiece.bound(.integer(number))),
                    ]))
            }
        case .null:
            return nil
        }
        return dialect.any(tests)
    }

    /// The condition `left op right` between two scalars.
    func compare(
        _ left: SQLFragment, _ op: ComparisonOperator, _ right: SQLFragment,
        _ options: ComparisonOptions, fragment: String
    ) throws(SQLTranslationError) -> SQLPiece {
        switch op {
        case .equal:
            return try equality(left, right, options, fragment: fragment)
        case .notEqual:
            return SQLPiece.not(try equality(left, right, options, fragment: fragment))
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            return try ordering(left, op, right, options, fragment: fragment)
        case .beginsWith, .endsWith, .like, .matches:
            if left.kind == .null || right.kind == .null { return dialect.alwaysFalse }
            guard left.kind == .string, right.kind == .string else {
                throw .unsupported(fragment, reason: "\(op.symbol) needs strings")
            }
            if op == .matches {
                try checkRegularExpression(right, options, fragment: fragment)
            }
            if dialect == .postgres {
                return try postgresString(left, op, right, options, fragment: fragment)
            }
            let function: SQLFunctions.StringOperation
            switch op {
            case .beginsWith: function = .beginsWith
            case .endsWith: function = .endsWith
            case .like: function = .like
            default: function = .matches
            }
            let test = stringFunction(function, left, right, options)
            if function == .beginsWith, let range = prefixRange(left, right, options),
                let prefix = right.constantText
            {
                // Past the prefix's bytes, an ASCII character (or the end) starts a new
                // Character, so the prefix matches in Swift's sense too; only a non-ASCII
                // next character (a combining mark, …) needs the Swift check. Within the
                // range, the text is below prefix + U+0080 (bytes C2 80) exactly when the byte
                // after the prefix is below 0xC2: the end, ASCII, or a byte no valid UTF-8
                // starts a character with (which the Swift check reads as U+FFFD, a Character
                // of its own: a match too). A plain comparison, no function call per row.
                let plainNext =
                    "(" + left.piece + " < " + SQLPiece.bound(.text(prefix + "\u{80}")) + ")"
                // A nil text makes the range NULL, not 0 (`NOT` would keep NULL, not 1).
                let known: [SQLPiece] =
                    left.nullable ? ["(" + left.piece + " IS NOT NULL)"] : []
                return SQLPiece.all(known + [range, SQLPiece.any([plainNext, test])])
            }
            return test
        case .in, .contains, .between:
            return try compare(.scalar(left), op, .scalar(right), options, fragment: fragment)
        }
    }

    /// `l op r`, 0 rather than NULL when either side is nil. Columns and arguments compare
    /// plainly (`(l > ? AND l IS NOT NULL)`), so SQLite (and PostgreSQL) can use an index.
    func nullFalse(_ left: SQLFragment, _ symbol: String, _ right: SQLFragment)
        -> SQLPiece
    {
        let comparison = "(" + left.piece + " \(symbol) " + right.piece + ")"
        guard left.isSimple, right.isSimple else { return dialect.falseWhenNull(comparison) }
        var terms = [comparison]
        for side in [left, right] where side.nullable {
            terms.append("(" + side.piece + " IS NOT NULL)")
        }
        return SQLPiece.all(terms)
    }

    /// A column `==` a constant, without `[c]`/`[d]`, as plain SQL when bytes equality is
    /// exactly Swift's canonical equivalence: the constant is ASCII without the three ASCII
    /// characters that other characters decompose to (K ← U+212A, ; ← U+037E, ` ← U+1FEF).
    private func plainTextEquality(
        _ left: SQLFragment, _ right: SQLFragment, _ options: ComparisonOptions
    ) -> SQLPiece? {
        guard options.isDisjoint(with: [.caseInsensitive, .diacriticInsensitive]) else {
            return nil
        }
        for (column, constant) in [(left, right), (right, left)] {
            if column.isColumn, let text = constant.constantText,
                SQLFunctions.isCanonicallyPlain(text)
            {
                return nullFalse(column, "=", constant)
            }
        }
        return nil
    }

    /// For `column BEGINSWITH constant` without options and a plain ASCII prefix: the byte
    /// range of strings starting with it, a necessary condition an index can serve (a string
    /// that begins with the prefix in Swift's sense begins with its bytes).
    private func prefixRange(
        _ text: SQLFragment, _ prefix: SQLFragment, _ options: ComparisonOptions
    ) -> SQLPiece? {
        guard options.isDisjoint(with: [.caseInsensitive, .diacriticInsensitive]),
            text.isColumn, let start = prefix.constantText, !start.isEmpty,
            SQLFunctions.isCanonicallyPlain(start), !start.unicodeScalars.contains("\r")
        else { return nil }
        var range = "(" + text.piece + " >= " + SQLPiece.bound(.text(start)) + ")"
        var scalars = Array(start.unicodeScalars)
        if let last = scalars.last, last.value < 0x7F, let next = Unicode.Scalar(last.value + 1) {
            scalars[scalars.count - 1] = next
            var end = ""
            end.unicodeScalars.append(contentsOf: scalars)
            range = range + " AND (" + text.piece + " < " + SQLPiece.bound(.text(end)) + ")"
        }
        return "(" + range + ")"
    }

    /// `MATCHES` takes a constant, valid pattern: the evaluator reports an invalid one as an
    /// error on the first non-nil subject, which SQL (stopping at a LIMIT) might never reach.
    private func checkRegularExpression(
        _ pattern: SQLFragment, _ options: ComparisonOptions, fragment: String
    ) throws(SQLTranslationError) {
        guard pattern.piece.sql == "?", case .text(let text)? = pattern.piece.arguments.first
        else {
            throw .unsupported(fragment, reason: "MATCHES needs a constant pattern")
        }
        let diacritics = options.intersection(.diacriticInsensitive)
        do {
            _ = try RegexCache.shared.regex(
                StringMatching.fold(text, diacritics),
                caseInsensitive: options.contains(.caseInsensitive))
        } catch {
            throw .unsupported(fragment, reason: "the MATCHES pattern is not a valid expression")
        }
    }

    private func stringFunction(
        _ operation: SQLFunctions.StringOperation, _ text: SQLFragment, _ pattern: SQLFragment,
        _ options: ComparisonOptions
    ) -> SQLPiece {
        SQLPiece("\(SQLFunctions.stringOperation)(") + SQLPiece.bound(.integer(operation.rawValue))
            + ", " + text.piece + ", " + pattern.piece + ", "
            + SQLPiece.bound(.integer(Int64(options.rawValue))) + ")"
    }

    /// Equality as `ValueComparison.scalarEqual`: nil equals only nil, values of different
    /// kinds are unequal, strings fold with the options, objects compare by key and entity.
    private func equality(
        _ left: SQLFragment, _ right: SQLFragment, _ options: ComparisonOptions,
        fragment: String
    ) throws(SQLTranslationError) -> SQLPiece {
        if dialect == .postgres {
            // NaN stays NaN in PostgreSQL (not NULL), so nil tests are exact.
            if left.kind == .null { return dialect.isNullTest(right) }
            if right.kind == .null { return dialect.isNullTest(left) }
            guard left.kind == right.kind else {
                return SQLPiece.all([dialect.isNullTest(left), dialect.isNullTest(right)])
            }
            if left.kind == .number {
                return try postgresNumbers(left, .equal, right, fragment: fragment)
            }
            if left.kind == .string {
                // On a UTF-8 server the NFC text (which an index serves) compares natively.
                if byteOrderCollation == nil, let plain = plainTextEquality(left, right, options) {
                    return plain
                }
                return try postgresString(left, .equal, right, options, fragment: fragment)
            }
        }
        if left.kind == .null { return try right.nullTest(fragment: fragment) }
        if right.kind == .null { return try left.nullTest(fragment: fragment) }
        guard left.kind == right.kind else {
            return SQLPiece.all([
                try left.nullTest(fragment: fragment), try right.nullTest(fragment: fragment),
            ])
        }
        if left.mayBeNaN || right.mayBeNaN {
            // NaN is NULL in SQLite and equals nothing in the evaluator: exact only against
            // a side that is never nil.
            guard !(left.mayBeNaN && right.nullable), !(right.mayBeNaN && left.nullable) else {
                throw .unsupported(fragment, reason: "equality of a possible NaN with a nil")
            }
            return nullFalse(left, "=", right)
        }
        switch left.kind {
        case .string:
            if let plain = plainTextEquality(left, right, options) { return plain }
            return SQLPiece("\(SQLFunctions.stringEqual)(") + left.piece + ", " + right.piece
                + ", " + SQLPiece.bound(.integer(Int64(options.rawValue))) + ")"
        case .object:
            let keys = dialect.same(left.piece, right.piece)
            guard let leftEntity = left.entity, let rightEntity = right.entity else {
                return keys
            }
            let entities = dialect.same(leftEntity, rightEntity)
            return SQLPiece.all([keys, SQLPiece.any([dialect.isNullTest(left), entities])])
        default:
            return dialect.same(left.piece, right.piece)
        }
    }

    /// `<`, `<=`, `>`, `>=`: false when either side is nil; numbers, strings and dates only.
    private func ordering(
        _ left: SQLFragment, _ op: ComparisonOperator, _ right: SQLFragment,
        _ options: ComparisonOptions, fragment: String
    ) throws(SQLTranslationError) -> SQLPiece {
        if left.kind == .null || right.kind == .null { return dialect.alwaysFalse }
        let symbol: String
        switch op {
        case .lessThan: symbol = "<"
        case .lessThanOrEqual: symbol = "<="
        case .greaterThan: symbol = ">"
        default: symbol = ">="
        }
        guard left.kind == right.kind else {
            throw .unsupported(
                fragment, reason: "cannot order a \(left.kind) against a \(right.kind)")
        }
        if dialect == .postgres, left.kind == .number {
            return try postgresNumbers(left, op, right, fragment: fragment)
        }
        if dialect == .postgres, left.kind == .string {
            return try postgresString(left, op, right, options, fragment: fragment)
        }
        switch left.kind {
        case .number, .date:
            return nullFalse(left, symbol, right)
        case .string:
            return SQLPiece("IFNULL(\(SQLFunctions.stringCompare)(") + left.piece + ", "
                + right.piece + ", " + SQLPiece.bound(.integer(Int64(options.rawValue)))
                + ") \(symbol) 0, 0)"
        default:
            throw .unsupported(fragment, reason: "values of kind \(left.kind) have no order")
        }
    }
}
