import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The progress of a long command (`convert`, `migrate`, `dump`, `query`, `history`,
/// `diagram`) on standard error: a bar redrawn in place with counts and the time left when
/// standard error is a terminal, a plain line per further 10% once the command has run for a
/// second when it is not (a log, a pipe), nothing with `--quiet`.
///
/// ```
/// [############..................]  40%  1200/3000 objects  0:03 left  reading Person
/// convert: 40%, 1200/3000 objects, about 0:03 left (reading Person)
/// ```
///
/// A step whose share done cannot be known (Graphviz laying out a diagram, a query running in
/// the store) shows the time it has taken instead, on a bar with a moving mark, or as a line
/// after its first second and every ten seconds after that:
///
/// ```
/// [.........<=>..................]  0:02 so far  laying out 40 entities (Graphviz neato)
/// diagram: 0:02 so far (laying out 40 entities (Graphviz neato))
/// ```
final class ProgressDisplay: @unchecked Sendable {
    /// How progress is shown.
    enum Mode: Sendable, Equatable {
        /// A bar redrawn in place (standard error is a terminal).
        case bar
        /// A plain line per 10%, after the first second (standard error is not a terminal).
        case lines
        /// Nothing (`--quiet`).
        case quiet
    }

    /// One report: the fraction done, the counts and what is being done.
    struct Report: Sendable, Equatable {
        /// Done so far, from 0 to 1; `nil` when it cannot be known (the display then shows
        /// the time taken so far).
        var fraction: Double?
        /// Units done and in all (`1200`, `3000`), when known.
        var counts: (done: Int, total: Int)?
        /// What the counts count (`objects`, `steps`).
        var unit: String
        /// What is being done (`reading Person`).
        var detail: String

        static func == (lhs: Report, rhs: Report) -> Bool {
            lhs.fraction == rhs.fraction && lhs.counts?.done == rhs.counts?.done
                && lhs.counts?.total == rhs.counts?.total && lhs.unit == rhs.unit
                && lhs.detail == rhs.detail
        }
    }

    /// How progress is shown.
    let mode: Mode
    private let command: String
    private let io: CommandIO
    private let now: @Sendable () -> Double
    private let start: Double
    // `lock` protects the state below; reports may come from any thread.
    private let lock = NSLock()
    private var drawnAt: Double?
    private var printedTenths = 0
    private var printedLine = false
    private var workingLineAt: Double?

    /// The mode for `io`: quiet when asked, a bar when standard error is a terminal, lines
    /// otherwise (a test's ``BufferIO`` is not a terminal).
    static func mode(quiet: Bool, io: CommandIO) -> Mode {
        if quiet { return .quiet }
        return io is StandardIO && isatty(STDERR_FILENO) == 1 ? .bar : .lines
    }

    /// Creates the display of `command`'s progress; `now` is the clock in seconds.
    init(
        command: String, io: CommandIO, mode: Mode,
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSinceReferenceDate }
    ) {
        self.command = command
        self.io = io
        self.mode = mode
        self.now = now
        start = now()
    }

    /// Shows `report` (a bar at most ten times a second, a line per further 10%).
    func show(_ report: Report) {
        lock.withLock {
            let time = now()
            let elapsed = time - start
            switch mode {
            case .quiet:
                return
            case .bar:
                if let drawnAt, time - drawnAt < 0.1, (report.fraction ?? 0) < 1 { return }
                drawnAt = time
                io.writeError("\r\u{1B}[2K" + Self.bar(report, elapsed: elapsed))
            case .lines:
                guard let fraction = report.fraction else {
                    // Unknown share: a line after the first second, then every ten seconds.
                    guard elapsed >= 1, workingLineAt.map({ time - $0 >= 10 }) ?? true else {
                        return
                    }
                    workingLineAt = time
                    printedLine = true
                    io.writeError(Self.line(report, command: command, elapsed: elapsed) + "\n")
                    return
                }
                workingLineAt = nil
                let tenths = Int((Self.clamped(fraction) * 10).rounded(.down))
                guard elapsed >= 1, tenths > printedTenths else { return }
                printedTenths = tenths
                printedLine = true
                io.writeError(Self.line(report, command: command, elapsed: elapsed) + "\n")
            }
        }
    }

    /// Runs `body`, showing `report` (whose share done is unknown) every tenth of a second
    /// until it returns: for a step that reports nothing while it runs.
    func showWhile<T>(_ report: Report, _ body: () throws -> T) rethrows -> T {
        if mode == .quiet { return try body() }
        let stop = DispatchSemaphore(value: 0)
        let stopped = DispatchSemaphore(value: 0)
        show(report)
        let ticker = Thread { [self] in
            while stop.wait(timeout: .now() + 0.1) == .timedOut { show(report) }
            stopped.signal()
        }
        ticker.start()
        defer {
            stop.signal()
            stopped.wait()
        }
        return try body()
    }

    /// Ends the display: the bar's line is cleared; a last line says how long it took when
    /// lines were printed.
    func finish() {
        lock.withLock {
            let elapsed = now() - start
            switch mode {
            case .quiet: return
            case .bar:
                if drawnAt != nil { io.writeError("\r\u{1B}[2K") }
                drawnAt = nil
            case .lines:
                if printedLine {
                    io.writeError("\(command): done in \(Self.duration(elapsed))\n")
                }
                printedLine = false
            }
        }
    }

    /// The bar's line: `[####......]  40%  1200/3000 objects  0:03 left  reading Person`. The
    /// bar is `width` cells at most, narrower when what follows it needs the room: the line
    /// stays within 79 columns, so it never wraps on an 80-column terminal.
    static func bar(_ report: Report, elapsed: Double, width: Int = 30) -> String {
        guard let known = report.fraction else {
            return workingBar(report, elapsed: elapsed, width: width)
        }
        let fraction = clamped(known)
        var rest = ""
        if let counts = report.counts { rest += "  \(counts.done)/\(counts.total) \(report.unit)" }
        rest +=
            "  "
            + (timeLeft(fraction: fraction, elapsed: elapsed).map { "\($0) left" } ?? "--:-- left")
        if !report.detail.isEmpty { rest += "  \(report.detail)" }
        let cells = min(width, max(10, 79 - 7 - rest.count))
        let filled = Int((fraction * Double(cells)).rounded(.down))
        let text =
            "[" + String(repeating: "#", count: filled)
            + String(repeating: ".", count: cells - filled) + "] " + percent(fraction) + rest
        return text.count > 79 ? String(text.prefix(78)) + "…" : text
    }

    /// The bar of a step whose share done is unknown: a mark moving to and fro (a cell per
    /// tenth of a second), then the counts, the time so far and what is being done.
    static func workingBar(_ report: Report, elapsed: Double, width: Int = 30) -> String {
        var rest = ""
        if let counts = report.counts { rest += "  \(counts.done)/\(counts.total) \(report.unit)" }
        rest += "  \(duration(elapsed.rounded(.down))) so far"
        if !report.detail.isEmpty { rest += "  \(report.detail)" }
        let cells = min(width, max(10, 79 - 2 - rest.count))
        let travel = cells - 3
        let step = Int((max(elapsed, 0) * 10).rounded(.down)) % (2 * travel)
        let offset = step < travel ? step : 2 * travel - step
        let text =
            "[" + String(repeating: ".", count: offset) + "<=>"
            + String(repeating: ".", count: travel - offset) + "]" + rest
        return text.count > 79 ? String(text.prefix(78)) + "…" : text
    }

    /// A plain line: `convert: 40%, 1200/3000 objects, about 0:03 left (reading Person)`, or
    /// `diagram: 0:02 so far (laying out …)` when the share done is unknown.
    static func line(_ report: Report, command: String, elapsed: Double) -> String {
        guard let known = report.fraction else {
            var text = "\(command): \(duration(elapsed.rounded(.down))) so far"
            if let counts = report.counts {
                text += ", \(counts.done)/\(counts.total) \(report.unit)"
            }
            if !report.detail.isEmpty { text += " (\(report.detail))" }
            return text
        }
        let fraction = clamped(known)
        var text = "\(command): " + percent(fraction).trimmingCharacters(in: .whitespaces)
        if let counts = report.counts { text += ", \(counts.done)/\(counts.total) \(report.unit)" }
        if let left = timeLeft(fraction: fraction, elapsed: elapsed) {
            text += ", about \(left) left"
        }
        if !report.detail.isEmpty { text += " (\(report.detail))" }
        return text
    }

    /// The time left at `fraction` done after `elapsed` seconds, if it can be told yet.
    static func timeLeft(fraction: Double, elapsed: Double) -> String? {
        guard fraction > 0.01, fraction < 1, elapsed >= 0.2 else {
            return fraction >= 1 ? "0:00" : nil
        }
        return duration(elapsed * (1 - fraction) / fraction)
    }

    /// `seconds` as `m:ss` (or `h:mm:ss`).
    static func duration(_ seconds: Double) -> String {
        let total = Int(min(max(seconds, 0), 359_999).rounded(.up))
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0
            ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
    }

    /// ` 40%`, padded to four characters.
    private static func percent(_ fraction: Double) -> String {
        let text = "\(Int((fraction * 100).rounded(.down)))%"
        return String(repeating: " ", count: max(0, 4 - text.count)) + text
    }

    private static func clamped(_ fraction: Double) -> Double {
        fraction.isNaN ? 0 : min(max(fraction, 0), 1)
    }
}
