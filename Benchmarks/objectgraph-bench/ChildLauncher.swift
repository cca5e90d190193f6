import Foundation

/// Starts this executable again as a child running one side of one operation, and reads its
/// ``SideResult``. The child's stderr goes straight to ours.
struct ChildLauncher {
    /// This executable (`/proc/self/exe` resolved, else `argv[0]`).
    let executable: URL

    init() {
        if let target = try? FileManager.default.destinationOfSymbolicLink(
            atPath: "/proc/self/exe")
        {
            executable = URL(fileURLWithPath: target)
        } else {
            executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "objectgraph-bench")
        }
    }

    /// A started child: ``finish()`` waits for it and reads its result.
    struct Child {
        let process: Process
        let pipe: Pipe
        let label: String

        func finish() throws -> SideResult {
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let output = String(decoding: data, as: UTF8.self)
            guard process.terminationReason == .exit, process.terminationStatus == 0 else {
                throw BenchError.child("\(label) failed (status \(process.terminationStatus))")
            }
            return try SideResult(output: output)
        }
    }

    /// Runs `side`'s `operation` on the store in `directory` (`extra`: further arguments, such
    /// as a PostgreSQL store's `--url`).
    func run(
        side: BenchOptions.Side, operation: String, n: Int, directory: URL, queries: Int,
        budget: Double, withUndo: Bool = false, store: String = "sqlite", extra: [String] = []
    ) throws -> SideResult {
        var arguments = ["--queries", String(queries), "--query-budget", String(budget)]
        if withUndo { arguments.append("--undo") }
        return try start(
            side: side, operation: operation, n: n, directory: directory, store: store,
            extra: arguments + extra
        ).finish()
    }

    /// Starts `side`'s `operation` without waiting for it.
    func start(
        side: BenchOptions.Side, operation: String, n: Int, directory: URL, store: String,
        extra: [String]
    ) throws -> Child {
        let process = Process()
        process.executableURL = executable
        process.arguments =
            [
                "--side", side.rawValue, "--op", operation, "--n", String(n), "--dir",
                directory.path, "--store", store,
            ] + extra
        let pipe = Pipe()
        process.standardOutput = pipe
        do {
            try process.run()
        } catch {
            throw BenchError.child("cannot start \(executable.path): \(error)")
        }
        return Child(process: process, pipe: pipe, label: "\(side.rawValue) \(operation)")
    }
}
