import Foundation
import Synchronization
import Testing

@testable import ObjectGraph

/// Remote change notifications (issue 21): a coordinator whose SQLite store was added with
/// `postsRemoteChangeNotifications` learns, without polling in the test, that another
/// coordinator committed to the same file; its own commits post nothing; contexts merge.
@Suite("Remote change notifications", .serialized)
struct RemoteChangeTests {
    typealias Recorder = RemoteChangeRecorder

    @Test("another coordinator's save is posted on this one within a second; its own is not")
    func postsOtherCoordinatorsSaves() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try RedTeamLeague.write(in: folder)
        let first = try Recorder.coordinator(url)
        let second = try Recorder.coordinator(url)
        let heardByFirst = Recorder(first)
        let heardBySecond = Recorder(second)
        let identifier = first.storeDescriptions[0].identifier

        let checksBefore = first.remoteChangeCenter.checks.load(ordering: .relaxed)
        let context = ManagedContext(coordinator: first)
        try RedTeamLeague.one(context, "Person", "Ann").set(41, for: "age")
        try context.save()
        #expect(Recorder.eventually { heardBySecond.recorded.count >= 1 })
        #expect(
            heardBySecond.recorded.first
                == StoreRemoteChange(storeIdentifier: identifier, storeURL: url))
        // The saving coordinator looked at its file after its own commit and posted nothing.
        #expect(
            Recorder.eventually {
                first.remoteChangeCenter.checks.load(ordering: .relaxed) > checksBefore
            })
        #expect(heardByFirst.recorded.isEmpty)
        #expect(first.remoteChangeCenter.posts.load(ordering: .relaxed) == 0)

        let other = ManagedContext(coordinator: second)
        try RedTeamLeague.one(other, "Person", "Bob").set(42, for: "age")
        try other.save()
        #expect(Recorder.eventually { heardByFirst.recorded.count >= 1 })
        #expect(heardByFirst.recorded.allSatisfy { $0.storeIdentifier == identifier })
    }

    @Test("a merging context shows another coordinator's updates, deletions and inserts")
    func contextMergesRemoteChanges() async throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try RedTeamLeague.write(in: folder)
        let watching = try Recorder.coordinator(url)
        let changes = watching.remoteChanges()
        let context = ManagedContext(coordinator: watching)
        context.automaticallyMergesRemoteChanges = true
        let ann = try RedTeamLeague.one(context, "Person", "Ann")
        let bob = try RedTeamLeague.one(context, "Person", "Bob")
        #expect(ann["age"] as Int? == 30)
        try ann.set("ann@example.com", for: "email")  // an unsaved change, kept by the merge
        var reported: [ContextChange] = []
        let observation = context.observe { note in
            if note.kind == .objectsDidChange { reported.append(note.changes) }
        }
        defer { observation.cancel() }

        let writer = ManagedContext(coordinator: try Recorder.coordinator(url, posting: false))
        try RedTeamLeague.one(writer, "Person", "Ann").set(41, for: "age")
        try writer.delete(RedTeamLeague.one(writer, "Person", "Bob"))
        try writer.insert("Person").set("Cid", for: "name")
        try writer.save()

        var iterator = changes.makeAsyncIterator()
        let change = await iterator.next()
        #expect(change?.storeURL == url)
        context.processPendingChanges()  // a confined context merges here
        #expect(ann["age"] as Int? == 41)
        #expect(ann["email"] as String? == "ann@example.com")
        #expect(context.registeredObject(for: bob.objectID) == nil)
        let names = try context.fetch(FetchRequest(entityName: "Person")).compactMap {
            $0["name"] as String?
        }
        #expect(Set(names) == ["Ann", "Cid"])
        #expect(reported.contains { $0.deleted.contains(bob.objectID) })
        #expect(reported.contains { $0.updated.contains(ann.objectID) })
    }

    @Test("nothing is posted, and nothing watches, when the option is off")
    func nothingWhenOff() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try RedTeamLeague.write(in: folder)
        let silent = try Recorder.coordinator(url, posting: false)
        let listening = try Recorder.coordinator(url)
        let heardBySilent = Recorder(silent)
        let heardByListening = Recorder(listening)
        #expect(silent.remoteChangeCenter.watchCount == 0)
        #expect(listening.remoteChangeCenter.watchCount == 1)

        let writer = ManagedContext(coordinator: try Recorder.coordinator(url, posting: false))
        try RedTeamLeague.one(writer, "Person", "Ann").set(41, for: "age")
        try writer.save()
        #expect(Recorder.eventually { heardByListening.recorded.count >= 1 })
        #expect(heardBySilent.recorded.isEmpty)
        #expect(silent.remoteChangeCenter.posts.load(ordering: .relaxed) == 0)
        #expect(silent.remoteChangeCenter.checks.load(ordering: .relaxed) == 0)
    }

    @Test("removing the store, or releasing the coordinator, stops its watch and its thread")
    func watchStopsWithTheStore() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try RedTeamLeague.write(in: folder)
        let removing = try Recorder.coordinator(url)
        let heardByRemoving = Recorder(removing)
        let store = removing.storeDescriptions[0]
        let watch = try #require(
            removing.remoteChangeCenter.watch(of: store.identifier) as? SQLiteFileWatcher)
        #expect(Recorder.eventually { watch.threadID != nil })
        let thread = try #require(watch.threadID)
        #expect(Self.threadExists(thread))

        removing.removeStore(store)
        #expect(watch.hasEnded)
        #expect(removing.remoteChangeCenter.watchCount == 0)
        #expect(Recorder.eventually { !Self.threadExists(thread) })

        // A later commit is heard by a coordinator still watching, not by the one that removed
        // its store.
        let listening = try Recorder.coordinator(url)
        let heardByListening = Recorder(listening)
        let writer = ManagedContext(coordinator: try Recorder.coordinator(url, posting: false))
        try RedTeamLeague.one(writer, "Person", "Ann").set(41, for: "age")
        try writer.save()
        #expect(Recorder.eventually { heardByListening.recorded.count >= 1 })
        #expect(heardByRemoving.recorded.isEmpty)

        // A coordinator that goes stops its watch too.
        var released: StoreCoordinator? = try Recorder.coordinator(url)
        let releasedWatch = try #require(
            released?.remoteChangeCenter.watch(of: store.identifier) as? SQLiteFileWatcher)
        weak let gone = released
        released = nil
        #expect(gone == nil)
        #expect(releasedWatch.hasEnded)
    }

    /// Whether the kernel thread `id` of this process still exists.
    static func threadExists(_ id: Int32) -> Bool {
        FileManager.default.fileExists(atPath: "/proc/self/task/\(id)")
    }
}
