import Foundation

/// Lays out a DOT graph with Graphviz's `dot` program (Debian package `graphviz`) into SVG or
/// PNG.
///
/// ```swift
/// let svg = try GraphvizRenderer(environment: ProcessInfo.processInfo.environment)
///     .render(diagram.dot, format: "svg")
/// ```
public struct GraphvizRenderer: Sendable {
    /// Why rendering failed.
    public enum Failure: Error, CustomStringConvertible, Equatable {
        /// No `dot` program on the search path (`PATH`, listed).
        case missing(searchPath: String)
        /// `dot` ran and failed: its exit status and what it printed on standard error.
        case failed(status: Int32, message: String)

        /// The reason, with what to do about it.
        public var description: String {
            switch self {
            case .missing(let searchPath):
                return
                    "Graphviz's 'dot' program is not installed (not found in PATH=\(searchPath)); "
                    + "install the Debian package 'graphviz' (apt-get install graphviz), "
                    + "or write DOT with --format dot"
            case .failed(let status, let message):
                let detail = message.trimmingCharacters(in: .whitespacesAndNewlines)
                return "Graphviz's dot failed (exit status \(status))"
                    + (detail.isEmpty ? "" : ": \(detail)")
            }
        }
    }

    /// The environment whose `PATH` is searched for `dot`.
    public var environment: [String: String]

    /// Creates a renderer searching `environment`'s `PATH`.
    public init(environment: [String: String]) {
        self.environment = environment
    }

    /// The `dot` program on the search path, if there is one.
    public var program: URL? {
        let searchPath = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in searchPath.split(separator: ":") where !folder.isEmpty {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("dot")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// Lays out `dot` and returns the picture in `format` (`svg` or `png`).
    /// - Throws: ``Failure/missing(searchPath:)`` when Graphviz is not installed,
    ///   ``Failure/failed(status:message:)`` when it refuses the graph, or the error starting
    ///   the process.
    public func render(_ dot: String, format: String) throws -> Data {
        guard let program else {
            throw Failure.missing(searchPath: environment["PATH"] ?? "")
        }
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("objectgraph-diagram-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("diagram.dot")
        let output = folder.appendingPathComponent("diagram.\(format)")
        let messages = folder.appendingPathComponent("messages.txt")
        try Data(dot.utf8).write(to: input)
        try Data().write(to: messages)
        let errors = try FileHandle(forWritingTo: messages)
        defer { try? errors.close() }
        let process = Process()
        process.executableURL = program
        process.arguments = ["-T\(format)", "-o", output.path, input.path]
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: (try? Data(contentsOf: messages)) ?? Data(), as: UTF8.self)
        guard process.terminationStatus == 0, let data = try? Data(contentsOf: output) else {
            throw Failure.failed(status: process.terminationStatus, message: message)
        }
        return data
    }
}
