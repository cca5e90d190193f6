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

    /// Runs `side`'s `operation` on the store in `directory`.
    func run(
        side: BenchOptions.Side, operation: String, n: Int, directory: URL, queries: Int,
        budget: Double, withUndo: Bool = false, store: String = "sqlite"
    ) throws -> SideResult {
        let process = Process()
        process.executableURL = executable
        var arguments = [
            "--side", side.rawValue, "--op", operation, "--n", String(n), "--dir", directory.path,
            "--queries", String(queries), "--query-budget", String(budget),
        ]
        if withUndo { arguments.append("--undo") }
        arguments += ["--store", store]
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        do {
            try process.run()
        } catch {
            throw BenchError.child("cannot start \(executable.path): \(error)")
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let output = String(decoding: data, as: UTF8.self)
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw BenchError.child(
                "\(side.rawValue) \(operation) failed (status \(process.terminationStatus))")
        }
        return try SideResult(output: output)
    }
}
