// objectgraph-bench: the same workload through ObjectGraph's SQLite store and through
// hand-written sqlite3 calls, timed per operation in the same run.
//
//     swift run -c release objectgraph-bench [--n 100000] [--json]
//
// Memory method: the parent starts one child process (this executable with the hidden
// `--side objectgraph|raw --op OP --dir DIR` flags) per side and operation; each child opens
// its side's store file left by the previous operations, times the operation, and reports its
// own peak RSS (VmHWM), so each number is that side's alone. Both sides share the process
// baseline (Foundation, SQLite: VmRSS before opening the store, also reported), so the
// table shows the ratio of peaks and the ratio of growth above each child's baseline. Failures print the error and
// exit 1; usage errors exit 2.

import Foundation

func runChild(_ options: BenchOptions, side: BenchOptions.Side) throws {
    guard let operation = options.operation, let directory = options.directory else {
        throw BenchError.usage("--side needs --op and --dir")
    }
    let url = URL(fileURLWithPath: directory).appendingPathComponent("Bench.sqlite")
    let baseline = PeakMemory.currentKilobytes()
    var result: SideResult
    switch side {
    case .objectGraph:
        result = try ObjectGraphRunner(n: options.n, url: url, undoRegistration: !options.noUndo)
            .run(operation, queries: options.queries, budget: options.queryBudget)
    case .raw:
        result = try RawSQLiteRunner(n: options.n, path: url.path)
            .run(operation, queries: options.queries)
    }
    result.peakRSSKB = PeakMemory.kilobytes()
    result.baselineRSSKB = baseline
    print(result.line)
}

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data(("objectgraph-bench: " + message + "\n").utf8))
    exit(status)
}

do {
    let options = try BenchOptions(arguments: Array(CommandLine.arguments.dropFirst()))
    if let side = options.side {
        try runChild(options, side: side)
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
