import Foundation
import SQLiteDatabase

/// The PostgreSQL dialect's translations where SQLite's call Swift functions or lean on
/// SQLite's exact number comparisons:
///
/// - Numbers compare natively when PostgreSQL's answer is the evaluator's: integers with
///   integers and decimals (`numeric`, exact), doubles with doubles (NaN, which PostgreSQL
///   keeps and orders above every number, matches no comparison, as in the evaluator). An
///   integer or decimal against a double constant is rewritten in Swift into exact integer
///   bounds (`count < 2.5` is `count < 3`), a double against an integer constant into the
///   doubles around it; an integer and a double both read from rows are refused.
/// - Strings: on a UTF-8 server, a column compared with a constant (`==`, `!=`, orderings,
///   `IN`, `BETWEEN`, a `BEGINSWITH` of a plain ASCII prefix) without `[c]`/`[d]` compares
///   its NFC form in byte order (see `SQLPredicateTranslator+PostgresText.swift`).
///   Any other comparison of a column with a constant (other operators, `[c]`, `[d]`) is decided
///   by the evaluator itself over the column's distinct values (read through the
///   translator's ``SQLValueSource``), and the statement tests membership in the values that
///   match (`col IN (SELECT unnest($1::text[]))`); two columns compared with each other are
///   refused.
/// - Sorting strings: `.standard` by the NFC form in byte order (see the same file); other
///   comparisons, URIs, and servers that may not be UTF-8: the distinct values ranked by the
///   `SortDescriptor` in Swift, joined as `unnest(values, ranks)` and sorted by rank. Other
///   values natively, nil first.
/// - Arithmetic, functions and string methods are refused (the store evaluates in memory).
extension SQLPredicateTranslator {
    /// Why arithmetic and functions are not translated for PostgreSQL.
    static let postgresSwiftOnly =
        "PostgreSQL has no function with the evaluator's semantics (arithmetic overflow,"
        + " string methods): evaluated in memory"

    /// The most distinct values of a column that a string comparison or sort reads.
    static let postgresDistinctLimit = 200_000

    /// Number, decimal and UUID constants typed for PostgreSQL, nil for the others (bound as
    /// SQLite binds them).
    func postgresConstant(_ value: Value) -> SQLFragment? {
        var fragment: SQLFragment
        switch value {
        case .integer(let number):
            fragment = SQLFragment(.bound(.integer(number)), kind: .number, nullable: false)
            fragment.isInteger = true
        case .bool(let flag):
            fragment = SQLFragment(.bound(.integer(flag ? 1 : 0)), kind: .number, nullable: false)
            fragment.isInteger = true
        case .double(let number) where !number.isNaN:
            fragment = SQLFragment(.bound(.real(number)), kind: .number, nullable: false)
            fragment.isDouble = true
        case .decimal(let number) where !number.isNaN:
            fragment = SQLFragment(
                "CAST(" + SQLPiece.bound(.text(number.description)) + " AS numeric)",
                kind: .number, nullable: false)
        case .uuid(let uuid):
            return SQLFragment(
                "CAST(" + SQLPiece.bound(.text(uuid.uuidString)) + " AS uuid)", kind: .uuid,
                nullable: false)
        default:
            return nil
        }
        fragment.constant = value
        return fragment
    }

    // MARK: Numbers

    private enum NumberClass { case integer, double, decimal }

    private func numberClass(_ value: SQLFragment) -> NumberClass? {
        switch value.constant {
        case .integer?, .bool?: return .integer
        case .double?: return .double
        case .decimal?: return .decimal
        default: break
        }
        if value.isInteger { return .integer }
        if value.isDouble { return .double }
        if value.attributeType == .decimal { return .decimal }
        return nil
    }

    /// `left op right` between numbers (`.equal` or an ordering), exactly as the evaluator
    /// compares them; `.equal` is nil-safe (nil equals nil).
    func postgresNumbers(
        _ left: SQLFragment, _ op: ComparisonOperator, _ right: SQLFragment, fragment: String
    ) throws(SQLTranslationError) -> SQLPiece {
        guard let leftClass = numberClass(left), let rightClass = numberClass(right) else {
            throw .unsupported(fragment, reason: "a number of unknown type for PostgreSQL")
        }
        if left.constant != nil, right.constant != nil {
            return try constantComparison(left, op, right, fragment: fragment)
        }
        if left.constant != nil {
            return try postgresNumbers(right, Self.mirror(op), left, fragment: fragment)
        }
        switch (leftClass, rightClass) {
        case (.integer, .integer), (.decimal, .decimal), (.integer, .decimal),
            (.decimal, .integer), (.double, .double):
            return native(left, op, right)
        case (.integer, .double):
            guard case .double(let bound)? = right.constant else { break }
            return integerAgainst(left.piece, op, bound, nullable: left.nullable)
        case (.decimal, .double):
            guard case .double(let bound)? = right.constant else { break }
            // The evaluator compares a whole decimal with a double exactly, a fraction as a
            // double.
            let whole =
                "(" + left.piece + " = trunc(" + left.piece + ") AND " + left.piece
                + " BETWEEN -9223372036854775808 AND 9223372036854775807)"
            var asDouble = left
            asDouble.piece = "CAST(" + left.piece + " AS double precision)"
            asDouble.isColumn = false
            return dialect.falseWhenNull(
                "(CASE WHEN " + whole + " THEN "
                    + integerAgainst(left.piece, op, bound, nullable: false) + " ELSE "
                    + native(asDouble, op, right) + " END)")
        case (.double, .integer):
            switch right.constant {
            case .integer(let number)?: return doubleAgainst(left, op, number)
            case .bool(let flag)?: return doubleAgainst(left, op, flag ? 1 : 0)
            default: break
            }
        case (.double, .decimal):
            guard case .decimal(let number)? = right.constant else { break }
            if let whole = Arithmetic.integer(.decimal(number), exact: true) {
                return doubleAgainst(left, op, whole)
            }
            guard let double = Arithmetic.double(.decimal(number)) else { break }
            var bound = SQLFragment(.bound(.real(double)), kind: .number, nullable: false)
            bound.isDouble = true
            return native(left, op, bound)
        }
        throw .unsupported(
            fragment,
            reason: "PostgreSQL rounds when comparing an integer or decimal with a double")
    }

    private static func mirror(_ op: ComparisonOperator) -> ComparisonOperator {
        switch op {
        case .lessThan: return .greaterThan
        case .lessThanOrEqual: return .greaterThanOrEqual
        case .greaterThan: return .lessThan
        case .greaterThanOrEqual: return .lessThanOrEqual
        default: return op
        }
    }

    private static func symbol(_ op: ComparisonOperator) -> String {
        switch op {
        case .lessThan: return "<"
        case .lessThanOrEqual: return "<="
        case .greaterThan: return ">"
        case .greaterThanOrEqual: return ">="
        default: return "="
        }
    }

    /// A comparison PostgreSQL answers as the evaluator does; doubles read from rows are
    /// checked for NaN, which equals and orders against nothing in the evaluator. A column
    /// against a bound constant is a plain comparison with `IS NOT NULL` tests (``nullFalse``),
    /// which PostgreSQL serves from an index; `COALESCE(…, FALSE)` and `IS NOT DISTINCT FROM`
    /// only where both sides are expressions or both may be nil.
    private func native(_ left: SQLFragment, _ op: ComparisonOperator, _ right: SQLFragment)
        -> SQLPiece
    {
        var terms: [SQLPiece] = []
        if op == .equal, left.nullable, right.nullable {
            terms.append(dialect.same(left.piece, right.piece))
        } else {
            terms.append(nullFalse(left, Self.symbol(op), right))
        }
        for side in [left, right] where side.isDouble && side.constant == nil {
            terms.append(
                "COALESCE(" + side.piece + " <> CAST('NaN' AS double precision), TRUE)")
        }
        return SQLPiece.all(terms)
    }

    /// An integer-valued `value` against the double `bound`, as integer comparisons.
    private func integerAgainst(
        _ value: SQLPiece, _ op: ComparisonOperator, _ bound: Double, nullable: Bool
    ) -> SQLPiece {
        let notNil = nullable ? "(" + value + " IS NOT NULL)" : dialect.alwaysTrue
        func compare(_ symbol: String, _ edge: Double) -> SQLPiece {
            if edge >= 9_223_372_036_854_775_808.0 {
                return symbol.hasPrefix("<") ? notNil : dialect.alwaysFalse
            }
            if edge < -9_223_372_036_854_775_808.0 {
                return symbol.hasPrefix(">") ? notNil : dialect.alwaysFalse
            }
            return dialect.falseWhenNull(
                "(" + value + " \(symbol) " + SQLPiece.bound(.integer(Int64(edge))) + ")")
        }
        switch op {
        case .equal:
            guard bound.rounded(.towardZero) == bound else { return dialect.alwaysFalse }
            return compare("=", bound)
        case .lessThan: return compare("<", bound.rounded(.up))
        case .lessThanOrEqual: return compare("<=", bound.rounded(.down))
        case .greaterThan: return compare(">", bound.rounded(.down))
        default: return compare(">=", bound.rounded(.up))
        }
    }

    /// A double-valued `value` against the integer `number`, exactly: against the doubles
    /// next to it when it has no double of its own.
    private func doubleAgainst(_ value: SQLFragment, _ op: ComparisonOperator, _ number: Int64)
        -> SQLPiece
    {
        func bound(_ double: Double) -> SQLFragment {
            var fragment = SQLFragment(.bound(.real(double)), kind: .number, nullable: false)
            fragment.isDouble = true
            return fragment
        }
        let nearest = Double(number)
        if nearest < 9_223_372_036_854_775_808.0, Int64(nearest) == number {
            return native(value, op, bound(nearest))
        }
        let above =
            nearest >= 9_223_372_036_854_775_808.0 || Int64(nearest) > number
        let low = above ? nearest.nextDown : nearest
        let high = above ? nearest : nearest.nextUp
        switch op {
        case .equal: return dialect.alwaysFalse
        case .lessThan, .lessThanOrEqual: return native(value, .lessThanOrEqual, bound(low))
        default: return native(value, .greaterThanOrEqual, bound(high))
        }
    }

    /// Two constants compared by the evaluator itself.
    private func constantComparison(
        _ left: SQLFragment, _ op: ComparisonOperator, _ right: SQLFragment, fragment: String
    ) throws(SQLTranslationError) -> SQLPiece {
        guard let a = left.constant, let b = right.constant else {
            throw .unsupported(fragment, reason: "not two constants")
        }
        let comparison = Comparison(.constant(a), op, .constant(b))
        do {
            let holds = try PredicateEvaluator(variables: [:]).evaluate(comparison, .value(.null))
            return holds ? dialect.alwaysTrue : dialect.alwaysFalse
        } catch {
            throw .unsupported(fragment, reason: "the evaluator reports an error: \(error)")
        }
    }

    // MARK: Strings

    /// The distinct stored texts of `source`'s column (cached for the statement).
    private func distinctTexts(_ source: SQLColumnSource, fragment: String)
        throws(SQLTranslationError) -> [String]
    {
        if let known = valueCache[source] { return known }
        guard let values else {
            throw .unsupported(
                fragment, reason: "no connection to read the column's values from")
        }
        let texts: [String]
        do {
            texts = try values.distinctTexts(
                table: source.table, column: source.column,
                limit: Self.postgresDistinctLimit + 1)
        } catch {
            throw .unsupported(fragment, reason: "reading the column's values failed: \(error)")
        }
        guard texts.count <= Self.postgresDistinctLimit else {
            throw .unsupported(
                fragment,
                reason: "the column has more than \(Self.postgresDistinctLimit) distinct values")
        }
        valueCache[source] = texts
        return texts
    }

    /// `{"a","b"}`: a PostgreSQL array literal of `texts`.
    static func arrayLiteral(_ texts: [String]) -> String {
        "{"
            + texts.map { text in
                "\""
                    + text.replacingOccurrences(of: "\\", with: "\\\\")
                    .replacingOccurrences(of: "\"", with: "\\\"") + "\""
            }.joined(separator: ",") + "}"
    }

    /// `left op right` between a string column and a constant (either side), decided by the
    /// evaluator for each distinct value of the column (and for nil).
    func postgresString(
        _ left: SQLFragment, _ op: ComparisonOperator, _ right: SQLFragment,
        _ options: ComparisonOptions, fragment: String
    ) throws(SQLTranslationError) -> SQLPiece {
        let columnOnLeft: Bool
        let column: SQLFragment
        let constant: String
        if let text = right.constantText, left.source != nil {
            columnOnLeft = true
            column = left
            constant = text
        } else if let text = left.constantText, right.source != nil {
            columnOnLeft = false
            column = right
            constant = text
        } else if let a = left.constantText, let b = right.constantText {
            return try evaluated(.string(a), op, .string(b), options, fragment: fragment)
                ? dialect.alwaysTrue : dialect.alwaysFalse
        } else {
            throw .unsupported(
                fragment,
                reason: "compares strings read from rows: PostgreSQL has no Swift string semantics")
        }
        guard let source = column.source else {
            throw .unsupported(fragment, reason: "not a column")
        }
        if op == .beginsWith, columnOnLeft,
            let native = postgresPrefix(column, constant, options)
        {
            return native
        }
        if let native = postgresNativeString(
            column, columnOnLeft ? op : Self.mirror(op), constant, options)
        {
            return native
        }
        func holds(_ value: Value) throws(SQLTranslationError) -> Bool {
            if columnOnLeft {
                return try evaluated(value, op, .string(constant), options, fragment: fragment)
            }
            return try evaluated(.string(constant), op, value, options, fragment: fragment)
        }
        var matching: [String] = []
        let texts = try distinctTexts(source, fragment: fragment)
        for text in texts {
            if try holds(.string(text)) { matching.append(text) }
        }
        var tests: [SQLPiece] = []
        if matching.count == texts.count {
            if !texts.isEmpty { tests.append("(" + column.piece + " IS NOT NULL)") }
        } else if !matching.isEmpty {
            tests.append(
                dialect.falseWhenNull(
                    "(" + column.piece + " IN (SELECT unnest(CAST("
                        + SQLPiece.bound(.text(Self.arrayLiteral(matching)))
                        + " AS text[]))))"))
        }
        if column.nullable, try holds(.null) { tests.append("(" + column.piece + " IS NULL)") }
        return dialect.any(tests)
    }

    /// Whether the evaluator finds `a op b`.
    private func evaluated(
        _ a: Value, _ op: ComparisonOperator, _ b: Value, _ options: ComparisonOptions,
        fragment: String
    ) throws(SQLTranslationError) -> Bool {
        let comparison = Comparison(.constant(a), op, .constant(b), options: options)
        do {
            return try PredicateEvaluator(variables: [:]).evaluate(comparison, .value(.null))
        } catch {
            throw .unsupported(fragment, reason: "the evaluator reports an error: \(error)")
        }
    }

    // MARK: Collection aggregates

    /// `@sum`, `@avg`, `@min`, `@max` over a collection subquery, where PostgreSQL's answer
    /// is the evaluator's.
    func postgresCollectionAggregate(
        _ op: CollectionOperator, of value: SQLFragment, over source: SQLCollectionSource,
        fragment: String
    ) throws(SQLTranslationError) -> SQLFragment {
        switch (op, value.kind) {
        case (.sum, .number) where value.isInteger || value.isDouble:
            var sum = SQLFragment(
                source.scalar("COALESCE(SUM(" + value.piece + "), 0)"), kind: .number,
                nullable: false)
            sum.isInteger = value.isInteger
            sum.isDouble = value.isDouble
            return sum
        case (.avg, .number) where value.isInteger || value.isDouble:
            var mean = SQLFragment(
                source.scalar("CAST(AVG(" + value.piece + ") AS double precision)"),
                kind: .number)
            mean.isDouble = true
            return mean
        case (.min, .number), (.min, .date), (.max, .number), (.max, .date):
            guard value.attributeType != .boolean else { break }
            let name = op == .min ? "MIN(" : "MAX("
            var extreme = SQLFragment(source.scalar(name + value.piece + ")"), kind: value.kind)
            extreme.isInteger = value.isInteger
            extreme.isDouble = value.isDouble
            extreme.attributeType = value.attributeType
            return extreme
        default:
            break
        }
        throw .unsupported(
            fragment, reason: "@\(op.rawValue) over these values is evaluated in memory")
    }

    // MARK: Sorting

    /// The ORDER BY terms of one descriptor on PostgreSQL (nil first in both directions).
    func postgresSortTerms(
        _ descriptor: SortDescriptor, _ value: SQLFragment, _ scope: SQLObjectScope
    ) throws(SQLTranslationError) -> [SQLPiece] {
        let direction = dialect.direction(ascending: descriptor.ascending)
        if value.attributeType == .boolean {
            // `SortDescriptor.order` ranks all Booleans equal: only nil sorts apart.
            return ["(" + value.piece + " IS NULL) DESC"]
        }
        switch value.kind {
        case .number where value.attributeType == .decimal:
            // SortDescriptor compares decimals as doubles.
            return ["CAST(" + value.piece + " AS double precision)" + direction]
        case .number, .date, .data, .uuid:
            return [value.piece + direction]
        case .string, .uri:
            if descriptor.comparison == .standard,
                let native = postgresCodePointSort(value, direction: direction)
            {
                return [native]
            }
            guard let source = value.source else {
                throw .unsupported(descriptor.key, reason: "sorting by a string that is no column")
            }
            let texts = try distinctTexts(source, fragment: descriptor.key)
            let decoded = texts.map { text -> Value in
                if value.kind == .uri, let url = URL(string: text) { return .uri(url) }
                return .string(text)
            }
            let order = decoded.indices.sorted {
                descriptor.order(decoded[$0], decoded[$1]) == .orderedAscending
            }
            var ranks = [Int64](repeating: 0, count: texts.count)
            var rank: Int64 = 0
            for (position, index) in order.enumerated() {
                if position > 0,
                    descriptor.order(decoded[order[position - 1]], decoded[index]) != .orderedSame
                {
                    rank += 1
                }
                ranks[index] = rank
            }
            let alias = newAlias()
            let rankList = "{" + ranks.map(String.init).joined(separator: ",") + "}"
            try scope.context.append(
                " LEFT JOIN unnest(CAST(" + SQLPiece.bound(.text(Self.arrayLiteral(texts)))
                    + " AS text[]), CAST(" + SQLPiece.bound(.text(rankList))
                    + " AS bigint[])) AS " + alias + "(v, r) ON " + alias + ".v = "
                    + value.piece + " COLLATE \"C\"", tables: 1, fragment: descriptor.key)
            return [SQLPiece(alias + ".r" + direction)]
        case .object, .null:
            throw .unsupported(descriptor.key, reason: "cannot sort by a relationship")
        }
    }
}
