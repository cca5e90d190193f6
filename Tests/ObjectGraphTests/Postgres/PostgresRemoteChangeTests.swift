import Foundation
import PostgresClient
import Testing

@testable import ObjectGraph

/// Remote change notifications on PostgreSQL (issue 22): every save `NOTIFY`s the schema's
/// channel; a store added with ``StoreOptions/postsRemoteChangeNotifications`` listens on a
/// connection of its own, the coordinator posts other writers' saves, and contexts merging
/// remote changes bring them in (from history when the store keeps it, else by rows).
@Suite("PostgreSQL remote change notifications", .serialized)
struct PostgresRemoteChangeTests {
    /// A coordinator on `url` with the counter model of the process tests.
    static func open(_ url: URL, notifies: Bool, history: Bool) throws -> StoreCoordinator {
        let coordinator = StoreCoordinator(model: try PostgresProcessTests.model())
        var options = StoreOptions()
        options.postsRemoteChangeNotifications = notifies
        options.tracksHistory = history
        try coordinator.addStore(type: .postgres, at: url, options: options)
        return coordinator
    }

    /// A coordinator on `url` posting remote changes, its stream of them, a context merging
    /// them, and a counter (1) it saved.
    static func listen(_ url: URL, history: Bool) throws -> (
        StoreCoordinator, AsyncStream<StoreRemoteChange>, ManagedContext, ManagedObject
    ) {
        let listening = try open(url, notifies: true, history: history)
        let changes = listening.remoteChanges()
        let context = ManagedContext(coordinator: listening)
        context.automaticallyMergesRemoteChanges = true
        let counter = try context.insert("Counter")
        try counter.set(Int64(1), for: "value")
        try context.save()
        return (listening, changes, context, counter)
    }

    /// Waits (up to `seconds`) for changes from `stream`, merging them into `context` after
    /// each, until `done` holds; whether it came to hold.
    static func merge(
        _ stream: AsyncStream<StoreRemoteChange>, into context: ManagedContext,
        within seconds: Double, until done: () -> Bool
    ) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        context.processPendingChanges()
        while !done() {
            let left = deadline.timeIntervalSinceNow
            guard left > 0,
                await RemoteChangeProcessTests.first(of: stream, within: left) != nil
            else { return done() }
            context.processPendingChanges()  // a confined context merges here
        }
        return true
    }

    @Test(
        "another coordinator's save is posted and merged; this one's own saves are not posted",
        arguments: [false, true])
    func anotherCoordinatorSaves(history: Bool) async throws {
        let url = try PostgresStoreTests.freshURL()
        let (listening, changes, context, counter) = try Self.listen(url, history: history)

        let writer = ManagedContext(
            coordinator: try Self.open(url, notifies: false, history: history))
        let same = try #require(try writer.fetch(FetchRequest(entityName: "Counter")).first)
        try same.set(Int64(2), for: "value")
        try writer.save()
        let saved = Date()

        let change = await RemoteChangeProcessTests.first(of: changes, within: 10)
        print("PostgreSQL remote change posted \(Date().timeIntervalSince(saved)) s after the save")
        #expect(change?.storeIdentifier == counter.objectID.storeIdentifier)
        #expect((change?.historyToken != nil) == history)
        context.processPendingChanges()
        #expect(counter["value"] as Int64? == 2)
        if history {
            #expect(
                context.remoteHistoryTokens[counter.objectID.storeIdentifier]
                    == change?.historyToken)
        }
        // Only the other coordinator's save was posted, not this one's own.
        #expect(listening.remoteChangeCenter.posts.load(ordering: .relaxed) == 1)
    }

    @Test("a listener hears notifications of other connections, and stops")
    func listener() throws {
        let url = try PostgresStoreTests.freshURL()
        let address = try PostgresURL(url)
        let heard = Locked([PostgresListener.Notification]())
        let arrived = DispatchSemaphore(value: 0)
        let listener = try PostgresListener(url: address, channel: "og test \"channel\"") {
            notification in
            heard.withLock { $0.append(notification) }
            arrived.signal()
        }
        let sender = try PostgresConnection(url: address)
        try sender.execute(
            "SELECT pg_notify($1::text, $2::text)", [.text("og test \"channel\""), .text("hello")])
        try sender.execute("SELECT pg_notify('other', 'not for it')")
        #expect(arrived.wait(timeout: .now() + 10) == .success)
        let first = heard.withLock { $0.first }
        #expect(first?.payload == "hello")
        #expect(first?.channel == "og test \"channel\"")
        let senderPID = try sender.execute("SELECT pg_backend_pid()").rows.first?.int64(0)
        #expect(first.map { Int64($0.senderProcessID) } == senderPID)
        listener.stop()
        listener.stop()
        try sender.execute(
            "SELECT pg_notify($1::text, $2::text)", [.text("og test \"channel\""), .text("late")])
        #expect(arrived.wait(timeout: .now() + 0.5) == .timedOut)
        #expect(heard.withLock { $0.count } == 1)
    }

    @Test("a listener whose connection drops connects again and the context catches up")
    func reconnects() async throws {
        let url = try PostgresStoreTests.freshURL()
        let (listening, changes, context, counter) = try Self.listen(url, history: true)
        let identifier = counter.objectID.storeIdentifier
        let watch = try #require(
            listening.remoteChangeCenter.watch(of: identifier) as? PostgresStoreWatch)
        let pid = try #require(watch.listener.serverProcessID)

        // The listening connection is killed; a save comes while it is away.
        let (admin, _) = try PostgresStoreTests.inspect(url)
        try admin.execute("SELECT pg_terminate_backend($1::integer)", [.integer(Int64(pid))])
        let writer = ManagedContext(
            coordinator: try Self.open(url, notifies: false, history: true))
        let same = try #require(try writer.fetch(FetchRequest(entityName: "Counter")).first)
        try same.set(Int64(5), for: "value")
        try writer.save()

        let merged = await Self.merge(changes, into: context, within: 20) {
            counter["value"] as Int64? == 5
        }
        #expect(merged)
        // The listener notices the drop on its own thread; wait for it (a test's wait).
        let deadline = Date().addingTimeInterval(20)
        while watch.listener.reconnections == 0, Date() < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(watch.listener.reconnections >= 1)
        #expect(watch.listener.serverProcessID != pid)
    }

    @Test(
        "another process's save is heard and merged without polling",
        .enabled(
            if: RemoteChangeProcessTests.tool != nil, "the objectgraph executable is not built"))
    func anotherProcessSaves() async throws {
        let tool = try #require(RemoteChangeProcessTests.tool)
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let model = try PostgresProcessTests.writeModel(in: folder)
        let url = try PostgresStoreTests.freshURL()
        let listening = try Self.open(url, notifies: true, history: true)
        let changes = listening.remoteChanges()
        let context = ManagedContext(coordinator: listening)
        context.automaticallyMergesRemoteChanges = true
        let (counter, board) = try PostgresProcessTests.seed(context)

        let started = Date()
        let (status, output, errors) = try PostgresProcessTests.run(
            tool,
            [
                "_shared-edits", "--model", model.path, "--store", url.absoluteString,
                "--worker", "2", "--times", "1", "--history", "on",
            ])
        #expect(status == 0, "\(errors)")
        #expect(output.hasPrefix("saves 1 "), "\(output)")
        let merged = await Self.merge(changes, into: context, within: 10) {
            counter["value"] as Int64? == 1
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(merged)
        #expect(board["slot2"] as Int64? == 1)
        #expect(board["last"] as String? == "2:1")
        print("PostgreSQL remote change heard and merged \(elapsed) s after the writer started")
    }
}
