import Foundation

/// What one side's run of one operation measured, passed from the child to the parent as one
/// line: `RESULT seconds=… checksum=… count=… peak_rss_kb=…`.
struct SideResult {
    /// Wall-clock seconds of the timed part.
    var seconds: Double
    /// A checksum of the values read or written (both sides must agree).
    var checksum: Int64
    /// How many objects/rows (or, for `query`, fetches) the operation handled.
    var count: Int
    /// The child process's peak resident set size, in KB.
    var peakRSSKB: Int = 0

    /// The line the child prints.
    var line: String {
        "RESULT seconds=\(seconds) checksum=\(checksum) count=\(count) peak_rss_kb=\(peakRSSKB)"
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
            let peak = fields["peak_rss_kb"].flatMap(Int.init)
        else { throw BenchError.child("unreadable RESULT line: \(line)") }
        self.init(seconds: seconds, checksum: checksum, count: count, peakRSSKB: peak)
    }

    init(seconds: Double, checksum: Int64, count: Int, peakRSSKB: Int = 0) {
        self.seconds = seconds
        self.checksum = checksum
        self.count = count
        self.peakRSSKB = peakRSSKB
    }
}

/// Wall-clock timing.
enum Clock {
    /// Seconds since an arbitrary origin (monotonic).
    static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }
}
