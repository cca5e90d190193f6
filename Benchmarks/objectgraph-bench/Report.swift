import Foundation

/// Prints measurements: a table with the targets, or one JSON line per operation.
enum Report {
    /// The table header (text mode).
    static func header(n: Int) -> String {
        let teams = Workload.teamCount(people: n)
        return """
            objectgraph-bench: n = \(n) people in \(teams) teams; each side and operation in its own \
            child process; peak RSS = that child's VmHWM
            """ + "\n"
            + row(
                "op", "n", "objectgraph s", "raw s", "ratio", "target", "og peak KB",
                "raw peak KB", "mem ratio")
    }

    /// One table row (text mode).
    static func text(_ m: Measurement) -> String {
        let target = Workload.targets[m.operation] ?? 0
        let verdict = m.ratio <= target ? "ok" : "OVER"
        let memoryVerdict = m.memoryRatio <= Workload.memoryTarget ? "ok" : "OVER"
        var op = m.operation
        if let queries = m.queries { op += " ×\(queries)" }
        return row(
            op, String(m.n), seconds(m.objectGraph.seconds), seconds(m.raw.seconds),
            String(format: "%.2f", m.ratio), String(format: "≤ %.1f %@", target, verdict),
            String(m.objectGraph.peakRSSKB), String(m.raw.peakRSSKB),
            String(format: "%.2f (≤ %.0f %@)", m.memoryRatio, Workload.memoryTarget, memoryVerdict))
    }

    /// One JSON line.
    static func json(_ m: Measurement) -> String {
        var fields = [
            "\"op\": \"\(m.operation)\"", "\"n\": \(m.n)",
            "\"objectgraph_s\": \(number(m.objectGraph.seconds))",
            "\"raw_s\": \(number(m.raw.seconds))", "\"ratio\": \(number(m.ratio))",
            "\"peak_rss_kb\": \(m.objectGraph.peakRSSKB)",
            "\"raw_peak_rss_kb\": \(m.raw.peakRSSKB)",
        ]
        if let queries = m.queries { fields.append("\"queries\": \(queries)") }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    private static func seconds(_ value: Double) -> String { String(format: "%.4f", value) }

    private static func number(_ value: Double) -> String {
        value.isFinite ? String(format: "%.6f", value) : "null"
    }

    private static func row(_ cells: String...) -> String {
        let widths = [14, 8, 14, 10, 7, 11, 11, 12, 18]
        return zip(cells, widths).map { cell, width in
            cell.count >= width ? cell + " " : cell + String(repeating: " ", count: width - cell.count)
        }.joined().trimmingCharacters(in: .whitespaces)
    }
}
