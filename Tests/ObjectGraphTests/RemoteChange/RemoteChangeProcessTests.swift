import Foundation
import Testing

@testable import ObjectGraph

/// Remote change notifications across processes (issue 21): another process (`objectgraph
/// _increment`, the CLI's hidden multi-process helper) saves to the SQLite file this process
/// has open; this process's coordinator posts the change without the test polling the store,
/// and a context merging remote changes shows the other process's value.
@Suite("Remote change notifications between processes", .serialized)
struct RemoteChangeProcessTests {
    /// `objectgraph` beside the test runner or in `.build/debug`, or `nil` when not built.
    static let tool = KillTests.tool

    /// The model `_increment` expects: `Counter(value: Integer 64)`.
    static let modelXML = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" \
        lastSavedToolsVersion="23231" systemVersion="24A335" minimumToolsVersion="Automatic" \
        sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Counter" representedClassName="Counter" syncable="YES">
                <attribute name="value" optional="YES" attributeType="Integer 64" \
        defaultValueString="0" usesScalarValueType="YES"/>
            </entity>
        </model>
        """

    @Test(
        "another process's save is posted here and merged into a context (with history: from it)",
        .enabled(if: tool != nil, "the objectgraph executable is not built"),
        arguments: [false, true])
    func anotherProcessSaves(history: Bool) async throws {
        let tool = try #require(Self.tool)
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let modelFolder = folder.appendingPathComponent("Counting.xcdatamodel")
        try FileManager.default.createDirectory(at: modelFolder, withIntermediateDirectories: true)
        try Data(Self.modelXML.utf8).write(to: modelFolder.appendingPathComponent("contents"))
        let store = folder.appendingPathComponent("Counter.sqlite")

        let coordinator = StoreCoordinator(model: try EntityModel(contentsOf: modelFolder))
        var options = StoreOptions()
        options.postsRemoteChangeNotifications = true
        options.tracksHistory = history
        try coordinator.addStore(type: .sqlite, at: store, options: options)
        let heard = RemoteChangeRecorder(coordinator)
        let changes = coordinator.remoteChanges()
        let context = ManagedContext(coordinator: coordinator)
        context.automaticallyMergesRemoteChanges = true
        let counter = try context.insert("Counter")
        try counter.set(Int64(0), for: "value")
        try context.save()
        #expect(counter["value"] as Int64? == 0)

        let process = Process()
        process.executableURL = tool
        process.arguments = [
            "_increment", "--model", modelFolder.path, "--store", store.path, "--times", "1",
            "--history", history ? "on" : "off",
        ]
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let complaints = String(
            decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(complaints)")

        // The stream yields the change (a generous deadline: the machine may be loaded).
        let change = await Self.first(of: changes, within: 10)
        #expect(change?.storeIdentifier == counter.objectID.storeIdentifier)
        #expect(change?.storeURL == store)
        #expect((change?.historyToken != nil) == history)
        #expect(heard.recorded.first?.storeURL == store)
        context.processPendingChanges()  // a confined context merges here
        #expect(counter["value"] as Int64? == 1)
        if history {
            // Merged from the other process's transaction: the context's token moved to it.
            let written = try coordinator.currentHistoryToken(
                forStore: coordinator.storeDescriptions[0])
            #expect(context.remoteHistoryTokens[counter.objectID.storeIdentifier] == written)
            #expect(change?.historyToken == written)
        }
    }

    /// The first element of `stream`, or `nil` when none comes within `seconds`.
    static func first(of stream: AsyncStream<StoreRemoteChange>, within seconds: Double) async
        -> StoreRemoteChange?
    {
        await withTaskGroup(of: StoreRemoteChange?.self) { group in
            group.addTask {
                var iterator = stream.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
