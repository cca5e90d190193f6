import Foundation

/// What one side's run of one operation measured, passed from the child to the parent as one
/// line: `RESULT seconds=… cpu_seconds=… checksum=… count=… peak_rss_kb=… baseline_rss_kb=…`.
struct SideResult {
    /// Wall-clock seconds of the timed part.
    var seconds: Double
    /// User + system CPU seconds of the timed part (less disturbed by other load on the
    /// machine than wall-clock time; excludes waiting for the disk).
    var cpuSeconds: Double = 0
    /// A checksum of the values read or written (both sides must agree).
    var checksum: Int64
    /// How many objects/rows (or, for `query`, fetches) the operation handled.
    var count: Int
    /// The child process's peak resident set size, in KB.
    var peakRSSKB: Int = 0
    /// The child's resident set size before its side opened anything, in KB.
    var baselineRSSKB: Int = 0
    /// When the timed part began, in seconds since 1970 (`concurrent_save`'s writers; 0
    /// otherwise).
    var startedAt: Double = 0

    /// The line the child prints.
    var line: String {
        "RESULT seconds=\(seconds) cpu_seconds=\(cpuSeconds) checksum=\(checksum) count=\(count) peak_rss_kb=\(peakRSSKB)"
            + " baseline_rss_kb=\(baselineRSSKB) started_at=\(startedAt)"
    }

    /// Reads the `RESULT` line out of a child's output.
    init(output: String) throws {
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("RESULT ") })
        else { throw BenchError.child("no RESULT line in its output: \(output.prefix(200))") }
        var fields: [String: String] = [:]
        for pair in line.dropFirst("RESULT ".count).split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        guard let seconds = fields["seconds"].flatMap(Double.init),
            let checksum = fields["checksum"].flatMap(Int64.init),
            let count = fields["count"].flatMap(Int.init),
            let cpu = fields["cpu_seconds"].flatMap(Double.init),
            let peak = fields["peak_rss_kb"].flatMap(Int.init),
            let baseline = fields["baseline_rss_kb"].flatMap(Int.init)
        else { throw BenchError.child("unreadable RESULT line: \(line)") }
        self.init(seconds: seconds, checksum: checksum, count: count, peakRSSKB: peak)
        cpuSeconds = cpu
        baselineRSSKB = baseline
        startedAt = fields["started_at"].flatMap(Double.init) ?? 0
    }

    /// The median of `runs` of one operation on one side: the median wall-clock and CPU times
    /// (of an odd count the middle one, of an even count the mean of the two middle ones) and
    /// the highest peak memory; checksum and count of the first run (every run agrees with
    /// its raw counterpart). `nil` for no run.
    static func median(of runs: [SideResult]) -> SideResult? {
        guard var result = runs.first else { return nil }
        func middle(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            let half = sorted.count / 2
            return sorted.count % 2 == 1 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2
        }
        result.seconds = middle(runs.map(\.seconds))
        result.cpuSeconds = middle(runs.map(\.cpuSeconds))
        result.peakRSSKB = runs.map(\.peakRSSKB).max() ?? result.peakRSSKB
        result.baselineRSSKB = runs.map(\.baselineRSSKB).min() ?? result.baselineRSSKB
        return result
    }

    init(seconds: Double, checksum: Int64, count: Int, peakRSSKB: Int = 0) {
        self.seconds = seconds
        self.checksum = checksum
        self.count = count
        self.peakRSSKB = peakRSSKB
    }
}

/// Wall-clock and CPU timing.
enum Clock {
    /// Seconds since an arbitrary origin (monotonic).
    static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

    /// User + system CPU seconds this process has used.
    static func cpu() -> Double {
        var usage = rusage()
        #if os(Linux)
            let who = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
            let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double {
            Double(time.tv_sec) + Double(time.tv_usec) / 1e6
        }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
