import SQLiteDatabase

/// How a store answers a fetch: the SQL it runs, SQLite's plan for it (which index, which
/// scans), and which parts are evaluated in memory, and why. Made by
/// ``ManagedContext/explain(_:)`` and printed by `objectgraph query --explain`.
///
/// ```swift
/// let explanation = try context.explain(FetchRequest(entityName: "Person", predicate: "age > 30"))
/// print(explanation)
/// // fetch Person from the SQLite store
/// // sql: SELECT … FROM "ZPERSON" AS t0 WHERE t0."ZAGE" > ?
/// // arguments: 30
/// // QUERY PLAN
/// // └─ SEARCH t0 USING INDEX ZPERSON_ZAGE_INDEX (ZAGE>?)  [rows found through index …]
/// // in memory: nothing
/// ```
public struct FetchExplanation: Sendable, Hashable, CustomStringConvertible {
    /// A statement the store runs for the fetch, with SQLite's plan for it.
    public struct SQLStatement: Sendable, Hashable {
        /// What the statement is for (`the fetch`, or reading the rows the evaluator filters).
        public var purpose: String
        /// The SQL text; values are `?` placeholders.
        public var sql: String
        /// The bound values, in placeholder order, as SQL-like text (`30`, `'Ann'`).
        public var arguments: [String]
        /// SQLite's plan for the statement.
        public var plan: QueryPlan

        /// Creates a statement.
        public init(purpose: String, sql: String, arguments: [String], plan: QueryPlan) {
            self.purpose = purpose
            self.sql = sql
            self.arguments = arguments
            self.plan = plan
        }
    }

    /// A part of a fetch evaluated in memory rather than by the store's SQL.
    public struct InMemoryPart: Sendable, Hashable {
        /// The part: a predicate or sort, the whole fetch, or the context's unsaved changes.
        public var part: String
        /// Why it is evaluated in memory.
        public var reason: String

        /// Creates a part.
        public init(part: String, reason: String) {
            self.part = part
            self.reason = reason
        }
    }

    /// The fetched entity's name.
    public var entityName: String
    /// The type of the store that answers, or `nil` when the entities are in several stores.
    public var storeType: StoreType?
    /// The statements the store runs, in order (empty for a store that does not run SQL).
    public var statements: [SQLStatement]
    /// The parts evaluated in memory, and why (empty when SQL answers the whole fetch).
    public var inMemory: [InMemoryPart]

    /// Creates an explanation.
    public init(
        entityName: String, storeType: StoreType?, statements: [SQLStatement] = [],
        inMemory: [InMemoryPart] = []
    ) {
        self.entityName = entityName
        self.storeType = storeType
        self.statements = statements
        self.inMemory = inMemory
    }

    /// Whether the store's SQL answers the whole fetch (nothing is evaluated in memory).
    public var runsInSQL: Bool {
        !statements.isEmpty && inMemory.isEmpty
    }

    /// The plan of the first statement, or `nil` when the store runs none.
    public var queryPlan: QueryPlan? {
        statements.first?.plan
    }

    /// The explanation as lines: the store, each statement with its arguments and plan
    /// tree, then what is evaluated in memory.
    public var lines: [String] {
        var lines = [
            "fetch \(entityName) from "
                + (storeType.map { "the \($0) store" } ?? "several stores")
        ]
        for statement in statements {
            lines.append("sql (\(statement.purpose)): " + statement.sql)
            if !statement.arguments.isEmpty {
                lines.append("arguments: " + statement.arguments.joined(separator: ", "))
            }
            lines += statement.plan.lines
        }
        if inMemory.isEmpty {
            lines.append("in memory: nothing")
        }
        for part in inMemory {
            lines.append("in memory: \(part.part): " + Self.oneLine(part.reason))
        }
        return lines
    }

    /// ``lines``, joined with newlines.
    public var description: String {
        lines.joined(separator: "\n")
    }

    private static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
    }
}
