import Foundation
import ObjectGraph
import Testing

/// `objectgraph _increment` under store trump retries an increment until a save writes it, but
/// not for ever: after `--max-attempts` saves (1,000 by default) it stops with an error naming
/// the increment.
@Suite(
    "The increment command's retry cap",
    .enabled(if: objectgraphTool != nil, "the objectgraph executable is not built"))
struct IncrementAttemptsTests {
    /// A store whose Counter's value is transient: no save ever writes it, so every attempt of
    /// an increment fails to be written.
    static func neverWritten(in files: ValidateDescribeFiles) throws -> (URL, URL) {
        let model = URL(
            fileURLWithPath: try files.model(
                "Stuck",
                """
                    <entity name="Counter" representedClassName="Counter" syncable="YES">
                        <attribute name="value" optional="YES" transient="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
                        <attribute name="label" optional="YES" attributeType="String"/>
                    </entity>
                """))
        let store = files.folder.appendingPathComponent("Stuck.sqlite")
        let coordinator = StoreCoordinator(model: try EntityModel(contentsOf: model))
        try coordinator.addStore(type: .sqlite, at: store)
        let context = ManagedContext(coordinator: coordinator)
        try context.insert("Counter").set("c", for: "label")
        try context.save()
        return (model, store)
    }

    /// Runs the command with `extra` arguments; gives up (killing it) after a minute, so a
    /// command that never stops fails the test instead of hanging it.
    static func run(_ model: URL, _ store: URL, _ extra: [String]) throws -> (
        status: Int32?, errors: String
    ) {
        let tool = try #require(objectgraphTool)
        let process = Process()
        process.executableURL = tool
        process.arguments =
            ["_increment", "--model", model.path, "--store", store.path, "--times", "3"] + extra
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning {
            // SIGKILL: the command may not stop on SIGTERM.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return (nil, "")
        }
        let text = String(
            decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, text)
    }

    @Test("an increment no save writes stops after 1,000 attempts with a clear error")
    func defaultCap() throws {
        let files = try ValidateDescribeFiles()
        defer { try? FileManager.default.removeItem(at: files.folder) }
        let (model, store) = try Self.neverWritten(in: files)
        let (status, errors) = try Self.run(model, store, [])
        #expect(status != nil, "the command did not stop")
        #expect(status != 0)
        #expect(
            errors.contains("increment 1 of 3 was not written after 1000 attempts"), "\(errors)")
    }

    @Test("--max-attempts sets the cap; 0 is refused")
    func explicitCap() throws {
        let files = try ValidateDescribeFiles()
        defer { try? FileManager.default.removeItem(at: files.folder) }
        let (model, store) = try Self.neverWritten(in: files)
        let (status, errors) = try Self.run(model, store, ["--max-attempts", "5"])
        #expect(status != nil && status != 0)
        #expect(errors.contains("not written after 5 attempts"), "\(errors)")
        let (refused, complaint) = try Self.run(model, store, ["--max-attempts", "0"])
        #expect(refused == 2)
        #expect(complaint.contains("--max-attempts"))
    }
}
