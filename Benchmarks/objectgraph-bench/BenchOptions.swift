import Foundation

/// The benchmark's command line.
///
///     objectgraph-bench [--n 100000] [--json] [--repeat 3] [--queries 1000]
///                       [--query-budget 120] [--undo-cost]
///
/// The hidden `--side objectgraph|raw --op OP --dir DIR` form runs one operation of one side
/// in this (child) process; the parent starts one child per side and operation.
struct BenchOptions {
    /// People inserted (teams: n / 100).
    var n = 100_000
    /// One JSON line per operation instead of the table.
    var json = false
    /// How many times each operation runs on each side (alternately, each run from the same
    /// store); the medians are reported.
    var repetitions = 3
    /// How many `query` fetches to run at most.
    var queries = 1000
    /// Seconds after which ObjectGraph's `query` loop stops early (the raw side then runs the
    /// same number of fetches); reported as the `queries` count.
    var queryBudget = 120.0
    /// Also measure `insert` with an undo manager recording every change.
    var undoCost = false
    /// Child mode: the side to run.
    var side: Side?
    /// Child mode: the operation to run.
    var operation: String?
    /// Child mode: the folder holding the side's store file.
    var directory: String?
    /// Child mode: give the ObjectGraph context an undo manager.
    var withUndo = false
    /// Child mode: the ObjectGraph store type (`sqlite`, `binary`, `xml`, `postgres`); in the
    /// parent, `postgres` runs the PostgreSQL comparison (``PostgresBenchmarkRun``).
    var store = "sqlite"
    /// The PostgreSQL database (`--url`; the parent: instead of a private server; a child:
    /// its side's store, `schema=` naming its schema).
    var url: String?
    /// Child mode, `pg_saver`: which writer this is, of how many, and when (seconds since
    /// 1970) they all start.
    var writer = 0
    var writers = 1
    var startAt = 0.0
    /// Skip the store-type section (load and save in each store type).
    var skipStores = false
    /// The operations to run (`--ops`): those of ``Workload/operations``, `typed_access` and
    /// `live_update`;
    /// `nil` means all.
    var selectedOperations: Set<String>?

    /// The environment variable `--history` sets for the children it starts.
    static let historyVariable = "OBJECTGRAPH_BENCH_HISTORY"

    /// Whether ObjectGraph's stores are opened with persistent history on (`--history`).
    static var tracksHistory: Bool {
        ProcessInfo.processInfo.environment[historyVariable] == "1"
    }

    /// Every operation `--ops` can name.
    static let allOperations =
        Workload.operations + Workload.freshStoreOperations + [
            "typed_access", "live_update", "concurrent_save",
        ]

    /// Whether `operation` is to run.
    func runs(_ operation: String) -> Bool {
        selectedOperations?.contains(operation) ?? true
    }

    /// The two implementations measured.
    enum Side: String, CaseIterable {
        case objectGraph = "objectgraph"
        case raw
    }

    static let usage = """
        usage: objectgraph-bench [--n N] [--json] [--repeat K] [--queries Q] \
        [--query-budget SECONDS] [--undo-cost]
          --n N                  people to insert (default 100000; teams: N/100)
          --json                 one JSON line per operation
          --repeat K             run each operation K times per side, alternating, each from
                                 the same store, and report the medians (default 3)
          --queries Q            query fetches (and aggregate fetches) to run (default 1000)
          --query-budget SECONDS stop ObjectGraph's query loop after this long (default 120);
                                 the raw side runs the same count, reported as "queries"
          --undo-cost            also time insert with an undo manager on the context
          --no-stores            skip the load/save comparison of SQLite, binary and XML stores
          --history              open ObjectGraph's SQLite stores with persistent history on
                                 (the raw side is unchanged), to measure what recording costs
          --store postgres       compare ObjectGraph's PostgreSQL store with raw libpq instead
                                 (insert, fetch_all, query, update_all, prefetch, aggregate,
                                 delete_all, batch_insert, batch_update, batch_delete, then
                                 concurrent_import and migrate in fresh schemas, then
                                 concurrent_save: 1 process saving against 4), on a private
                                 server (initdb in a temporary folder, Unix socket)
          --url URL              the same on the database URL names (schemas bench_* are
                                 made and dropped there)
          --ops LIST             run only these operations (comma-separated: insert, fetch_all,
                                 query, update_all, prefetch, aggregate, delete_all,
                                 batch_insert, batch_update, batch_delete, concurrent_import,
                                 migrate, typed_access, live_update, concurrent_save; an
                                 operation works on the file the earlier ones left)
        """

    /// Parses `arguments` (without the program name).
    init(arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let next = rest.popFirst() else {
                throw BenchError.usage("\(flag) needs a value")
            }
            return next
        }
        func positive(_ flag: String) throws -> Int {
            let text = try value(flag)
            guard let number = Int(text), number > 0 else {
                throw BenchError.usage("\(flag) needs a positive integer, not '\(text)'")
            }
            return number
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--n": n = try positive(flag)
            case "--json": json = true
            case "--repeat": repetitions = try positive(flag)
            case "--queries": queries = try positive(flag)
            case "--query-budget":
                let text = try value(flag)
                guard let seconds = Double(text), seconds > 0 else {
                    throw BenchError.usage("--query-budget needs positive seconds, not '\(text)'")
                }
                queryBudget = seconds
            case "--undo-cost": undoCost = true
            case "--side":
                let text = try value(flag)
                guard let chosen = Side(rawValue: text) else {
                    throw BenchError.usage("--side is objectgraph or raw, not '\(text)'")
                }
                side = chosen
            case "--op":
                let text = try value(flag)
                guard
                    Workload.operations.contains(text)
                        || Workload.freshStoreOperations.contains(text)
                        || ["open", "save", "resave", "fetch_drop", "pg_saver", "pg_create"]
                            .contains(text)
                        || LiveUpdate.operations.contains(text)
                else {
                    throw BenchError.usage("unknown --op '\(text)'")
                }
                operation = text
            case "--dir": directory = try value(flag)
            case "--undo": withUndo = true
            case "--store": store = try value(flag)
            case "--url":
                url = try value(flag)
                store = "postgres"
            case "--writer": writer = try positive(flag) - 1
            case "--writers": writers = try positive(flag)
            case "--start-at":
                let text = try value(flag)
                guard let seconds = Double(text) else {
                    throw BenchError.usage("--start-at needs seconds since 1970, not '\(text)'")
                }
                startAt = seconds
            case "--no-stores": skipStores = true
            case "--history":
                // Children inherit the environment: each ObjectGraph side then tracks history.
                setenv(Self.historyVariable, "1", 1)
            case "--ops":
                let names = try value(flag).split(separator: ",").map(String.init)
                if let unknown = names.first(where: { !Self.allOperations.contains($0) }) {
                    throw BenchError.usage("unknown operation '\(unknown)' in --ops")
                }
                selectedOperations = Set(names)
            case "--help", "-h": throw BenchError.help
            default: throw BenchError.usage("unknown argument '\(flag)'")
            }
        }
    }
}
