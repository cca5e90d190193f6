import Foundation
import ObjectGraph

#if canImport(Glibc)
    import Glibc
#endif

/// The progress bar `objectgraph migrate` draws on a terminal: one line redrawn in place,
/// `[#########...........]  45%  Model → Model 2 (inferred)  Person`.
final class MigrationProgressBar: @unchecked Sendable {
    // `lock` protects `drawn`; reports may come from any thread.
    private let lock = NSLock()
    private var drawn = false
    private let io: CommandIO
    /// Whether the bar is drawn: standard output is a terminal.
    let isShown: Bool

    init(io: CommandIO) {
        self.io = io
        isShown = io is StandardIO && isatty(STDOUT_FILENO) == 1
    }

    /// The bar's line for `progress`, `width` cells wide.
    static func line(for progress: MigrationProgress, width: Int = 30) -> String {
        let fraction = min(max(progress.fractionCompleted, 0), 1)
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar =
            String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let percent = String(Int((fraction * 100).rounded(.down)))
        let padded = String(repeating: " ", count: max(0, 3 - percent.count)) + percent
        var text = "[\(bar)] \(padded)%  \(progress.stage)"
        if let entity = progress.entityName { text += "  \(entity)" }
        return text
    }

    /// Redraws the bar.
    func show(_ progress: MigrationProgress) {
        lock.withLock {
            drawn = true
            io.write("\r\u{1B}[2K" + Self.line(for: progress))
        }
    }

    /// Ends the bar's line.
    func finish() {
        lock.withLock {
            if drawn { io.write("\n") }
            drawn = false
        }
    }
}

/// Mapping models named on the command line.
enum MigrationCommandMappings {
    /// Reads each `.xcmappingmodel` of `paths`.
    static func read(_ paths: [String], versions: [ModelVersion]) throws -> [MappingModel] {
        try paths.map { path throws in
            try MappingModel(contentsOf: URL(fileURLWithPath: path), versions: versions)
        }
    }
}
