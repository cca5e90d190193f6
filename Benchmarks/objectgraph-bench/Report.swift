import Foundation

/// Prints measurements: a table with the targets, or one JSON line per operation.
enum Report {
    /// The table header (text mode).
    static func header(n: Int, repetitions: Int) -> String {
        let teams = Workload.teamCount(people: n)
        let intro = """
            objectgraph-bench: n = \(n) people in \(teams) teams; each side and operation in its \
            own child process, \(repetitions) run(s) each, alternating, each from the same store; \
            times are the medians of the wall-clock times (cpu ratio: of user+system CPU times, \
            less disturbed by other load); peak RSS = the highest VmHWM of a side's runs; growth \
            ratio = (peak - baseline VmRSS) over raw's
            """
        let columns = row(
            "op", "n", "objectgraph s", "raw s", "ratio", "target", "cpu ratio", "og peak KB",
            "raw peak KB", "mem ratio", "growth ratio")
        return intro + "\n" + columns
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
            String(format: "%.2f", m.cpuRatio),
            String(m.objectGraph.peakRSSKB), String(m.raw.peakRSSKB),
            String(format: "%.2f (≤ %.0f %@)", m.memoryRatio, Workload.memoryTarget, memoryVerdict),
            String(format: "%.2f", m.growthRatio))
    }

    /// One JSON line.
    static func json(_ m: Measurement) -> String {
        var fields = [
            "\"op\": \"\(m.operation)\"", "\"n\": \(m.n)",
            "\"objectgraph_s\": \(number(m.objectGraph.seconds))",
            "\"raw_s\": \(number(m.raw.seconds))", "\"ratio\": \(number(m.ratio))",
            "\"objectgraph_cpu_s\": \(number(m.objectGraph.cpuSeconds))",
            "\"raw_cpu_s\": \(number(m.raw.cpuSeconds))", "\"cpu_ratio\": \(number(m.cpuRatio))",
            "\"peak_rss_kb\": \(m.objectGraph.peakRSSKB)",
            "\"raw_peak_rss_kb\": \(m.raw.peakRSSKB)",
            "\"baseline_rss_kb\": \(m.objectGraph.baselineRSSKB)",
            "\"raw_baseline_rss_kb\": \(m.raw.baselineRSSKB)",
        ]
        if let queries = m.queries { fields.append("\"queries\": \(queries)") }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    private static func seconds(_ value: Double) -> String { String(format: "%.4f", value) }

    private static func number(_ value: Double) -> String {
        value.isFinite ? String(format: "%.6f", value) : "null"
    }

    private static func row(_ cells: String...) -> String {
        let widths = [18, 8, 14, 10, 8, 12, 10, 11, 12, 16, 12]
        return zip(cells, widths).map { cell, width in
            cell.count >= width
                ? cell + " " : cell + String(repeating: " ", count: width - cell.count)
        }.joined().trimmingCharacters(in: .whitespaces)
    }
}
