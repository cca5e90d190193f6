import Foundation
import ObjectGraph
import Testing

@testable import ObjectGraphCLI

/// Progress of `convert` and `migrate`: a bar on a terminal, plain lines elsewhere, nothing
/// with `--quiet`.
@Suite("progress display")
struct ProgressDisplayTests {
    /// A clock the test moves by hand.
    final class ManualClock: @unchecked Sendable {
        private let lock = NSLock()
        private var seconds = 100.0
        var now: Double { lock.withLock { seconds } }
        func advance(_ by: Double) { lock.withLock { seconds += by } }
    }

    static func report(_ fraction: Double, _ done: Int, of total: Int) -> ProgressDisplay.Report {
        ProgressDisplay.Report(
            fraction: fraction, counts: (done, total), unit: "objects", detail: "reading Person")
    }

    @Test("the bar shows the fraction, the counts, the time left and what is being done")
    func barLine() {
        #expect(
            ProgressDisplay.bar(Self.report(0.4, 1200, of: 3000), elapsed: 2, width: 10)
                == "[####......]  40%  1200/3000 objects  0:03 left  reading Person")
        // No estimate before anything is done.
        #expect(
            ProgressDisplay.bar(Self.report(0, 0, of: 3000), elapsed: 0, width: 10)
                == "[..........]   0%  0/3000 objects  --:-- left  reading Person")
        let long = ProgressDisplay.Report(
            fraction: 0.5, counts: nil, unit: "steps", detail: String(repeating: "x", count: 200))
        #expect(ProgressDisplay.bar(long, elapsed: 1).count == 79)
        #expect(ProgressDisplay.duration(3725) == "1:02:05")
        #expect(ProgressDisplay.duration(59.2) == "1:00")
    }

    @Test("off a terminal: nothing in the first second, then a line per further 10%, then done")
    func plainLines() {
        let clock = ManualClock()
        let io = BufferIO()
        let display = ProgressDisplay(command: "convert", io: io, mode: .lines, now: { clock.now })
        display.show(Self.report(0.5, 1500, of: 3000))
        clock.advance(0.5)
        display.show(Self.report(0.55, 1650, of: 3000))
        #expect(io.errorOutput.isEmpty)
        clock.advance(0.7)
        display.show(Self.report(0.6, 1800, of: 3000))
        display.show(Self.report(0.65, 1950, of: 3000))
        clock.advance(1)
        display.show(Self.report(0.7, 2100, of: 3000))
        display.finish()
        #expect(
            io.errorOutput == """
                convert: 60%, 1800/3000 objects, about 0:01 left (reading Person)
                convert: 70%, 2100/3000 objects, about 0:01 left (reading Person)
                convert: done in 0:03

                """)
        #expect(!io.errorOutput.contains("\u{1B}"))
    }

    @Test("a run shorter than a second prints no progress; --quiet prints none at all")
    func quietAndShort() {
        let clock = ManualClock()
        let short = BufferIO()
        let display = ProgressDisplay(
            command: "migrate", io: short, mode: .lines, now: { clock.now })
        display.show(Self.report(1, 3000, of: 3000))
        display.finish()
        #expect(short.errorOutput.isEmpty)
        let quiet = BufferIO()
        let silent = ProgressDisplay(
            command: "migrate", io: quiet, mode: .quiet, now: { clock.now })
        clock.advance(5)
        silent.show(Self.report(0.5, 1, of: 2))
        silent.finish()
        #expect(quiet.errorOutput.isEmpty)
        #expect(ProgressDisplay.mode(quiet: true, io: StandardIO()) == .quiet)
        #expect(ProgressDisplay.mode(quiet: false, io: BufferIO()) == .lines)
    }

    @Test("a step of unknown share shows the time so far: a moving mark, or a line a second in")
    func unknownShare() {
        let working = ProgressDisplay.Report(
            fraction: nil, counts: nil, unit: "", detail: "laying out 40 entities")
        #expect(
            ProgressDisplay.bar(working, elapsed: 0, width: 10)
                == "[<=>.......]  0:00 so far  laying out 40 entities")
        #expect(
            ProgressDisplay.bar(working, elapsed: 0.35, width: 10)
                == "[...<=>....]  0:00 so far  laying out 40 entities")
        // The mark comes back from the end.
        #expect(ProgressDisplay.bar(working, elapsed: 0.9, width: 10).hasPrefix("[.....<=>..]"))
        let long = ProgressDisplay.Report(
            fraction: nil, counts: nil, unit: "", detail: String(repeating: "x", count: 200))
        #expect(ProgressDisplay.bar(long, elapsed: 1).count == 79)
        let clock = ManualClock()
        let io = BufferIO()
        let display = ProgressDisplay(command: "diagram", io: io, mode: .lines, now: { clock.now })
        display.show(working)
        clock.advance(0.9)
        display.show(working)
        #expect(io.errorOutput.isEmpty)
        clock.advance(0.2)
        display.show(working)
        clock.advance(5)
        display.show(working)  // within ten seconds of the last line: nothing
        clock.advance(5)
        display.show(working)
        display.finish()
        #expect(
            io.errorOutput == """
                diagram: 0:01 so far (laying out 40 entities)
                diagram: 0:11 so far (laying out 40 entities)
                diagram: done in 0:12

                """)
    }

    @Test("showWhile redraws while its work runs and stops when it returns; quiet shows nothing")
    func showWhileRuns() throws {
        let io = BufferIO()
        let display = ProgressDisplay(command: "diagram", io: io, mode: .bar)
        let working = ProgressDisplay.Report(
            fraction: nil, counts: nil, unit: "", detail: "laying out")
        let value = display.showWhile(working) { () -> Int in
            Thread.sleep(forTimeInterval: 0.35)
            return 7
        }
        #expect(value == 7)
        let draws = io.errorOutput.components(separatedBy: "\r\u{1B}[2K").count - 1
        #expect(draws >= 2, "\(io.errorOutput.debugDescription)")
        Thread.sleep(forTimeInterval: 0.25)
        #expect(io.errorOutput.components(separatedBy: "\r\u{1B}[2K").count - 1 == draws)
        let quiet = BufferIO()
        let silent = ProgressDisplay(command: "diagram", io: quiet, mode: .quiet)
        struct Failure: Error {}
        #expect(throws: Failure.self) { try silent.showWhile(working) { throw Failure() } }
        #expect(quiet.errorOutput.isEmpty)
    }

    @Test("the bar is redrawn in place at most ten times a second and cleared at the end")
    func barRedraws() {
        let clock = ManualClock()
        let io = BufferIO()
        let display = ProgressDisplay(command: "convert", io: io, mode: .bar, now: { clock.now })
        display.show(Self.report(0, 0, of: 4))
        display.show(Self.report(0.25, 1, of: 4))  // too soon: skipped
        clock.advance(0.2)
        display.show(Self.report(0.5, 2, of: 4))
        display.show(Self.report(1, 4, of: 4))  // the end is always drawn
        display.finish()
        let draws = io.errorOutput.components(separatedBy: "\r\u{1B}[2K")
        #expect(draws.count == 5, "\(draws)")
        #expect(draws[1].contains(" 0/4 objects") && draws[2].contains(" 2/4 objects"))
        #expect(draws[3].contains(" 4/4 objects") && draws[4].isEmpty)
    }

    @Test("migrateStore reports objects read per entity, then written")
    func storeCopyProgress() throws {
        let fixture = try ConvertCommandTests.Fixture()
        defer { fixture.files.remove() }
        let source = try fixture.makeStore(.sqlite, "Shop.sqlite")
        let coordinator = StoreCoordinator(model: fixture.model)
        let store = try coordinator.addStore(
            type: .sqlite, at: URL(fileURLWithPath: source), options: StoreOptions(isReadOnly: true)
        )
        let reports = ReportLog()
        try coordinator.migrateStore(
            store, to: URL(fileURLWithPath: fixture.path("Shop.xml")), type: .xml
        ) { reports.append($0) }
        let seen = reports.all.map {
            "\($0.phase.rawValue) \($0.completedObjectCount)/\($0.totalObjectCount) \($0.entityName ?? "-")"
        }
        #expect(
            seen == [
                "reading 0/4 -", "reading 1/4 Shelf", "reading 4/4 Item", "writing 0/4 -",
                "writing 4/4 -",
            ])
        let fractions = reports.all.map(\.fractionCompleted)
        #expect(fractions == fractions.sorted() && fractions.last == 1)
    }

    /// Reports gathered from any thread.
    final class ReportLog: @unchecked Sendable {
        private let lock = NSLock()
        private var reports: [StoreCopyProgress] = []
        var all: [StoreCopyProgress] { lock.withLock { reports } }
        func append(_ report: StoreCopyProgress) { lock.withLock { reports.append(report) } }
    }

    @Test(
        "convert draws a bar on a terminal's standard error, none with --quiet or on a pipe",
        .enabled(if: objectgraphTool != nil))
    func convertOnTerminal() throws {
        let tool = try #require(objectgraphTool)
        let fixture = try ConvertCommandTests.Fixture()
        defer { fixture.files.remove() }
        let source = try fixture.makeStore(.sqlite, "Shop.sqlite")
        let drawn = try runWithTerminalStandardError(
            tool, ["convert", "--model", fixture.modelPath, source, fixture.path("a.xml")])
        #expect(drawn.status == 0, "\(drawn.terminal)")
        #expect(drawn.terminal.hasPrefix("\r\u{1B}[2K["), "\(drawn.terminal.debugDescription)")
        #expect(drawn.terminal.contains("0/4 objects") && drawn.terminal.contains("4/4 objects"))
        #expect(drawn.terminal.hasSuffix("\r\u{1B}[2K"), "\(drawn.terminal.debugDescription)")
        #expect(drawn.output.contains("4 objects") && !drawn.output.contains("\u{1B}"))
        let quiet = try runWithTerminalStandardError(
            tool,
            ["convert", "--quiet", "--model", fixture.modelPath, source, fixture.path("b.xml")])
        #expect(quiet.status == 0 && quiet.terminal.isEmpty, "\(quiet.terminal.debugDescription)")
        let piped = try runProcess(
            tool, ["convert", "--model", fixture.modelPath, source, fixture.path("c.xml")])
        #expect(piped.status == 0 && piped.errors.isEmpty, "\(piped.errors.debugDescription)")
    }

    @Test(
        "migrate draws its bar on a terminal's standard error, none with --quiet",
        .enabled(if: objectgraphTool != nil))
    func migrateOnTerminal() throws {
        let tool = try #require(objectgraphTool)
        let library = try LibraryBundle()
        defer { library.files.remove() }
        let first = try library.makeStore(.sqlite, "Books.sqlite")
        let drawn = try runWithTerminalStandardError(
            tool, ["migrate", "--model", library.bundle.path, first.path])
        #expect(drawn.status == 0, "\(drawn.terminal)")
        #expect(
            drawn.terminal.contains("1/1 step") && drawn.terminal.contains("Library → Library 2"))
        #expect(drawn.terminal.hasSuffix("\r\u{1B}[2K"), "\(drawn.terminal.debugDescription)")
        #expect(drawn.output.contains("migrated to Library 2"))
        let second = try library.makeStore(.xml, "Books.xml")
        let quiet = try runWithTerminalStandardError(
            tool, ["migrate", "-q", "--model", library.bundle.path, second.path])
        #expect(quiet.status == 0 && quiet.terminal.isEmpty, "\(quiet.terminal.debugDescription)")
        #expect(quiet.output.contains("migrated to Library 2"))
    }

    @Test(
        "dump draws its bar on a terminal's standard error, none with --quiet or on a pipe",
        .enabled(if: objectgraphTool != nil))
    func dumpOnTerminal() throws {
        let tool = try #require(objectgraphTool)
        let fixture = try ConvertCommandTests.Fixture()
        defer { fixture.files.remove() }
        let source = try fixture.makeStore(.sqlite, "Shop.sqlite")
        let drawn = try runWithTerminalStandardError(
            tool, ["dump", "--model", fixture.modelPath, source])
        #expect(drawn.status == 0, "\(drawn.terminal)")
        #expect(drawn.terminal.hasPrefix("\r\u{1B}[2K["), "\(drawn.terminal.debugDescription)")
        #expect(drawn.terminal.contains("4/4 objects"), "\(drawn.terminal.debugDescription)")
        #expect(drawn.terminal.hasSuffix("\r\u{1B}[2K"), "\(drawn.terminal.debugDescription)")
        #expect(drawn.output.split(separator: "\n").count == 4 && !drawn.output.contains("\u{1B}"))
        let quiet = try runWithTerminalStandardError(
            tool, ["dump", "--quiet", "--model", fixture.modelPath, source])
        #expect(quiet.status == 0 && quiet.terminal.isEmpty, "\(quiet.terminal.debugDescription)")
        let piped = try runProcess(tool, ["dump", "--model", fixture.modelPath, source])
        #expect(piped.status == 0 && piped.errors.isEmpty, "\(piped.errors.debugDescription)")
    }

    @Test(
        "query, history and diagram draw their progress on a terminal, none with --quiet",
        .enabled(if: objectgraphTool != nil && DiagramCommandTests.graphviz.program != nil))
    func queryHistoryDiagramOnTerminal() throws {
        let tool = try #require(objectgraphTool)
        let fixture = try ConvertCommandTests.Fixture()
        defer { fixture.files.remove() }
        let source = try fixture.makeStore(.sqlite, "Shop.sqlite")
        let query = try runWithTerminalStandardError(
            tool, ["query", "--model", fixture.modelPath, "--entity", "Item", source])
        #expect(query.status == 0, "\(query.terminal)")
        #expect(query.terminal.contains("fetching Item"), "\(query.terminal.debugDescription)")
        #expect(query.terminal.contains("3/3 objects"), "\(query.terminal.debugDescription)")
        #expect(query.terminal.hasSuffix("\r\u{1B}[2K"), "\(query.terminal.debugDescription)")
        #expect(query.output.split(separator: "\n").count == 3 && !query.output.contains("\u{1B}"))
        let quietQuery = try runWithTerminalStandardError(
            tool, ["query", "-q", "--model", fixture.modelPath, "--entity", "Item", source])
        #expect(quietQuery.status == 0 && quietQuery.terminal.isEmpty)

        let (model, store) = try HistoryCommandTests.makeStore(in: fixture.files.folder)
        let history = try runWithTerminalStandardError(
            tool, ["history", "--model", model.path, store.path])
        #expect(history.status == 0, "\(history.terminal)")
        #expect(history.terminal.contains("reading the history"))
        #expect(
            history.terminal.contains("2/2 transactions"), "\(history.terminal.debugDescription)")
        #expect(history.output.split(separator: "\n").count == 2)
        let quietHistory = try runWithTerminalStandardError(
            tool, ["history", "--quiet", "--model", model.path, store.path])
        #expect(quietHistory.status == 0 && quietHistory.terminal.isEmpty)

        let forty = try fixture.files.model("Forty", DiagramCommandTests.fortyEntityModel)
        let png = fixture.path("Forty.png")
        let diagram = try runWithTerminalStandardError(
            tool, ["diagram", "--model", forty, "--output", png])
        #expect(diagram.status == 0, "\(diagram.terminal)")
        #expect(
            diagram.terminal.contains("so far  laying out 40 entities (Graphviz neato)"),
            "\(diagram.terminal.debugDescription)")
        #expect(diagram.terminal.hasSuffix("\r\u{1B}[2K"))
        #expect(FileManager.default.fileExists(atPath: png))
        let quietDiagram = try runWithTerminalStandardError(
            tool, ["diagram", "-q", "--model", forty, "--output", png])
        #expect(quietDiagram.status == 0 && quietDiagram.terminal.isEmpty)
    }
}
