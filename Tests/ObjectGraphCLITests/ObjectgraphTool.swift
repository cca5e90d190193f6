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
