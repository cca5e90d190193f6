import Foundation
import ObjectGraph
import Testing

/// Several processes, each with its own coordinator on one SQLite file, incrementing one
/// counter (`objectgraph _increment`): no update is lost under a store-trump policy with a
/// retry, conflicts are reported under the error policy, and no SQLITE_BUSY escapes.
@Suite(
    "Processes sharing a SQLite file", .serialized,
    .enabled(if: objectgraphTool != nil, "the objectgraph executable is not built"))
struct IncrementProcessesTests {
    /// Processes started together.
    static let processes = 4
    /// Increments each process makes.
    static let times = 50

    /// A model with `Counter(value)` and a store holding one counter at 0, in `files.folder`.
    static func makeStore(in files: ValidateDescribeFiles) throws -> (model: URL, store: URL) {
        let model = URL(
            fileURLWithPath: try files.model(
                "Counting",
                """
                    <entity name="Counter" representedClassName="Counter" syncable="YES">
                        <attribute name="value" optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                    </entity>
                """))
        let store = files.folder.appendingPathComponent("Counter.sqlite")
        let context = try open(model: model, store: store)
        try context.insert("Counter").set(Int64(0), for: "value")
        try context.save()
        return (model, store)
    }

    static func open(model: URL, store: URL) throws -> ManagedContext {
        let coordinator = StoreCoordinator(model: try EntityModel(contentsOf: model))
        try coordinator.addStore(type: .sqlite, at: store)
        return ManagedContext(coordinator: coordinator)
    }

    /// What one process printed: `saved S conflicts C retries R`.
    struct Report: Equatable {
        var saved = 0
        var conflicts = 0
        var retries = 0
    }

    /// Starts the processes together (they wait for a gate file) and returns each one's
    /// report, expecting each to exit with 0 and print nothing on standard error.
    static func run(policy: String, files: ValidateDescribeFiles) throws -> (
        reports: [Report], value: Int64?
    ) {
        let tool = try #require(objectgraphTool)
        let (model, store) = try makeStore(in: files)
        let gate = files.folder.appendingPathComponent("go")
        var running: [(Process, Pipe, Pipe)] = []
        for _ in 0..<processes {
            let process = Process()
            process.executableURL = tool
            process.arguments = [
                "_increment", "--model", model.path, "--store", store.path,
                "--times", "\(times)", "--policy", policy, "--start-after", gate.path, "--pause-ms",
                "1",
            ]
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            running.append((process, output, errors))
        }
        try Data().write(to: gate)
        var reports: [Report] = []
        for (process, output, errors) in running {
            let printed = String(
                decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let complaints = String(
                decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(complaints)")
            #expect(complaints.isEmpty)
            let numbers = printed.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
            #expect(numbers.count == 3, "\(printed)")
            if numbers.count == 3 {
                reports.append(
                    Report(saved: numbers[0], conflicts: numbers[1], retries: numbers[2]))
            }
        }
        let context = try open(model: model, store: store)
        let counter = try context.fetch(FetchRequest(entityName: "Counter")).first
        return (reports, counter?["value"] as Int64?)
    }

    @Test("under store trump with a retry, 4 processes × 50 increments end at exactly 200")
    func storeTrumpLosesNothing() throws {
        let files = try ValidateDescribeFiles()
        defer { try? FileManager.default.removeItem(at: files.folder) }
        let (reports, value) = try Self.run(policy: "storeTrump", files: files)
        #expect(reports.count == Self.processes)
        #expect(reports.allSatisfy { $0.saved == Self.times })
        #expect(value == Int64(Self.processes * Self.times))
    }

    @Test("under the error policy conflicts are reported; the value counts the saves that wrote")
    func errorReportsConflicts() throws {
        let files = try ValidateDescribeFiles()
        defer { try? FileManager.default.removeItem(at: files.folder) }
        let (reports, value) = try Self.run(policy: "error", files: files)
        #expect(reports.count == Self.processes)
        #expect(reports.allSatisfy { $0.saved + $0.conflicts == Self.times })
        #expect(reports.map(\.conflicts).reduce(0, +) > 0)
        #expect(value == Int64(reports.map(\.saved).reduce(0, +)))
    }
}
