// objectgraph-bench: the same workload through ObjectGraph's SQLite store and through
// hand-written sqlite3 calls, timed per operation in the same run.
//
//     swift run -c release objectgraph-bench [--n 100000] [--json] [--queries 1000]
//                                            [--query-budget 120] [--undo-cost]
//
// Method.
// - Each run makes a fresh temporary folder with one store file per side; the operations run
//   in order (insert, fetch_all, query, update_all, prefetch, delete_all), each on the file
//   the previous ones left; then `concurrent_import`, on a fresh file of its own.
// - Memory: the parent starts one child process (this executable with the hidden
//   `--side objectgraph|raw --op OP --dir DIR` flags) per side and operation; each child opens
//   its side's file, times the operation, and reports its own peak RSS (VmHWM from
//   /proc/self/status, else getrusage's ru_maxrss), so each number is that side's alone. Both
//   sides share the process baseline (Foundation, SQLite; VmRSS before opening the store, also
//   reported), so the table shows the ratio of peaks and the ratio of growth above baseline.
// - Timing: wall-clock (the ratios) and user+system CPU time (the cpu ratio, steadier on a
//   loaded machine). Opening the store is not timed; tearing down afterwards is not either
//   (ObjectGraph's context and the raw side's rows are kept alive until the clock stops).
// - ObjectGraph runs in its default configuration (no undo manager, as Core Data's contexts);
//   `--undo-cost` times insert once more with an undo manager recording every change.
// - Raw runs prepared sqlite3 statements on the same Core Data layout (same tables, columns,
//   indexes, Z_PRIMARYKEY, WAL, auto_vacuum), one transaction per writing operation, checking
//   and bumping Z_OPT per row. It reads rows into plain structs; `query` uses the name index
//   as a range (`ZNAME >= 'J' AND ZNAME < 'K'`, BEGINSWITH's binary meaning); `update_all` and
//   `delete_all` read only the columns they need; `prefetch` reads teams, then every member in
//   one query, grouped by team.
// - `query` runs `--queries` fetches, ObjectGraph stopping early after `--query-budget`
//   seconds; the raw side then runs the same number, reported as `queries`.
// - `concurrent_import`: 4 writers each insert n/4 people (the `insert` shape, with teams of
//   their own), committing every 1,000, while the main thread counts the people every 10 ms.
//   ObjectGraph: 4 `BackgroundContext`s on one coordinator, each driven by a thread through
//   `performAndWait`, and a main-queue context with `automaticallyMergesChangesFromParent`
//   counting (the clock stops once it has merged every save). Raw: 4 threads with a sqlite3
//   connection each (WAL, 10 s busy timeout), keys taken from Z_PRIMARYKEY per transaction,
//   and a fifth connection counting.
// - `migrate` (fresh store, filled untimed): n people migrated in place to a model with
//   `rating` (Integer 16, default 0) added and `email` renamed; raw does the same table rebuild
//   in hand-written SQL (see MigrateBenchmark.swift). `--ops migrate` runs it alone.
// - Both sides return a checksum of what they read or wrote; a difference is an error.
// - Store types: after the table, ObjectGraph alone saves (only `save()` is timed, after
//   untimed inserts), opens (an atomic store loads its whole file) and fetches every person of
//   the same graph in a SQLite, a binary and an XML store, each step in its own child with its
//   peak memory (`--no-stores` skips it).
// - `--side objectgraph --op fetch_drop --dir DIR` (a child alone, on the store an `insert`
//   child left in DIR) fetches and reads every person, lets the objects go, and prints how
//   many objects the context still holds and its resident memory before and after.
// - `live_update` (after the table): ObjectGraph alone. A fetched-results controller holds
//   every person by name; one is renamed to move from the middle to the top; the controller's
//   update (the context's processPendingChanges, its only observer) is timed against a plain
//   refetch of the same request in the same context, each in its own child on a store an
//   untimed insert child made (target ratio ≤ 0.1). `--ops live_update` runs it alone.
// - `--store postgres` (or `--url URL`): insert, fetch_all, query, update_all, prefetch,
//   aggregate, delete_all, batch_insert, batch_update and batch_delete through ObjectGraph's
//   PostgreSQL store against raw libpq (RawPostgresRunner, RawPostgresBatch: the store's
//   tables, statements prepared once, one transaction per writing operation, Z_OPT checked
//   per row or bumped by the batch), each side in a schema of its own on a private server the
//   benchmark starts (initdb in a temporary folder, Unix socket only; BenchPostgresServer) or
//   on the database --url names; `--repeat K` runs the chain K times in fresh schemas. Then,
//   as for SQLite, each in fresh schemas: `concurrent_import` (4 background contexts on one
//   coordinator of a `.postgres` store against 4 threads with a libpq connection each, sending
//   the SQL the store sends per save: RawPostgresConcurrentImport) and `migrate` (a store
//   filled by an untimed insert child, migrated by the coordinator's automatic migration
//   against the same staging-schema rebuild in hand-written SQL: PostgresMigrateBenchmark).
//   Then `concurrent_save`: n people saved by 1 process, then by 4 at once (PostgresSavers).
// - Failures print the error and exit 1; usage errors exit 2.

import Foundation
import ObjectGraph

func runChild(_ options: BenchOptions, side: BenchOptions.Side) throws {
    guard let operation = options.operation, let directory = options.directory else {
        throw BenchError.usage("--side needs --op and --dir")
    }
    if options.store == "postgres" { try runPostgresChild(options, side: side) }
    // `--store` is `sqlite`, `binary` or `xml`: also the store file's extension.
    guard let storeType = StoreType(fileExtension: options.store) else {
        throw BenchError.usage("--store takes sqlite, binary or xml, not '\(options.store)'")
    }
    let url = URL(fileURLWithPath: directory).appendingPathComponent("Bench.\(options.store)")
    let baseline = PeakMemory.currentKilobytes()
    // What the operation kept (its context, objects or rows) stays alive to the end: the
    // child exits without tearing it down (untimed anyway), so a profile of the child is its
    // operation's.
    let retained = Retained()
    var result: SideResult
    switch side {
    case .objectGraph:
        result = try ObjectGraphRunner(
            n: options.n, url: url, withUndoManager: options.withUndo,
            storeType: storeType, retained: retained
        )
        .run(operation, queries: options.queries, budget: options.queryBudget)
    case .raw:
        result = try RawSQLiteRunner(n: options.n, path: url.path, retained: retained)
            .run(operation, queries: options.queries)
    }
    result.peakRSSKB = PeakMemory.kilobytes()
    result.baselineRSSKB = baseline
    print(result.line)
    fflush(nil)
    _ = Unmanaged.passRetained(retained)  // never released: the process ends here
    exit(0)
}

/// A child of the PostgreSQL comparison: one side's operation on the store `--url` names.
func runPostgresChild(_ options: BenchOptions, side: BenchOptions.Side) throws -> Never {
    guard let operation = options.operation, let text = options.url, let url = URL(string: text)
    else { throw BenchError.usage("--store postgres needs --op and --url") }
    let baseline = PeakMemory.currentKilobytes()
    let retained = Retained()
    let schema =
        URLComponents(string: text)?.queryItems?.first { $0.name == "schema" }?.value ?? "public"
    let conninfo = try PostgresBenchmarkRun.url(text, schema: nil)
    var result: SideResult
    switch (side, operation) {
    case (.objectGraph, "concurrent_import"):
        result = try ConcurrentImportRunner(
            n: options.n, url: url, storeType: .postgres, retained: retained
        ).run()
    case (.objectGraph, "migrate"):
        result = try PostgresMigrateBenchmark.objectGraph(
            url: url, conninfo: conninfo, schema: schema)
    case (.raw, "concurrent_import"):
        result = try RawPostgresConcurrentImport(n: options.n, conninfo: conninfo, schema: schema)
            .run()
    case (.raw, "migrate"):
        result = try PostgresMigrateBenchmark.raw(conninfo: conninfo, schema: schema)
    case (.objectGraph, "pg_create"):
        try StoreCoordinator(model: Workload.model()).addStore(type: .postgres, at: url)
        result = SideResult(seconds: 0, checksum: 0, count: 0)
    case (.objectGraph, "pg_saver"):
        result = try PostgresSavers.objectGraph(
            url: url, n: options.n, writer: options.writer, writers: options.writers,
            startAt: options.startAt)
    case (.objectGraph, _):
        result = try ObjectGraphRunner(
            n: options.n, url: url, withUndoManager: false, storeType: .postgres,
            retained: retained
        ).run(operation, queries: options.queries, budget: options.queryBudget)
    case (.raw, _):
        result = try RawPostgresRunner(
            n: options.n, conninfo: conninfo, schema: schema, retained: retained
        ).run(
            operation, queries: options.queries, writer: options.writer,
            writers: options.writers, startAt: options.startAt)
    }
    result.peakRSSKB = PeakMemory.kilobytes()
    result.baselineRSSKB = baseline
    print(result.line)
    fflush(nil)
    _ = Unmanaged.passRetained(retained)
    exit(0)
}

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data(("objectgraph-bench: " + message + "\n").utf8))
    exit(status)
}

do {
    let options = try BenchOptions(arguments: Array(CommandLine.arguments.dropFirst()))
    if let side = options.side {
        try runChild(options, side: side)
    } else if options.store == "postgres" {
        try PostgresBenchmarkRun(options: options).run()
    } else {
        try BenchmarkRun(options: options).run()
    }
} catch BenchError.help {
    print(BenchOptions.usage)
} catch let error as BenchError {
    if case .usage = error { fail("\(error)\n" + BenchOptions.usage, status: 2) }
    fail("\(error)", status: 1)
} catch {
    fail("\(error)", status: 1)
}
