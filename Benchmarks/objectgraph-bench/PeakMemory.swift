import Foundation

/// This process's peak resident set size.
///
/// Each side runs each operation in its own child process, so the peak is that side's alone:
/// the process baseline (the binary, Foundation, SQLite) is the same for both sides, and
/// nothing from the other side or an earlier operation is resident.
enum PeakMemory {
    /// `VmHWM` from `/proc/self/status` in KB, or `getrusage`'s `ru_maxrss` (KB on Linux)
    /// where `/proc` is missing.
    static func kilobytes() -> Int {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) {
            for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
                let digits = line.filter(\.isNumber)
                if let value = Int(digits) { return value }
            }
        }
        var usage = rusage()
        #if os(Linux)
            let who = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
            let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss)
    }
}
