import SQLiteDatabase

/// Where a predicate is evaluated: the current object (`SELF`, and the start of plain key
/// paths) and the objects bound to `SUBQUERY` variables.
struct SQLScope {
    var object: SQLObjectScope
    var variables: [String: SQLObjectScope]
}

/// Translates predicate trees into SQL conditions with the evaluator's semantics.
///
/// Every condition it produces is 0 or 1, never NULL, so `NOT`, `AND` and `OR` combine as the
/// evaluator's two-valued logic does. Comparisons are typed from the model: a comparison whose
/// answer in SQL could differ from the evaluator's throws ``SQLTranslationError``.
final class SQLPredicateTranslator {
    let schema: SQLSchema
    private var aliasCount = 0

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
            return SQLPiece(value ? "1" : "0")
        case .and(let terms):
            var pieces: [SQLPiece] = []
            for term in terms { pieces.append(try condition(term, scope)) }
            return SQLPiece.all(pieces)
        case .or(let terms):
            var pieces: [SQLPiece] = []
            for term in terms { pieces.append(try condition(term, scope)) }
            return SQLPiece.any(pieces)
        case .not(let inner):
            return SQLPiece.not(try condition(inner, scope))
        case .comparison(let comparison):
            return try condition(comparison, scope)
        }
    }

    private func condition(_ comparison: Comparison, _ scope: SQLScope)
        throws(SQLTranslationError) -> SQLPiece
    {
        let text = comparison.description
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
            var tests: [SQLPiece] = []
            for candidate in items {
                tests.append(try compare(candidate, .equal, item, options, fragment: fragment))
            }
            return SQLPiece.any(tests)
        case .collection(let source):
            let test = try compare(source.element, .equal, item, options, fragment: fragment)
            return source.exists(test)
        case .scalar(let text):
            if text.kind == .null || item.kind == .null { return SQLPiece("0") }
            guard text.kind == .string, item.kind == .string else {
                throw .unsupported(
                    fragment, reason: "IN/CONTAINS on a single value needs two strings")
            }
            return stringFunction(.contains, text, item, options)
        }
    }

    /// The condition `left op right` between two scalars.
    func compare(
        _ left: SQLFragment, _ op: ComparisonOperator, _ right: SQLFragment,
        _ options: ComparisonOptions, fragment: String
    ) throws(SQLTranslationError) -> SQLPiece {
        switch op {
        case .equal:
            return try equality(left, right, options)
        case .notEqual:
            return SQLPiece.not(try equality(left, right, options))
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            return try ordering(left, op, right, options, fragment: fragment)
        case .beginsWith, .endsWith, .like, .matches:
            if left.kind == .null || right.kind == .null { return SQLPiece("0") }
            guard left.kind == .string, right.kind == .string else {
                throw .unsupported(fragment, reason: "\(op.symbol) needs strings")
            }
            if op == .matches {
                try checkRegularExpression(right, options, fragment: fragment)
            }
            let function: SQLFunctions.StringOperation
            switch op {
            case .beginsWith: function = .beginsWith
            case .endsWith: function = .endsWith
            case .like: function = .like
            default: function = .matches
            }
            return stringFunction(function, left, right, options)
        case .in, .contains, .between:
            return try compare(.scalar(left), op, .scalar(right), options, fragment: fragment)
        }
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
        _ left: SQLFragment, _ right: SQLFragment, _ options: ComparisonOptions
    ) throws(SQLTranslationError) -> SQLPiece {
        if left.kind == .null { return right.isNullTest }
        if right.kind == .null { return left.isNullTest }
        guard left.kind == right.kind else {
            return SQLPiece.all([left.isNullTest, right.isNullTest])
        }
        switch left.kind {
        case .string:
            return SQLPiece("\(SQLFunctions.stringEqual)(") + left.piece + ", " + right.piece
                + ", " + SQLPiece.bound(.integer(Int64(options.rawValue))) + ")"
        case .object:
            let keys = "(" + left.piece + " IS " + right.piece + ")"
            guard let leftEntity = left.entity, let rightEntity = right.entity else {
                return keys
            }
            let entities = "(" + leftEntity + " IS " + rightEntity + ")"
            return SQLPiece.all([keys, SQLPiece.any([left.isNullTest, entities])])
        default:
            return "(" + left.piece + " IS " + right.piece + ")"
        }
    }

    /// `<`, `<=`, `>`, `>=`: false when either side is nil; numbers, strings and dates only.
    private func ordering(
        _ left: SQLFragment, _ op: ComparisonOperator, _ right: SQLFragment,
        _ options: ComparisonOptions, fragment: String
    ) throws(SQLTranslationError) -> SQLPiece {
        if left.kind == .null || right.kind == .null { return SQLPiece("0") }
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
        switch left.kind {
        case .number, .date:
            return "IFNULL(" + left.piece + " \(symbol) " + right.piece + ", 0)"
        case .string:
            return SQLPiece("IFNULL(\(SQLFunctions.stringCompare)(") + left.piece + ", "
                + right.piece + ", " + SQLPiece.bound(.integer(Int64(options.rawValue)))
                + ") \(symbol) 0, 0)"
        default:
            throw .unsupported(fragment, reason: "values of kind \(left.kind) have no order")
        }
    }
}
