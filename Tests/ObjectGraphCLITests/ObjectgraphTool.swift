import Foundation

/// The built `objectgraph` executable beside this test runner (or in `.build/debug`), for the
/// tests that run it as a process; `nil` when it is not built.
let objectgraphTool: URL? = builtExecutable("objectgraph")

/// The package's folder (where `Models` is).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

/// The built executable `name` of this package beside this test runner (or in
/// `.build/debug`); `nil` when it is not built.
func builtExecutable(_ name: String) -> URL? {
    let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    return [
        runner.deletingLastPathComponent().appendingPathComponent(name),
        packageRoot.appendingPathComponent(".build/debug/\(name)"),
    ].first { FileManager.default.isExecutableFile(atPath: $0.path) }
}

/// Runs `executable` with `arguments` (in `directory`, when given) and waits for it: its exit
/// status, standard output and standard error. Standard error must stay short (a line or
/// two): it cannot fill its pipe while the output is read.
func runProcess(_ executable: URL, _ arguments: [String], in directory: URL? = nil) throws -> (
    status: Int32, output: String, errors: String
) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let printed = String(
        decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let complaints = String(
        decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, printed, complaints)
}
