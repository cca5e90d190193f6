import Foundation

/// The built `objectgraph` executable beside this test runner (or in `.build/debug`), for the
/// tests that run it as a process; `nil` when it is not built.
let objectgraphTool: URL? = {
    let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    return [
        runner.deletingLastPathComponent().appendingPathComponent("objectgraph"),
        root.appendingPathComponent(".build/debug/objectgraph"),
    ].first { FileManager.default.isExecutableFile(atPath: $0.path) }
}()
