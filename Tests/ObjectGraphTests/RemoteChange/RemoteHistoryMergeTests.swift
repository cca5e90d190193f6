import Foundation
import Testing

@testable import ObjectGraph

/// Remote changes merged from persistent history (issue 21): with history on, a remote change
/// carries the store's newest history token, and a context that merges remote changes reads
/// the transactions after its own token — so it also learns which objects are new.
@Suite("Remote changes merged from history", .serialized)
struct RemoteHistoryMergeTests {
    /// A coordinator on `url` that keeps history and, unless `posting` is off, posts remote
    /// changes.
    static func coordinator(_ url: URL, posting: Bool = true) throws -> StoreCoordinator {
        let coordinator = StoreCoordinator(model: TestModels.league())
        var options = StoreOptions()
        options.postsRemoteChangeNotifications = posting
        options.tracksHistory = true
        try coordinator.addStore(type: .sqlite, at: url, options: options)
        return coordinator
    }

    @Test("a remote change carries the history token; the merge lists inserts from the history")
    func mergesFromHistory() async throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try RedTeamLeague.write(in: folder)
        let watching = try Self.coordinator(url)
        let changes = watching.remoteChanges()
        let heard = RemoteChangeRecorder(watching)
        let context = ManagedContext(coordinator: watching)
        context.automaticallyMergesRemoteChanges = true
        let ann = try RedTeamLeague.one(context, "Person", "Ann")
        let bob = try RedTeamLeague.one(context, "Person", "Bob")
        #expect(ann["age"] as Int? == 30)
        var reported: [ContextChange] = []
        let observation = context.observe { note in
            if note.kind == .objectsDidChange { reported.append(note.changes) }
        }
        defer { observation.cancel() }

        let writing = try Self.coordinator(url, posting: false)
        let writer = ManagedContext(coordinator: writing)
        try RedTeamLeague.one(writer, "Person", "Ann").set(41, for: "age")
        try writer.delete(RedTeamLeague.one(writer, "Person", "Bob"))
        let cid = try writer.insert("Person")
        try cid.set("Cid", for: "name")
        try writer.save()
        let written = try #require(
            try writing.currentHistoryToken(forStore: writing.storeDescriptions[0]))

        // A checkpoint by another connection may be heard first (see README); the save's
        // change carries the save's token.
        try #require(
            RemoteChangeRecorder.eventually { heard.recorded.last?.historyToken == written })
        var iterator = changes.makeAsyncIterator()
        var change = try #require(await iterator.next())
        while change.historyToken != written { change = try #require(await iterator.next()) }
        context.processPendingChanges()  // a confined context merges here
        #expect(ann["age"] as Int? == 41)
        #expect(context.registeredObject(for: bob.objectID) == nil)
        // Only the history says which rows are new: the row comparison reports no insert.
        #expect(reported.contains { $0.inserted.contains(cid.objectID) })
        // Read again without unsaved changes here: refreshed (as Core Data's remote merge says).
        #expect(reported.contains { $0.refreshed.contains(ann.objectID) })
        #expect(reported.contains { $0.deleted.contains(bob.objectID) })
        #expect(context.remoteHistoryTokens[change.storeIdentifier] == written)
    }

    @Test("the notification's userInfo holds the token under Core Data's key")
    func notificationCarriesTheToken() throws {
        let token = HistoryToken(storeIdentifier: "S", transactionNumber: 7)
        let change = StoreRemoteChange(
            storeIdentifier: "S", storeURL: URL(fileURLWithPath: "/tmp/S.sqlite"),
            historyToken: token)
        let note = Notification(
            name: StoreCoordinator.remoteChangeNotification, object: nil,
            userInfo: change.userInfo)
        #expect(note.userInfo?["historyToken"] as? HistoryToken == token)
        #expect(StoreRemoteChange(note) == change)
    }

    @Test("after the history was deleted past its token, the context compares rows instead")
    func expiredTokenFallsBackToRows() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try RedTeamLeague.write(in: folder)
        let watching = try Self.coordinator(url, posting: false)
        let context = ManagedContext(coordinator: watching)
        let ann = try RedTeamLeague.one(context, "Person", "Ann")
        #expect(ann["age"] as Int? == 30)
        context.remoteHistoryTokens[watching.storeDescriptions[0].identifier] = HistoryToken(
            storeIdentifier: watching.storeDescriptions[0].identifier, transactionNumber: 0)

        let writing = try Self.coordinator(url, posting: false)
        let writer = ManagedContext(coordinator: writing)
        try RedTeamLeague.one(writer, "Person", "Ann").set(41, for: "age")
        try writer.save()
        try RedTeamLeague.one(writer, "Person", "Ann").set(42, for: "age")
        try writer.save()
        let newest = try #require(
            try writing.currentHistoryToken(forStore: writing.storeDescriptions[0]))
        try writing.deleteHistory(
            before: HistoryToken(
                storeIdentifier: newest.storeIdentifier,
                transactionNumber: newest.transactionNumber - 1))

        try context.mergeChanges(
            fromRemoteChange: StoreRemoteChange(
                storeIdentifier: newest.storeIdentifier, storeURL: url, historyToken: newest))
        #expect(ann["age"] as Int? == 42)
        #expect(context.remoteHistoryTokens[newest.storeIdentifier] == newest)
    }
}
