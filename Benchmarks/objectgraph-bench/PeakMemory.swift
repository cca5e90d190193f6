import Foundation

/// This process's peak and current resident set size.
///
/// Each side runs each operation in its own child process, so the peak is that side's alone:
/// the process baseline (the binary, Foundation, SQLite) is the same for both sides, and
/// nothing from the other side or an earlier operation is resident.
enum PeakMemory {
    /// `VmHWM` from `/proc/self/status` in KB, or `getrusage`'s `ru_maxrss` (KB on Linux)
    /// where `/proc` is missing.
    static func kilobytes() -> Int {
        if let value = status("VmHWM:") { return value }
        var usage = rusage()
        #if os(Linux)
            let who = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
            let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss)
    }

    /// The current resident set size (`VmRSS`) in KB, 0 where `/proc` is missing: the child's
    /// baseline before its side opens anything.
    static func currentKilobytes() -> Int { status("VmRSS:") ?? 0 }

    /// The current resident set size once the allocator has handed its free memory back to
    /// the system (glibc's `malloc_trim`; elsewhere the same as ``currentKilobytes()``): freed
    /// objects show in it, where glibc keeps freed memory resident for reuse otherwise.
    static func trimmedKilobytes() -> Int {
        // Looked up at run time: Swift's Glibc module does not declare it.
        typealias Trim = @convention(c) (Int) -> Int32
        if let symbol = dlsym(nil, "malloc_trim") {
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        }
        return currentKilobytes()
    }

    private static func status(_ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field) {
            return Int(line.filter(\.isNumber))
        }
        return nil
    }
}
