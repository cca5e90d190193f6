/// A batch change a store may run by itself, in its own language (the SQLite store in SQL),
/// without reading the rows out: what a batch delete or a batch update of constant values asks
/// of the one store holding its entities.
enum StoreBatch {
    /// Delete the rows `query` matches, applying the model's delete rules: cascade
    /// relationships delete their targets, deny relationships holding a row that stays refuse
    /// the whole batch (``ValidationError``, rule `deleteDenied`), and the rows left alive
    /// drop the deleted rows from their inverse relationships (their versions go up).
    case delete(StoreQuery)
    /// Set the attributes at the given positions to the given values (already converted to
    /// the attributes' types and checked against the model) on the rows `query` matches,
    /// raising each row's version.
    case update(StoreQuery, values: [(position: Int, value: Value)])
    /// Set the attributes at the given positions to the values of expressions of each row
    /// (`score + 1`), each read from the row as it was; the store runs it only when its
    /// answers are the evaluator's for every row (else `nil`, and the caller evaluates the
    /// rows), raising each row's version.
    case updateExpressions(StoreQuery, expressions: [(position: Int, expression: Expression)])
}

/// What a store's ``StoreBatch`` changed: the IDs the caller reports and merges, per kind.
struct StoreBatchOutcome {
    /// The rows deleted (the matched ones first, then those deleted by cascade).
    var deleted: [ObjectID] = []
    /// The rows updated: a batch update's matched rows, or the rows a batch delete changed
    /// by nullifying their relationships.
    var updated: [ObjectID] = []
}
