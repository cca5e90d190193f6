import SQLiteDatabase

extension SQLQueryCompiler {
    /// The SQL of `expression` read on one row of `entity`'s table, aliased `t0` (as in
    /// `UPDATE "ZPERSON" AS t0 SET "ZSCORE" = <value>`): what a batch update sets. Key paths
    /// through to-one relationships would need joins an `UPDATE` cannot have, so they are
    /// refused, as is whatever the translator refuses.
    ///
    /// ```swift
    /// let value = try compiler.rowValue(try Expression(format: "score + 1"), entity: "Person")
    /// // value.piece.sql: og_arithmetic(?, t0."ZSCORE", ?)
    /// ```
    func rowValue(_ expression: Expression, entity: String) throws(SQLTranslationError)
        -> SQLFragment
    {
        let table = try schema.entity(entity).tableName
        let context = SQLSelectContext(from: SQLPiece(quoteIdentifier(table) + " AS t0"))
        let translator = SQLPredicateTranslator(schema: schema)
        let scope = SQLScope(
            object: SQLObjectScope(alias: "t0", entity: entity, context: context), variables: [:])
        let value = try translator.scalar(expression, scope)
        guard context.tableCount == 1 else {
            throw .unsupported(
                expression.description, reason: "a batch update reads only the row's own values")
        }
        return value
    }
}
