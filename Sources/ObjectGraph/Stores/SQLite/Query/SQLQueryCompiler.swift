import SQLiteDatabase

/// Compiles fetches — entity, predicate, sort descriptors, offset and limit — to SQL over Core
/// Data's layout, answering exactly what the in-memory evaluator and `SortDescriptor` answer.
///
/// ```swift
/// let compiler = SQLQueryCompiler(layout: layout, model: model)
/// let query = try compiler.select(
///     entity: "Person", includesSubentities: true,
///     predicate: try Predicate(format: "age > 30 AND team.name BEGINSWITH[c] 'j'"),
///     sortDescriptors: [SortDescriptor("name")], offset: 0, limit: 100,
///     columns: layout.columns(of: person).map(\.name))
/// // SELECT t0."Z_PK", … FROM "ZPERSON" AS t0 LEFT JOIN "ZTEAM" AS t1 ON …
/// //   WHERE t0."Z_ENT" IN (?) AND (IFNULL(t0."ZAGE" > ?, 0) AND og_string_match(?, t1."ZNAME", ?, ?))
/// //   ORDER BY (CASE WHEN t0."ZNAME" GLOB ? THEN og_sort_key(…) ELSE CAST(…) END) ASC, t0."Z_PK"
/// //   LIMIT ? OFFSET ?
/// let rows = try db.fetchAll(sql: query.sql, arguments: query.statementArguments)
/// ```
///
/// The connection must have ``SQLFunctions/register(on:)`` applied. What is translated:
///
/// - `AND`, `OR`, `NOT`, `TRUEPREDICATE`, `FALSEPREDICATE`; every condition is 0 or 1, never
///   NULL, so negation keeps the evaluator's two-valued logic.
/// - Comparisons `==`, `!=`, `<`, `<=`, `>`, `>=`, `BETWEEN`, `IN`, `CONTAINS`, `BEGINSWITH`,
///   `ENDSWITH`, `LIKE`, `MATCHES` with `[c]`, `[d]`, `[cd]`, typed from the model: numbers
///   (integers, Booleans, doubles, decimals) by value, strings through registered functions that
///   reuse `StringMatching`, dates as seconds since 2001, UUIDs and data as blobs (equality
///   only), objects and object IDs by `Z_PK` and `Z_ENT`; nil as the evaluator treats it.
/// - Key paths: attributes, to-one relationships (LEFT JOINs, several levels), `SELF`;
///   to-many relationships under `ANY`/`SOME`/`ALL`/`NONE`, `IN`/`CONTAINS` (correlated
///   `EXISTS` subqueries over inverse foreign keys or join tables, flattening to-many of
///   to-many), `@count`, `@sum`, `@avg`, `@min`, `@max` (scalar subqueries) and
///   `SUBQUERY(…).@count` / `[SIZE]`.
/// - Arithmetic (`+ - * / **`, unary minus) through a registered function with the
///   evaluator's overflow and division-by-zero errors; `TERNARY`.
/// - Sort descriptors: NULLs first in both directions; strings by byte-comparable keys (plain
///   bytes for ASCII, `og_sort_key` otherwise, or the column itself with `textIsNFC`) and the
///   `og_localized_standard` collation; key paths through to-one relationships; `Z_PK` last,
///   as the in-memory stable sort.
///
/// Anything else (functions, `FUNCTION`, `CAST` of a non-constant, ordering values of different
/// kinds, collection operators other than those above, unbound variables, temporary object IDs)
/// throws ``SQLTranslationError`` naming the fragment; the store then evaluates in memory.
/// Decimals are REAL in the file, so they compare as doubles in SQL.
struct SQLQueryCompiler: Sendable {
    /// The model and layout lookups.
    let schema: SQLSchema

    /// Whether every stored string is in Unicode NFC (see ``nonNFCTextCount(entity:)``): then
    /// `.standard` string sorts are plain byte order, which SQLite can read from an index.
    let textIsNFC: Bool

    /// PostgreSQL: what makes a text comparison byte order (UTF-8 code point order) for the
    /// native string translations (see `SQLPredicateTranslator+PostgresText.swift`):
    /// ` COLLATE "C"`, or nothing when the database's default collation is C (its indexes
    /// then serve); nil (the default) on a server whose encoding may not be UTF-8: every
    /// string comparison and sort then reads the distinct values.
    var byteOrderCollation: String?

    /// Whether a fetch with no sort descriptors, offset or limit is ordered by `Z_PK` all the
    /// same (the in-memory evaluator's order). `false` (the PostgreSQL store's choice) leaves
    /// its order unspecified, as Core Data does, and spares the server a sort.
    var ordersUnsortedByKey = true

    /// A compiler for stores laid out as `layout` from `model`. With `storeIdentifier`, object
    /// IDs of other stores are rejected. Pass `textIsNFC: true` only when the store knows every
    /// string it holds is NFC (checked with ``nonNFCTextCount(entity:)`` and kept so on save).
    init(
        layout: StoreLayout, model: EntityModel, storeIdentifier: String? = nil,
        textIsNFC: Bool = false, dialect: SQLDialect = .sqlite
    ) {
        schema = SQLSchema(
            layout: layout, model: model, storeIdentifier: storeIdentifier, dialect: dialect)
        self.textIsNFC = textIsNFC
    }

    /// `SELECT COUNT(*)` of the rows of `entity`'s table with a string or URI value that is
    /// not in NFC (`og_is_nfc`); ASCII values are skipped without calling Swift. Zero means
    /// byte order is Swift's order for the table's text.
    func nonNFCTextCount(entity name: String) throws(SQLTranslationError) -> CompiledQuery {
        let entity = try schema.entity(name)
        let columns = (schema.layout.table(named: entity.tableName)?.columns ?? []).filter {
            $0.type == .varchar
        }
        var tests: [SQLPiece] = []
        for column in columns {
            let name = quoteIdentifier(column.name)
            tests.append(
                "(" + SQLFunctions.hasNonASCII(SQLPiece(name)) + " AND NOT \(SQLFunctions.isNFC)("
                    + name + "))")
        }
        let piece =
            "SELECT COUNT(*) FROM " + quoteIdentifier(entity.tableName) + " WHERE "
            + SQLPiece.any(tests)
        return CompiledQuery(sql: piece.sql, arguments: piece.arguments)
    }

    /// `SELECT <columns> FROM <root table> AS t0 [joins] WHERE Z_ENT IN (…) AND <predicate>
    /// ORDER BY <sort>, Z_PK [LIMIT ? OFFSET ?]`.
    ///
    /// - Parameters:
    ///   - columns: column names of the root table (`layout.columns(of:)`), selected from `t0`
    ///     in this order.
    ///   - offset: rows skipped (0 for none); `limit`: at most this many rows (0 for all).
    ///   - values: for the PostgreSQL dialect, where string comparisons and orders read the
    ///     values they decide in Swift (without one, they are refused).
    func select(
        entity: String, includesSubentities: Bool, predicate: Predicate?,
        sortDescriptors: [SortDescriptor], offset: Int, limit: Int, columns: [String],
        values: (any SQLValueSource)? = nil
    ) throws(SQLTranslationError) -> CompiledQuery {
        let (translator, context, condition) = try prepare(
            entity: entity, includesSubentities: includesSubentities, predicate: predicate,
            values: values)
        var order: [SQLPiece] = []
        let scope = SQLObjectScope(alias: "t0", entity: entity, context: context)
        for descriptor in sortDescriptors {
            order += try sortTerms(descriptor, translator, scope)
        }
        if ordersUnsortedByKey || !order.isEmpty || offset > 0 || limit > 0 {
            order.append(SQLPiece("t0.\"Z_PK\""))
        }
        let table = schema.layout.table(named: try schema.entity(entity).tableName)
        let list =
            columns.isEmpty
            ? "t0.\"Z_PK\""
            : columns.map { table?.selectedColumn($0) ?? "t0." + quoteIdentifier($0) }
                .joined(separator: ", ")
        var piece = SQLPiece("SELECT " + list)
        piece = piece + " FROM " + context.from
        if let condition { piece = piece + " WHERE " + condition }
        if !order.isEmpty { piece = piece + " ORDER BY " + SQLPiece.joined(order, separator: ", ") }
        piece = piece + schema.dialect.limitClause(limit: limit, offset: offset)
        return CompiledQuery(sql: piece.sql, arguments: piece.arguments)
    }

    /// `SELECT COUNT(*) FROM <root table> AS t0 [joins] WHERE Z_ENT IN (…) AND <predicate>`.
    func count(
        entity: String, includesSubentities: Bool, predicate: Predicate?,
        values: (any SQLValueSource)? = nil
    ) throws(SQLTranslationError) -> CompiledQuery {
        let (_, context, condition) = try prepare(
            entity: entity, includesSubentities: includesSubentities, predicate: predicate,
            values: values)
        var piece = "SELECT COUNT(*) FROM " + context.from
        if let condition { piece = piece + " WHERE " + condition }
        return CompiledQuery(sql: piece.sql, arguments: piece.arguments)
    }

    /// The translator, the FROM clause and the WHERE condition of a fetch (`nil`: every row
    /// of the table).
    func prepare(
        entity name: String, includesSubentities: Bool, predicate: Predicate?,
        values: (any SQLValueSource)? = nil
    ) throws(SQLTranslationError) -> (SQLPredicateTranslator, SQLSelectContext, SQLPiece?) {
        let entity = try schema.entity(name)
        let context = SQLSelectContext(from: SQLPiece(quoteIdentifier(entity.tableName) + " AS t0"))
        let translator = SQLPredicateTranslator(schema: schema)
        translator.values = values
        if schema.dialect == .postgres {
            translator.byteOrderCollation = byteOrderCollation
        }
        let numbers = includesSubentities ? entity.coveredEntityNumbers : [entity.entityNumber]
        var conditions: [SQLPiece] = []
        // A table holding only the fetched entities needs no test of `Z_ENT` (as Core Data's
        // SQL for an entity without subentities in a table of its own has none).
        let tableNumbers = schema.layout.table(named: entity.tableName)?.entityNumbers
        if tableNumbers.map(Set.init) != Set(numbers) {
            conditions.append("t0.\"Z_ENT\" IN " + SQLPiece.list(numbers))
        }
        if let predicate {
            let scope = SQLScope(
                object: SQLObjectScope(alias: "t0", entity: name, context: context),
                variables: [:])
            conditions.append(try translator.condition(predicate, scope))
        }
        return (translator, context, conditions.isEmpty ? nil : SQLPiece.all(conditions))
    }

    /// A BLOB that sorts bytewise as `SortDescriptor` orders the strings: for an ASCII string
    /// its (lower-cased) bytes, computed by SQLite; otherwise `og_sort_key`, the UTF-8 of the
    /// string's NFC form after the descriptor's folding (Swift orders strings by their NFC
    /// scalars).
    private func sortKey(_ text: SQLPiece, _ mode: SQLFunctions.SortKey) -> SQLPiece {
        let ascii = mode == .standard ? text : "lower(" + text + ")"
        return "(CASE WHEN " + SQLFunctions.hasNonASCII(text) + " THEN \(SQLFunctions.sortKey)("
            + text + ", " + SQLPiece.bound(.integer(mode.rawValue)) + ") ELSE CAST(" + ascii
            + " AS BLOB) END)"
    }

    /// `(x IS NULL) DESC, x [COLLATE …] ASC|DESC` for one descriptor.
    func sortTerms(
        _ descriptor: SortDescriptor, _ translator: SQLPredicateTranslator,
        _ scope: SQLObjectScope
    ) throws(SQLTranslationError) -> [SQLPiece] {
        let path = PredicateKeyPath(descriptor.key)
        let valid = path.components.allSatisfy {
            if case .key(let key) = $0 { return !key.isEmpty }
            return false
        }
        guard valid else {
            throw .unsupported(descriptor.key, reason: "a sort key must be a plain key path")
        }
        let operand = try translator.walk(
            path.components[...], from: scope, fragment: .keyPath(path))
        guard case .scalar(let value) = operand else {
            throw .unsupported(descriptor.key, reason: "cannot sort by a to-many key path")
        }
        if schema.dialect == .postgres {
            return try translator.postgresSortTerms(descriptor, value, scope)
        }
        if value.attributeType == .boolean {
            // `SortDescriptor.order` ranks all Booleans equal (it reads no Bool as a number):
            // only nil sorts apart.
            return ["(" + value.piece + " IS NULL) DESC"]
        }
        // SQLite puts NULL first in ascending order; descending needs NULLS FIRST. The key is
        // NULL exactly when the value is.
        let direction = descriptor.ascending ? " ASC" : " DESC NULLS FIRST"
        var key = value.piece
        switch value.kind {
        case .string, .uri:
            let comparison = value.kind == .uri ? .standard : descriptor.comparison
            if comparison == .standard, textIsNFC {
                break  // Swift orders NFC strings by code points: UTF-8 byte order.
            } else if let mode = SQLFunctions.SortKey(comparison) {
                key = sortKey(value.piece, mode)
            } else {
                key = key + " COLLATE " + SQLFunctions.collation(for: comparison)
            }
        case .number, .date, .data, .uuid:
            break
        case .object, .null:
            throw .unsupported(descriptor.key, reason: "cannot sort by a relationship")
        }
        return [key + direction]
    }
}
