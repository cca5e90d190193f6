import Foundation
import SQLiteDatabase

/// Compiles a grouped or aggregate dictionary fetch (``StoreAggregateQuery``) to one
/// statement over Core Data's layout, answering exactly what the in-memory evaluator answers:
///
/// ```sql
/// SELECT t1."ZNAME", IFNULL(SUM(t0."ZSCORE"), 0), AVG(t0."ZSCORE")
///   FROM "ZPERSON" AS t0 LEFT JOIN "ZTEAM" AS t1 ON t1."Z_PK" = t0."ZTEAM"
///   WHERE <predicate> GROUP BY t1."ZNAME" HAVING <having>
///   ORDER BY <sort by column>, MIN(t0."Z_PK") LIMIT ? OFFSET ?
/// ```
///
/// Groups come in the order of their first row (`MIN(Z_PK)`), as the evaluator meets them;
/// with no group keys the statement has no `GROUP BY` and gives one row, over no rows too.
///
/// What has a translation: group keys that are attributes (not binary or transformable) or
/// to-one relationships, through to-one relationships; `count` of any value; `sum` and
/// `average` of integer, double and float values; `min` and `max` of numbers (not Booleans,
/// which `SortDescriptor` ranks all equal), dates and strings (under `og_standard`, Swift's
/// order); string group keys and string `min`/`max` only in a store whose text is all NFC
/// (where Swift's equality is byte equality); having-predicates over the columns; sorting by group keys and by numeric or date
/// aggregates; `returnsDistinctResults` when every group key is a column (the rows are
/// distinct already). Anything else — sums of decimals or Booleans (the evaluator adds them as
/// doubles), aggregates of strings' methods or arithmetic, sorting by a string aggregate,
/// sort descriptors naming no column — throws ``SQLTranslationError`` and the fetch is
/// evaluated in memory.
struct SQLAggregateCompiler {
    /// How a selected value is read back into a ``Value``.
    enum Reading: Sendable, Hashable {
        /// One column holding an attribute's stored value (a group key, a min or a max).
        case attribute(AttributeType)
        /// Two columns, `Z_PK` and `Z_ENT` of a related row (nil when the key is NULL).
        case object
        /// An integer count.
        case count
        /// A sum: NULL (no values) is the integer 0; a double when `double` (a double or float
        /// attribute), else an integer.
        case sum(double: Bool)
        /// A mean, REAL or NULL.
        case average
    }

    /// A compiled statement and how to read each result column, in order.
    struct Compiled: Sendable, Hashable {
        /// The statement.
        var query: CompiledQuery
        /// The result dictionaries' keys, one per column of the query.
        var names: [String]
        /// How each of those is read, in order (an object takes two SQL columns).
        var readings: [Reading]
    }

    /// The fetch compiler whose FROM, WHERE and sort terms the statement reuses.
    let compiler: SQLQueryCompiler

    /// The statement of `query` over `entity` (and its subentities when asked).
    func compile(
        _ query: StoreAggregateQuery, entity: String, includesSubentities: Bool,
        values: (any SQLValueSource)? = nil
    ) throws(SQLTranslationError) -> Compiled {
        let (translator, context, condition) = try compiler.prepare(
            entity: entity, includesSubentities: includesSubentities,
            predicate: query.rows.predicate, values: values)
        let object = SQLObjectScope(alias: "t0", entity: entity, context: context)
        let scope = SQLScope(object: object, variables: [:])
        var groups: [String: SQLFragment] = [:]
        var groupBy: [SQLPiece] = []
        for key in query.groupKeys {
            let value = try groupValue(key, translator, scope)
            groups[key] = value
            groupBy.append(value.piece)
            if compiler.schema.dialect == .postgres, value.kind == .object,
                let entity = value.entity, entity.sql != "?"
            {
                groupBy.append(entity)  // PostgreSQL selects only grouped columns
            }
        }
        var selected: [SQLPiece] = []
        var readings: [Reading] = []
        var named: [String: SQLFragment] = [:]
        for column in query.columns {
            let value: SQLFragment
            switch column.column {
            case .groupValue(let key):
                guard let group = groups[key] else {
                    throw .unsupported(key, reason: "the column is not a group key")
                }
                value = group
                if group.kind == .object, let entity = group.entity {
                    selected += [group.piece, entity]
                    readings.append(.object)
                } else if let type = group.attributeType {
                    selected.append(group.piece)
                    readings.append(.attribute(type))
                } else {
                    throw .unsupported(key, reason: "a group key must be an attribute")
                }
            case .aggregate(let function, let expression):
                let (piece, reading, fragment) = try aggregate(
                    function, of: expression, translator, scope)
                value = fragment
                selected.append(piece)
                readings.append(reading)
            }
            named[column.name] = value  // a repeated name: the last column, as in memory
        }
        var piece = "SELECT " + SQLPiece.joined(selected, separator: ", ") + " FROM "
        piece = piece + context.from
        if let condition { piece = piece + " WHERE " + condition }
        if !groupBy.isEmpty {
            piece = piece + " GROUP BY " + SQLPiece.joined(groupBy, separator: ", ")
        }
        if let having = query.having {
            var havingScope = scope
            havingScope.resultColumns = named
            if named.keys.contains(where: { name in named.keys.contains { $0.hasPrefix(name + ".") }
            }) {
                throw .unsupported(
                    having.description, reason: "a column is named by another's prefix")
            }
            piece = piece + " HAVING " + (try translator.condition(having, havingScope))
        }
        if query.distinct,
            !query.groupKeys.allSatisfy({ key in
                query.columns.contains { $0.column == .groupValue(key) }
            })
        {
            throw .unsupported(
                "returnsDistinctResults", reason: "a group key is not among the columns")
        }
        if !groupBy.isEmpty {
            var order: [SQLPiece] = []
            for descriptor in query.sortDescriptors {
                order += try sortTerms(descriptor, query, named, translator, object)
            }
            order.append(SQLPiece("MIN(t0.\"Z_PK\")"))
            piece = piece + " ORDER BY " + SQLPiece.joined(order, separator: ", ")
        }
        piece =
            piece
            + compiler.schema.dialect.limitClause(limit: query.limit, offset: query.offset)
        return Compiled(
            query: CompiledQuery(sql: piece.sql, arguments: piece.arguments),
            names: query.columns.map(\.name), readings: readings)
    }

    /// The value of a group key path: an attribute or a to-one relationship's object.
    private func groupValue(
        _ key: String, _ translator: SQLPredicateTranslator, _ scope: SQLScope
    ) throws(SQLTranslationError) -> SQLFragment {
        let value = try translator.scalar(.keyPath(PredicateKeyPath(key)), scope)
        switch value.kind {
        case .object where value.entity != nil:
            return value
        case .number, .string, .date, .uuid, .uri:
            guard value.attributeType != nil, value.isColumn, !value.mayBeNaN else { break }
            // The evaluator groups strings by Swift's equality (canonical equivalence: "K" and
            // the Kelvin sign are one group), SQL by their bytes: the same only when every
            // stored string is in NFC.
            if value.kind == .string || value.kind == .uri, !compiler.textIsNFC { break }
            return value
        default:
            break
        }
        throw .unsupported(
            key, reason: "a group key of this kind (\(value.kind)) is grouped in memory")
    }

    /// The SQL of an aggregate column, how to read it, and the value a having-predicate
    /// compares (a sum of no values is 0 there as in the result).
    private func aggregate(
        _ function: StoreAggregateQuery.Function, of expression: Expression,
        _ translator: SQLPredicateTranslator, _ scope: SQLScope
    ) throws(SQLTranslationError) -> (SQLPiece, Reading, SQLFragment) {
        var text: String { "\(function.rawValue):(\(expression.description))" }
        let value = try translator.scalar(expression, scope)
        guard !value.mayBeNaN, value.kind != .null else {
            throw .unsupported(text, reason: "SQLite reads NaN as NULL")
        }
        let type = value.attributeType
        switch function {
        case .count:
            let piece = "COUNT(" + value.piece + ")"
            var fragment = SQLFragment(piece, kind: .number, nullable: false)
            fragment.isInteger = true
            return (piece, .count, fragment)
        case .sum, .average:
            let summable: [AttributeType] = [.integer16, .integer32, .integer64, .double, .float]
            guard let type, summable.contains(type), value.isColumn else {
                throw .unsupported(
                    text, reason: "the evaluator adds these values as doubles (or cannot)")
            }
            if function == .average {
                var piece = "AVG(" + value.piece + ")"
                if compiler.schema.dialect == .postgres {
                    piece = "CAST(" + piece + " AS double precision)"
                }
                var fragment = SQLFragment(piece, kind: .number)
                fragment.isDouble = true
                return (piece, .average, fragment)
            }
            let piece = "SUM(" + value.piece + ")"
            var fragment = SQLFragment(
                compiler.schema.dialect == .sqlite
                    ? "IFNULL(" + piece + ", 0)" : "COALESCE(" + piece + ", 0)",
                kind: .number, nullable: false)
            fragment.isInteger = type.isInteger
            fragment.isDouble = !type.isInteger
            return (piece, .sum(double: !type.isInteger), fragment)
        case .min, .max:
            guard let type, value.isColumn, type != .boolean,
                [.number, .date, .string].contains(value.kind),
                value.kind != .string || compiler.textIsNFC
            else {
                throw .unsupported(
                    text, reason: "min and max of these values follow SortDescriptor in memory")
            }
            let collation =
                value.kind == .string ? " COLLATE \(SQLFunctions.standardCollation)" : ""
            let piece =
                (function == .min ? "MIN(" : "MAX(") + value.piece + SQLPiece(collation) + ")"
            var fragment = SQLFragment(piece, kind: value.kind)
            fragment.attributeType = type
            if compiler.schema.dialect == .postgres {
                fragment.isInteger = value.isInteger
                fragment.isDouble = value.isDouble
            }
            return (piece, .attribute(type), fragment)
        }
    }

    /// The ORDER BY terms of one descriptor naming a column: a group key sorts as a fetch
    /// sorts by it; a numeric or date aggregate by value, nil first in both directions.
    private func sortTerms(
        _ descriptor: SortDescriptor, _ query: StoreAggregateQuery,
        _ named: [String: SQLFragment], _ translator: SQLPredicateTranslator,
        _ object: SQLObjectScope
    ) throws(SQLTranslationError) -> [SQLPiece] {
        guard let column = query.columns.last(where: { $0.name == descriptor.key }),
            let value = named[descriptor.key]
        else {
            throw .unsupported(descriptor.key, reason: "the sort key names no column")
        }
        switch column.column {
        case .groupValue(let key):
            var byKey = descriptor
            byKey.key = key
            return try compiler.sortTerms(byKey, translator, object)
        case .aggregate:
            guard value.kind == .number || value.kind == .date else {
                throw .unsupported(
                    descriptor.key, reason: "sorting by this aggregate follows SortDescriptor")
            }
            return [
                value.piece + compiler.schema.dialect.direction(ascending: descriptor.ascending)
            ]
        }
    }
}

extension SQLPredicateTranslator {
    /// The result column a having-predicate names with `expression` (a key path, `$name` or
    /// `$name.path`, the dotted path being the column's name); `nil` for an expression naming
    /// none, translated as usual (constants, arithmetic).
    /// - Throws: ``SQLTranslationError`` for a name that is no column, and for `SELF` or a
    ///   subquery, which a having-predicate does not read from a row.
    func resultColumn(_ expression: Expression, _ columns: [String: SQLFragment])
        throws(SQLTranslationError) -> SQLFragment?
    {
        let name: String
        switch expression {
        case .keyPath(let path): name = Self.dotted(path)
        case .variable(let variable): name = variable
        case .member(.variable(let variable), let path): name = variable + "." + Self.dotted(path)
        case .evaluatedObject, .member, .subquery, .index:
            throw .unsupported(
                expression.description, reason: "a having-predicate reads the fetched columns")
        default:
            return nil
        }
        guard let column = columns[name] else {
            throw .unsupported(expression.description, reason: "'\(name)' is no fetched column")
        }
        return column
    }

    private static func dotted(_ path: PredicateKeyPath) -> String {
        path.components.map { component -> String in
            switch component {
            case .key(let key): return key
            case .operator(let op): return "@" + op.rawValue
            }
        }.joined(separator: ".")
    }
}
