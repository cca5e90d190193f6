import Foundation

/// `--store postgres` (or `--url URL`): the workload's operations through ObjectGraph's
/// PostgreSQL store against raw libpq (``RawPostgresRunner``), each side in its own schema of
/// one database on the benchmark's own server (``BenchPostgresServer``) or the one `--url`
/// names, each side and operation in its own child process as for SQLite. With `--repeat K`
/// the whole chain runs K times in fresh schemas and the medians are reported. Then the
/// fresh-store operations, as for SQLite: `concurrent_import` (``ConcurrentImportRunner`` on a
/// `.postgres` store against ``RawPostgresConcurrentImport``) and `migrate`
/// (``PostgresMigrateBenchmark``), each run in fresh schemas; then `concurrent_save`: the
/// throughput of 1 process saving against 4 at once, on each side.
struct PostgresBenchmarkRun {
    let options: BenchOptions
    let launcher = ChildLauncher()

    /// The operations, in the order they run (each on what the previous ones left).
    static let operations =
        ["insert", "fetch_all", "query", "update_all", "prefetch", "aggregate", "delete_all"]
        + BatchBenchmark.operations

    /// `url` with `schema=` set to `schema` (or removed when `nil`).
    static func url(_ url: String, schema: String?) throws -> String {
        guard var components = URLComponents(string: url) else {
            throw BenchError.usage("--url '\(url)' is no URL")
        }
        var items = (components.queryItems ?? []).filter { $0.name != "schema" }
        if let schema { items.append(URLQueryItem(name: "schema", value: schema)) }
        components.queryItems = items.isEmpty ? nil : items
        guard let text = components.string else { throw BenchError.usage("--url '\(url)'") }
        return text
    }

    func run() throws {
        let server = options.url == nil ? try BenchPostgresServer() : nil
        defer { server?.stop() }
        let base = try Self.url(options.url ?? server?.url ?? "", schema: nil)
        let scratch = FileManager.default.temporaryDirectory
        let tag = "\(ProcessInfo.processInfo.processIdentifier)"
        var schemas: [String] = []
        defer { Self.drop(schemas, conninfo: base) }
        if !options.json {
            print(
                "PostgreSQL: " + (options.url == nil ? "a private server (Unix socket)" : "--url")
                    + "; ObjectGraph's .postgres store against raw libpq (prepared statements, one"
                    + " transaction per writing operation)")
            print(Report.header(n: options.n, repetitions: options.repetitions))
        }
        var runs: [String: (objectGraph: [SideResult], raw: [SideResult])] = [:]
        var queries = options.queries
        for repetition in 0..<options.repetitions {
            let ogSchema = "bench_og_\(tag)_\(repetition)"
            let rawSchema = "bench_raw_\(tag)_\(repetition)"
            schemas += [ogSchema, rawSchema]
            for operation in Self.operations where options.runs(operation) {
                let objectGraph = try launcher.run(
                    side: .objectGraph, operation: operation, n: options.n, directory: scratch,
                    queries: queries, budget: options.queryBudget, store: "postgres",
                    extra: ["--url", try Self.url(base, schema: ogSchema)])
                if operation == "query" && repetition == 0 { queries = objectGraph.count }
                let raw = try launcher.run(
                    side: .raw, operation: operation, n: options.n, directory: scratch,
                    queries: operation == "query" ? objectGraph.count : queries,
                    budget: options.queryBudget, store: "postgres",
                    extra: ["--url", try Self.url(base, schema: rawSchema)])
                guard objectGraph.checksum == raw.checksum, objectGraph.count == raw.count else {
                    throw BenchError.mismatch(
                        "\(operation): objectgraph checksum \(objectGraph.checksum) over "
                            + "\(objectGraph.count), raw \(raw.checksum) over \(raw.count)")
                }
                runs[operation, default: ([], [])].objectGraph.append(objectGraph)
                runs[operation, default: ([], [])].raw.append(raw)
            }
        }
        for operation in Self.operations {
            guard let sides = runs[operation], let objectGraph = SideResult.median(of: sides.0),
                let raw = SideResult.median(of: sides.1)
            else { continue }
            let measurement = Measurement(
                operation: operation, n: options.n, objectGraph: objectGraph, raw: raw,
                queries: operation == "query" ? queries : nil)
            print(options.json ? Report.json(measurement) : Report.text(measurement))
        }
        try measureFreshStores(base: base, tag: tag, schemas: &schemas)
        if options.runs("concurrent_save") {
            try measureSavers(base: base, tag: tag, schemas: &schemas)
        }
    }

    /// `concurrent_import` and `migrate` (``Workload/freshStoreOperations``): each run of each
    /// side in a fresh schema of its own (`migrate`'s filled first by an untimed `insert` child
    /// of that side), sides alternating, `--repeat` times; the medians are reported.
    private func measureFreshStores(base: String, tag: String, schemas: inout [String]) throws {
        for operation in Workload.freshStoreOperations where options.runs(operation) {
            var objectGraphRuns: [SideResult] = []
            var rawRuns: [SideResult] = []
            for repetition in 0..<options.repetitions {
                var results: [BenchOptions.Side: SideResult] = [:]
                for side in BenchOptions.Side.allCases {
                    let schema = "bench_\(operation)_\(side.rawValue)_\(tag)_\(repetition)"
                    schemas.append(schema)
                    let extra = ["--url", try Self.url(base, schema: schema)]
                    if operation == "migrate" {
                        _ = try launcher.run(
                            side: side, operation: "insert", n: options.n, directory: scratch,
                            queries: 1, budget: 1, store: "postgres", extra: extra)
                    }
                    results[side] = try launcher.run(
                        side: side, operation: operation, n: options.n, directory: scratch,
                        queries: 1, budget: 1, store: "postgres", extra: extra)
                }
                guard let objectGraph = results[.objectGraph], let raw = results[.raw] else {
                    throw BenchError.failed("\(operation): no run")
                }
                guard objectGraph.checksum == raw.checksum, objectGraph.count == raw.count else {
                    throw BenchError.mismatch(
                        "\(operation): objectgraph checksum \(objectGraph.checksum) over "
                            + "\(objectGraph.count), raw \(raw.checksum) over \(raw.count)")
                }
                objectGraphRuns.append(objectGraph)
                rawRuns.append(raw)
            }
            guard let objectGraph = SideResult.median(of: objectGraphRuns),
                let raw = SideResult.median(of: rawRuns)
            else { continue }
            let measurement = Measurement(
                operation: operation, n: options.n, objectGraph: objectGraph, raw: raw,
                queries: nil)
            print(options.json ? Report.json(measurement) : Report.text(measurement))
        }
    }

    /// `concurrent_save`: 1 writer process, then 4 at once, on each side, each into a fresh
    /// store; prints the people saved per second and the speed-up.
    private func measureSavers(base: String, tag: String, schemas: inout [String]) throws {
        if !options.json {
            print(
                "\nconcurrent_save: n people saved by 1 process, then by 4 processes at once (each"
                    + " its own connection, coordinator and context; a save per"
                    + " \(Workload.importBatch)); time from the first writer's start to the last"
                    + " commit")
            print("side         1 proc/s   4 procs/s  speed-up")
        }
        for side in BenchOptions.Side.allCases {
            var throughput: [Int: Double] = [:]
            for writers in [1, Workload.importWriters] {
                let schema = "bench_save_\(side.rawValue)_\(writers)_\(tag)"
                schemas.append(schema)
                let url = try Self.url(base, schema: schema)
                if side == .raw {
                    try RawPostgresRunner.createTables(conninfo: base, schema: schema)
                }
                let results = try launchSavers(side: side, writers: writers, url: url)
                let count = results.reduce(0) { $0 + $1.count }
                guard count == options.n else {
                    throw BenchError.mismatch("concurrent_save: \(count) of \(options.n) saved")
                }
                let first = results.map(\.startedAt).min() ?? 0
                let last = results.map { $0.startedAt + $0.seconds }.max() ?? 0
                throughput[writers] = last > first ? Double(count) / (last - first) : 0
            }
            let one = throughput[1] ?? 0
            let four = throughput[Workload.importWriters] ?? 0
            let speedUp = one > 0 ? four / one : 0
            print(
                options.json
                    ? "{\"op\": \"concurrent_save\", \"side\": \"\(side.rawValue)\", \"n\":"
                        + " \(options.n), \"one_process_per_s\": \(one), \"four_processes_per_s\":"
                        + " \(four), \"speed_up\": \(speedUp)}"
                    : side.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)
                        + String(format: "%-10.0f %-10.0f %.2f", one, four, speedUp))
        }
    }

    /// Starts `writers` children of `side` at once, all starting their clocks at one moment
    /// (a few seconds ahead, so every child has connected), and reads their results.
    private func launchSavers(side: BenchOptions.Side, writers: Int, url: String) throws
        -> [SideResult]
    {
        if side == .objectGraph {
            // The store is made once, before the writers (each then only opens it).
            _ = try launcher.run(
                side: .objectGraph, operation: "pg_create", n: options.n, directory: scratch,
                queries: 1, budget: 1, store: "postgres", extra: ["--url", url])
        }
        let startAt = Date().timeIntervalSince1970 + 3
        let children = try (0..<writers).map { writer in
            try launcher.start(
                side: side, operation: "pg_saver", n: options.n, directory: scratch,
                store: "postgres",
                extra: [
                    "--url", url, "--writer", String(writer + 1), "--writers", String(writers),
                    "--start-at", String(startAt),
                ])
        }
        return try children.map { try $0.finish() }
    }

    private var scratch: URL { FileManager.default.temporaryDirectory }

    /// Drops the benchmark's schemas (best effort).
    private static func drop(_ schemas: [String], conninfo: String) {
        guard !schemas.isEmpty, let db = try? RawPostgres(conninfo: conninfo, schema: "public")
        else { return }
        for schema in schemas { try? db.execute("DROP SCHEMA IF EXISTS \"\(schema)\" CASCADE") }
    }
}
