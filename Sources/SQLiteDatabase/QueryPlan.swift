/// SQLite's plan for a query (`EXPLAIN QUERY PLAN`) as a tree of steps: which tables it scans,
/// which indexes it searches, where it sorts. Made by ``Database/queryPlan(sql:arguments:)``.
///
/// ```swift
/// let plan = try db.queryPlan(sql: "SELECT * FROM player WHERE name = ?", arguments: ["Ann"])
/// print(plan)
/// // QUERY PLAN
/// // └─ SEARCH player USING INDEX player_name (name=?)  [index player_name]
/// plan.usesIndex("player_name")  // true
/// ```
public struct QueryPlan: Sendable, Hashable, CustomStringConvertible {
    /// One step of the plan, with the steps SQLite nests under it.
    public struct Step: Sendable, Hashable {
        /// SQLite's text for the step (`SCAN t0`, `SEARCH t0 USING INDEX i (a=?)`, `USE TEMP
        /// B-TREE FOR ORDER BY`, …).
        public var detail: String
        /// The steps under this one (a subquery's, a compound's parts).
        public var children: [Step]

        /// Creates a step.
        public init(detail: String, children: [Step] = []) {
            self.detail = detail
            self.children = children
        }

        /// Whether the step reads every row of a table (`SCAN`), in index order when it names
        /// an index.
        public var isScan: Bool {
            detail.hasPrefix("SCAN ")
        }

        /// The index the step reads through (`USING INDEX name`, `USING COVERING INDEX name`),
        /// `"INTEGER PRIMARY KEY"` for a row-id lookup, or `nil`.
        public var indexName: String? {
            for marker in ["USING COVERING INDEX ", "USING INDEX "] {
                guard let range = detail.range(of: marker) else { continue }
                let name = detail[range.upperBound...].prefix { $0 != " " }
                return name.isEmpty ? nil : String(name)
            }
            if detail.contains("USING INTEGER PRIMARY KEY")
                || detail.contains("USING ROWID SEARCH")
            {
                return "INTEGER PRIMARY KEY"
            }
            return nil
        }

        /// What the step does, in words: `every row is read`, `rows found through index X`,
        /// `sorted in a temporary tree: no index gives this order`; `nil` for other steps.
        public var gloss: String? {
            if detail.hasPrefix("USE TEMP B-TREE FOR") {
                return "sorted or grouped in a temporary tree: no index gives this order"
            }
            if isScan {
                if let indexName { return "every row is read, in the order of index \(indexName)" }
                return "every row is read"
            }
            if detail.hasPrefix("SEARCH "), let indexName {
                return indexName == "INTEGER PRIMARY KEY"
                    ? "rows found by primary key" : "rows found through index \(indexName)"
            }
            return nil
        }

        /// The step, then its children, as indented lines.
        func lines(prefix: String, isLast: Bool) -> [String] {
            let head =
                prefix + (isLast ? "└─ " : "├─ ") + detail + (gloss.map { "  [\($0)]" } ?? "")
            let inner = prefix + (isLast ? "   " : "│  ")
            return [head]
                + children.enumerated().flatMap { index, child in
                    child.lines(prefix: inner, isLast: index == children.count - 1)
                }
        }
    }

    /// The top steps, in SQLite's order.
    public var steps: [Step]

    /// Creates a plan from its top steps.
    public init(steps: [Step]) {
        self.steps = steps
    }

    /// Every step, depth first.
    public var allSteps: [Step] {
        func walk(_ steps: [Step]) -> [Step] { steps.flatMap { [$0] + walk($0.children) } }
        return walk(steps)
    }

    /// The indexes the steps read through, in step order (see ``Step/indexName``).
    public var indexNames: [String] {
        allSteps.compactMap(\.indexName)
    }

    /// Whether a step reads through the index `name`.
    public func usesIndex(_ name: String) -> Bool {
        indexNames.contains(name)
    }

    /// Whether a step reads every row of a table.
    public var scansTable: Bool {
        allSteps.contains(where: \.isScan)
    }

    /// The plan drawn as a tree, headed `QUERY PLAN` as in the `sqlite3` shell, each step
    /// followed by what it does in words.
    public var lines: [String] {
        ["QUERY PLAN"]
            + steps.enumerated().flatMap { index, step in
                step.lines(prefix: "", isLast: index == steps.count - 1)
            }
    }

    /// ``lines``, joined with newlines.
    public var description: String {
        lines.joined(separator: "\n")
    }
}
