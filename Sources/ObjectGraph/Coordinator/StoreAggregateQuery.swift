/// A grouped or aggregate dictionary fetch a store may answer itself (the SQLite store
/// compiles it to one `SELECT … GROUP BY … HAVING … ORDER BY … LIMIT`).
///
/// The answer is defined by the in-memory evaluator: the rows of ``rows`` (its predicate and
/// entities; no order, no limits) in store order are grouped by ``groupKeys`` (groups in the
/// order of their first row; one group of every row when there are no keys, even of none),
/// each group gives one dictionary of ``columns``, ``having`` keeps some of them, they are
/// sorted stably by ``sortDescriptors`` (whose keys name columns), and ``offset`` and
/// ``limit`` apply last. Aggregates skip nil values: `count` counts the rest, `sum` of none is
/// the integer 0 (an integer when every value is one, else a double), `average` of none is
/// nil (else a double), `min`/`max` of none nil (else the value, under `SortDescriptor`'s
/// standard order).
///
/// ```swift
/// // SELECT t1."ZNAME", SUM(t0."ZSCORE") FROM "ZPERSON" AS t0 LEFT JOIN "ZTEAM" AS t1 …
/// //   GROUP BY t1."ZNAME" ORDER BY MIN(t0."Z_PK")
/// ```
struct StoreAggregateQuery: Sendable, Hashable {
    /// An aggregate function (a fetch request's, in the coordinator's terms).
    enum Function: String, Sendable, Hashable {
        /// How many non-nil values.
        case count
        /// Their sum.
        case sum
        /// The smallest.
        case min
        /// The largest.
        case max
        /// Their mean.
        case average
    }

    /// What a column of the result holds.
    enum Column: Sendable, Hashable {
        /// The group's value of the group key path (one of ``StoreAggregateQuery/groupKeys``).
        case groupValue(String)
        /// The function over the group's non-nil values of the expression.
        case aggregate(Function, Expression)
    }

    /// A named column of the result dictionaries.
    struct NamedColumn: Sendable, Hashable {
        /// The key of the column in each dictionary.
        var name: String
        /// What it holds.
        var column: Column
    }

    /// The entity, its family and the predicate of the rows aggregated (sort descriptors,
    /// offset and limit unused).
    var rows: StoreQuery
    /// The columns, in order.
    var columns: [NamedColumn]
    /// The key paths (attributes and to-one relationships, through to-one relationships) the
    /// rows are grouped by; empty: one group of every row.
    var groupKeys: [String]
    /// Which groups to keep; it names columns as variables (`$total`) or keys (`total`).
    var having: Predicate?
    /// The order of the result dictionaries, by column name, most significant first; ties
    /// (and everything when empty) in the order of each group's first row.
    var sortDescriptors: [SortDescriptor]
    /// Whether duplicate dictionaries are dropped (after sorting, keeping the first).
    var distinct: Bool
    /// Result dictionaries skipped first.
    var offset: Int
    /// At most this many result dictionaries (0: all).
    var limit: Int
}
