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
/// //   ORDER BY (t0."ZNAME" IS NULL) DESC, t0."ZNAME" COLLATE og_standard ASC, t0."Z_PK" LIMIT ? OFFSET ?
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
/// - Sort descriptors: NULLs first in both directions, string orders by registered collations,
///   key paths through to-one relationships, and `Z_PK` last, as the in-memory stable sort.
///
/// Anything else (functions, `FUNCTION`, `CAST` of a non-constant, ordering values of different
/// kinds, collection operators other than those above, unbound variables, temporary object IDs)
/// throws ``SQLTranslationError`` naming the fragment; the store then evaluates in memory.
/// Decimals are REAL in the file, so they compare as doubles in SQL.
struct SQLQueryCompiler: Sendable {
    /// The model and layout lookups.
    let schema: SQLSchema

    /// A compiler for stores laid out as `layout` from `model`. With `storeIdentifier`, object
    /// IDs of other stores are rejected.
    init(layout: StoreLayout, model: EntityModel, storeIdentifier: String? = nil) {
        schema = SQLSchema(layout: layout, model: model, storeIdentifier: storeIdentifier)
    }

    /// `SELECT <columns> FROM <root table> AS t0 [joins] WHERE Z_ENT IN (…) AND <predicate>
    /// ORDER BY <sort>, Z_PK [LIMIT ? OFFSET ?]`.
    ///
    /// - Parameters:
    ///   - columns: column names of the root table (`layout.columns(of:)`), selected from `t0`
    ///     in this order.
    ///   - offset: rows skipped (0 for none); `limit`: at most this many rows (0 for all).
    func select(
        entity: String, includesSubentities: Bool, predicate: Predicate?,
        sortDescriptors: [SortDescriptor], offset: Int, limit: Int, columns: [String]
    ) throws(SQLTranslationError) -> CompiledQuery {
        let (translator, context, condition) = try prepare(
            entity: entity, includesSubentities: includesSubentities, predicate: predicate)
        var order: [SQLPiece] = []
        let scope = SQLObjectScope(alias: "t0", entity: entity, context: context)
        for descriptor in sortDescriptors {
            order += try sortTerms(descriptor, translator, scope)
        }
        order.append(SQLPiece("t0.\"Z_PK\""))
        let list =
            columns.isEmpty
            ? "t0.\"Z_PK\""
            : columns.map { "t0." + quoteIdentifier($0) }
                .joined(separator: ", ")
        var piece =
            "SELECT " + list + " FROM " + context.from + " WHERE " + condition + " ORDER BY "
            + SQLPiece.joined(order, separator: ", ")
        if limit > 0 || offset > 0 {
            piece =
                piece + " LIMIT " + SQLPiece.bound(.integer(Int64(limit > 0 ? limit : -1)))
                + " OFFSET " + SQLPiece.bound(.integer(Int64(max(0, offset))))
        }
        return CompiledQuery(sql: piece.sql, arguments: piece.arguments)
    }

    /// `SELECT COUNT(*) FROM <root table> AS t0 [joins] WHERE Z_ENT IN (…) AND <predicate>`.
    func count(entity: String, includesSubentities: Bool, predicate: Predicate?)
        throws(SQLTranslationError) -> CompiledQuery
    {
        let (_, context, condition) = try prepare(
            entity: entity, includesSubentities: includesSubentities, predicate: predicate)
        let piece = "SELECT COUNT(*) FROM " + context.from + " WHERE " + condition
        return CompiledQuery(sql: piece.sql, arguments: piece.arguments)
    }

    /// The translator, the FROM clause and the WHERE condition of a fetch.
    private func prepare(entity name: String, includesSubentities: Bool, predicate: Predicate?)
        throws(SQLTranslationError) -> (SQLPredicateTranslator, SQLSelectContext, SQLPiece)
    {
        let entity = try schema.entity(name)
        let context = SQLSelectContext(from: SQLPiece(quoteIdentifier(entity.tableName) + " AS t0"))
        let translator = SQLPredicateTranslator(schema: schema)
        let numbers = includesSubentities ? entity.coveredEntityNumbers : [entity.entityNumber]
        var conditions = ["t0.\"Z_ENT\" IN " + SQLPiece.list(numbers)]
        if let predicate {
            let scope = SQLScope(
                object: SQLObjectScope(alias: "t0", entity: name, context: context),
                variables: [:])
            conditions.append(try translator.condition(predicate, scope))
        }
        return (translator, context, SQLPiece.all(conditions))
    }

    /// `(x IS NULL) DESC, x [COLLATE …] ASC|DESC` for one descriptor.
    private func sortTerms(
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
        let nullsFirst = "(" + value.piece + " IS NULL) DESC"
        if value.attributeType == .boolean {
            // `SortDescriptor.order` ranks all Booleans equal (it reads no Bool as a number):
            // only nil sorts apart.
            return [nullsFirst]
        }
        let direction = descriptor.ascending ? " ASC" : " DESC"
        var key = value.piece
        switch value.kind {
        case .string:
            key = key + " COLLATE " + SQLFunctions.collation(for: descriptor.comparison)
        case .uri:
            key = key + " COLLATE " + SQLFunctions.standardCollation
        case .number, .date, .data, .uuid:
            break
        case .object, .null:
            throw .unsupported(descriptor.key, reason: "cannot sort by a relationship")
        }
        return [nullsFirst, key + direction]
    }
}
