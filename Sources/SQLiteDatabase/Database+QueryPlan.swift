extension Database {
    /// SQLite's plan for running `sql` with `arguments` (`EXPLAIN QUERY PLAN`), as a tree. The
    /// statement is prepared, not run.
    ///
    /// ```swift
    /// let plan = try db.queryPlan(sql: "SELECT * FROM player ORDER BY score")
    /// plan.scansTable  // true: no index on score
    /// ```
    ///
    /// - Throws: ``DatabaseError`` when `sql` does not prepare (naming the SQL).
    public func queryPlan(sql: String, arguments: StatementArguments = []) throws -> QueryPlan {
        let rows = try makeStatement(sql: "EXPLAIN QUERY PLAN " + sql).fetchAll(
            arguments: arguments)
        // Columns: id, parent, notused, detail; a step's parent is listed before it.
        var details: [Int: String] = [:]
        var childrenOf: [Int: [Int]] = [:]
        for row in rows {
            let id = try row.decode(Int.self, at: 0)
            details[id] = try row.decode(String.self, at: 3)
            childrenOf[try row.decode(Int.self, at: 1), default: []].append(id)
        }
        func steps(under parent: Int, depth: Int) -> [QueryPlan.Step] {
            // SQLite's ids grow down the tree; the depth bound guards against a cycle.
            guard depth < 1_000 else { return [] }
            return (childrenOf[parent] ?? []).compactMap { id in
                guard id != parent, let detail = details[id] else { return nil }
                return QueryPlan.Step(detail: detail, children: steps(under: id, depth: depth + 1))
            }
        }
        return QueryPlan(steps: steps(under: 0, depth: 0))
    }
}
