import Foundation

/// The parent process: runs every operation on both sides, each in a fresh child process on
/// its side's store file in a fresh temporary folder, checks that both sides read and wrote the
/// same values, and prints each result as it comes.
struct BenchmarkRun {
    let options: BenchOptions
    let launcher = ChildLauncher()

    func run() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "objectgraph-bench-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folders = [
            BenchOptions.Side.objectGraph: root.appendingPathComponent("objectgraph"),
            .raw: root.appendingPathComponent("raw"),
        ]
        for folder in folders.values {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        if !options.json {
            print(Report.header(n: options.n, repetitions: options.repetitions))
        }
        var insertMeasurement: Measurement?
        for operation in Workload.operations where options.runs(operation) {
            let measurement = try measure(operation, folders: folders)
            if operation == "insert" { insertMeasurement = measurement }
            print(options.json ? Report.json(measurement) : Report.text(measurement))
        }
        for operation in Workload.freshStoreOperations where options.runs(operation) {
            var fresh: [BenchOptions.Side: URL] = [:]
            for side in BenchOptions.Side.allCases {
                let folder = root.appendingPathComponent("\(operation)-\(side.rawValue)")
                try FileManager.default.createDirectory(
                    at: folder, withIntermediateDirectories: true)
                fresh[side] = folder
            }
            let measurement = try measure(operation, folders: fresh)
            print(options.json ? Report.json(measurement) : Report.text(measurement))
        }
        if options.runs("typed_access") { try measureTypedAccess() }
        if options.runs("live_update") { try measureLiveUpdate(root: root) }
        if !options.skipStores { try measureStores(root: root) }
        if options.undoCost, let insert = insertMeasurement {
            let folder = root.appendingPathComponent("objectgraph-undo")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let withUndo = try launcher.run(
                side: .objectGraph, operation: "insert", n: options.n, directory: folder,
                queries: options.queries, budget: options.queryBudget, withUndo: true)
            let line = String(
                format:
                    "insert with an undo manager: %.4f s wall, %.4f s CPU, peak %d KB"
                    + " (default context: %.4f s wall, %.4f s CPU, peak %d KB)",
                withUndo.seconds, withUndo.cpuSeconds, withUndo.peakRSSKB,
                insert.objectGraph.seconds, insert.objectGraph.cpuSeconds,
                insert.objectGraph.peakRSSKB)
            print(
                options.json
                    ? "{\"op\": \"insert_with_undo\", \"n\": \(options.n), "
                        + "\"objectgraph_s\": \(withUndo.seconds), "
                        + "\"objectgraph_cpu_s\": \(withUndo.cpuSeconds), "
                        + "\"peak_rss_kb\": \(withUndo.peakRSSKB)}"
                    : line)
        }
    }

    /// `typed_access`: a generated class's typed property against the string-keyed API (target:
    /// typed at least as fast, a ratio ≤ 1).
    private func measureTypedAccess() throws {
        let result = try TypedAccessBenchmark(n: options.n, repetitions: options.repetitions).run()
        let rows = [
            ("read", result.typedRead, result.stringRead),
            ("write", result.typedWrite, result.stringWrite),
            ("read+write", result.typedBoth, result.stringBoth),
            ("read, untracked", result.untrackedRead, result.untrackedStringRead),
        ]
        if !options.json {
            print(
                "\ntyped_access: one attribute of n loaded objects, a generated class's property"
                    + " vs person[\"age\"] / set(_:for:) (fastest of \(options.repetitions); target"
                    + " ratio <= 1)")
            print("access          typed s   string s  ratio (seconds per pass)")
        }
        for (name, typed, string) in rows {
            let ratio = string > 0 ? typed / string : 0
            print(
                options.json
                    ? "{\"op\": \"typed_access\", \"access\": \"\(name)\", \"n\": \(options.n), "
                        + "\"typed_s\": \(typed), \"string_s\": \(string), \"ratio\": \(ratio)}"
                    : name.padding(toLength: 16, withPad: " ", startingAt: 0)
                        + String(format: "%-9.6f %-9.6f %.3f", typed, string, ratio))
        }
    }

    /// Save (insert + save) and load (open + fetch every person) of the same graph in each
    /// store type: SQLite next to the binary and XML stores, with each child's peak memory.
    private func measureStores(root: URL) throws {
        if !options.json {
            print(
                "\nstore types: save = save() of n new people (inserting them is not timed);"
                    + " open = opening the store (an atomic store loads its whole file);"
                    + " fetch_all = then fetching every person; resave = saving one changed person"
                    + " (an atomic store rewrites its whole file)")
            print("store    op         seconds   cpu s     peak KB")
        }
        for store in ["sqlite", "binary", "xml"] {
            let folder = root.appendingPathComponent("store-\(store)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for operation in ["save", "open", "fetch_all", "resave"] {
                let label = operation
                let result = try launcher.run(
                    side: .objectGraph, operation: operation, n: options.n, directory: folder,
                    queries: options.queries, budget: options.queryBudget, store: store)
                if options.json {
                    print(
                        "{\"op\": \"\(store)_\(label)\", \"n\": \(options.n), "
                            + "\"objectgraph_s\": \(result.seconds), "
                            + "\"objectgraph_cpu_s\": \(result.cpuSeconds), "
                            + "\"peak_rss_kb\": \(result.peakRSSKB)}")
                } else {
                    print(
                        String(
                            format: "%@ %@ %9.4f %9.4f %9d",
                            store.padding(toLength: 8, withPad: " ", startingAt: 0),
                            label.padding(toLength: 10, withPad: " ", startingAt: 0),
                            result.seconds, result.cpuSeconds, result.peakRSSKB))
                }
            }
        }
    }

    private func measure(
        _ operation: String, folders: [BenchOptions.Side: URL]
    ) throws -> Measurement {
        guard let ogFolder = folders[.objectGraph], let rawFolder = folders[.raw] else {
            throw BenchError.failed("missing temporary folder")
        }
        // Each run starts from the store the operation found (the last run's store is what
        // the next operation finds: every run of an operation leaves the same one).
        let snapshots =
            options.repetitions > 1 ? try [ogFolder, rawFolder].map(StoreSnapshot.init) : []
        defer { snapshots.forEach { $0.discard() } }
        var ogRuns: [SideResult] = []
        var rawRuns: [SideResult] = []
        var queries = options.queries
        for run in 0..<options.repetitions {
            if run > 0 { try snapshots.forEach { try $0.restore() } }
            let objectGraph = try launcher.run(
                side: .objectGraph, operation: operation, n: options.n, directory: ogFolder,
                queries: run == 0 ? options.queries : queries, budget: options.queryBudget)
            // The raw side runs exactly as many queries as ObjectGraph managed within its
            // budget in its first run (later runs of both sides run that many).
            if operation == "query" && run == 0 { queries = objectGraph.count }
            let raw = try launcher.run(
                side: .raw, operation: operation, n: options.n, directory: rawFolder,
                queries: operation == "query" ? objectGraph.count : queries,
                budget: options.queryBudget)
            guard objectGraph.checksum == raw.checksum, objectGraph.count == raw.count else {
                throw BenchError.mismatch(
                    "\(operation): objectgraph checksum \(objectGraph.checksum) over "
                        + "\(objectGraph.count), raw checksum \(raw.checksum) over \(raw.count)")
            }
            ogRuns.append(objectGraph)
            rawRuns.append(raw)
        }
        guard let objectGraph = SideResult.median(of: ogRuns),
            let raw = SideResult.median(of: rawRuns)
        else { throw BenchError.failed("\(operation): no run") }
        return Measurement(
            operation: operation, n: options.n, objectGraph: objectGraph, raw: raw,
            queries: operation == "query" ? queries : nil)
    }
}
