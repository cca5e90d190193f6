import Foundation
import Synchronization
import Testing

@testable import ObjectGraph

/// Query generations: a pinned context reads one snapshot of its stores while other contexts
/// and coordinators save, until it moves on (by asking again, saving or merging).
@Suite("Query generations")
struct QueryGenerationTests {
    /// The names of the people `context` fetches, sorted.
    func names(_ context: ManagedContext) throws -> [String] {
        var request = FetchRequest(entityName: "Person")
        request.sortDescriptors = [SortDescriptor("name")]
        return try context.fetch(request).map { $0["name"] as String? ?? "" }
    }

    /// How many people `context` counts.
    func count(_ context: ManagedContext) throws -> Int {
        try context.count(for: FetchRequest(entityName: "Person"))
    }

    /// Inserts a person named `name` into `context`.
    func insert(_ name: String, into context: ManagedContext) throws {
        let person = try context.insert("Person")
        try person.set(name, for: "name")
    }

    /// Changes made by `same` (a context of the pinned context's coordinator) and `other` (a
    /// context of a second coordinator on the same file): Ann turns 31, Bob is deleted, Cid
    /// inserted; team Red is renamed Blue and Dee inserted.
    func saveChanges(same: ManagedContext, other: ManagedContext?) throws {
        try RedTeamLeague.one(same, "Person", "Ann").set(31, for: "age")
        same.delete(try RedTeamLeague.one(same, "Person", "Bob"))
        try insert("Cid", into: same)
        try same.save()
        let renamer = other ?? same
        try RedTeamLeague.one(renamer, "Team", "Red").set("Blue", for: "name")
        try insert("Dee", into: renamer)
        try renamer.save()
    }

    /// What the pinned context must still read after ``saveChanges(same:other:)``.
    func expectSnapshot(_ pinned: ManagedContext, bob: ObjectID, red: ObjectID) throws {
        #expect(try count(pinned) == 2)
        #expect(try names(pinned) == ["Ann", "Bob"])
        let ages = try pinned.fetchDictionaries(FetchRequest(entityName: "Person")).map {
            $0["age"]
        }
        #expect(ages == [.integer(30), .integer(30)])
        // Faults (the object and its to-many relationship) fire from the snapshot too.
        let bobObject = try pinned.object(with: bob)
        #expect(bobObject["age"] as Int? == 30)
        let team = try pinned.object(with: red)
        #expect(team["name"] as String? == "Red")
        #expect(try team.objects(for: "members").count == 2)
        let byPredicate = FetchRequest(
            entityName: "Team", predicate: try Predicate(format: "ANY members.name == 'Bob'"))
        #expect(try pinned.count(for: byPredicate) == 1)
    }

    /// Two contexts of one coordinator on the SQLite file `url`.
    func twoContexts(on url: URL) throws -> (ManagedContext, ManagedContext) {
        let coordinator = StoreCoordinator(model: TestModels.league())
        try coordinator.addStore(type: .sqlite, at: url)
        return (ManagedContext(coordinator: coordinator), ManagedContext(coordinator: coordinator))
    }

    @Test("a pinned SQLite context reads its snapshot while others save, then moves on")
    func sqliteSnapshot() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try RedTeamLeague.write(in: folder)
        let (pinned, same) = try twoContexts(on: url)
        let coordinator = pinned.coordinator
        let other = try SQLiteStoreTests.open(url)
        let bob = try RedTeamLeague.one(pinned, "Person", "Bob").objectID
        let red = try RedTeamLeague.one(pinned, "Team", "Red").objectID
        pinned.reset()  // holds nothing loaded: every read below goes to the store

        #expect(pinned.queryGenerationToken == nil)
        try pinned.setQueryGenerationFrom(.current)
        let token = try #require(pinned.queryGenerationToken)
        #expect(token != .current)
        try saveChanges(same: same, other: other)

        try expectSnapshot(pinned, bob: bob, red: red)
        #expect(try names(same) == ["Ann", "Cid", "Dee"])
        // Another context pinned with the token reads the same snapshot.
        let sharing = ManagedContext(coordinator: coordinator)
        try sharing.setQueryGenerationFrom(token)
        #expect(sharing.queryGenerationToken == token)
        #expect(try names(sharing) == ["Ann", "Bob"])

        // Moved to the newest generation: what was saved shows; loaded objects are refreshed
        // when asked.
        try pinned.setQueryGenerationFrom(.current)
        #expect(pinned.queryGenerationToken != token)
        #expect(try names(pinned) == ["Ann", "Cid", "Dee"])
        try pinned.refreshAllObjects()
        #expect(try RedTeamLeague.one(pinned, "Person", "Ann")["age"] as Int? == 31)
        #expect(try RedTeamLeague.one(pinned, "Team", "Blue")["name"] as String? == "Blue")
        #expect(try names(sharing) == ["Ann", "Bob"])

        // Unpinned: every save shows at once.
        try sharing.setQueryGenerationFrom(nil)
        #expect(sharing.queryGenerationToken == nil)
        try insert("Eve", into: other)
        try other.save()
        #expect(try names(sharing) == ["Ann", "Cid", "Dee", "Eve"])
        #expect(try names(pinned) == ["Ann", "Cid", "Dee"])
    }

    @Test("a pinned context's own save moves it to the newest generation")
    func saveAdvances() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try RedTeamLeague.write(in: folder)
        let pinned = try SQLiteStoreTests.open(url)
        let other = try SQLiteStoreTests.open(url)
        try pinned.setQueryGenerationFrom(.current)
        let before = try #require(pinned.queryGenerationToken)
        try insert("Cid", into: other)
        try other.save()
        #expect(try names(pinned) == ["Ann", "Bob"])
        // A save that fails writes nothing and keeps the generation.
        try insert("", into: pinned)
        #expect(throws: SaveError.self) { try pinned.save() }
        #expect(pinned.queryGenerationToken == before)
        pinned.rollback()
        try insert("Dee", into: pinned)
        try pinned.save()
        #expect(pinned.queryGenerationToken != before)
        #expect(pinned.queryGenerationToken != nil)
        #expect(try names(pinned) == ["Ann", "Bob", "Cid", "Dee"])
        // Still pinned: the next save of another coordinator does not show.
        try insert("Eve", into: other)
        try other.save()
        #expect(try count(pinned) == 4)
    }

    @Test("merging another context's save moves a pinned context to the newest generation")
    func mergeAdvances() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let (pinned, writer) = try twoContexts(on: RedTeamLeague.write(in: folder))
        let ann = try RedTeamLeague.one(pinned, "Person", "Ann")
        try pinned.setQueryGenerationFrom(.current)
        var note: ContextNotification?
        let observation = writer.observe { if $0.kind == .didSave { note = $0 } }
        defer { observation.cancel() }
        try RedTeamLeague.one(writer, "Person", "Ann").set(32, for: "age")
        try insert("Cid", into: writer)
        try writer.save()
        #expect(try count(pinned) == 2)
        try pinned.mergeChanges(fromContextDidSave: try #require(note))
        #expect(ann["age"] as Int? == 32)
        #expect(try names(pinned) == ["Ann", "Bob", "Cid"])
        let merged = try #require(pinned.queryGenerationToken)
        // A reset moves it on too.
        try insert("Dee", into: writer)
        try writer.save()
        #expect(try count(pinned) == 3)
        pinned.reset()
        #expect(pinned.queryGenerationToken != merged)
        #expect(try count(pinned) == 4)
    }

    @Test("a pinned in-memory context reads a copy of the rows as they were")
    func inMemorySnapshot() throws {
        let coordinator = StoreCoordinator(model: TestModels.league())
        try coordinator.addStore(type: .inMemory)
        let setup = ManagedContext(coordinator: coordinator)
        let red = try setup.insert("Team")
        try red.set("Red", for: "name")
        for name in ["Ann", "Bob"] {
            let person = try setup.insert("Person")
            try person.set(name, for: "name")
            try person.set(30, for: "age")
            try person.setObject(red, for: "team")
        }
        try setup.save()
        let bob = try RedTeamLeague.one(setup, "Person", "Bob").objectID
        let pinned = ManagedContext(coordinator: coordinator)
        let same = ManagedContext(coordinator: coordinator)
        try pinned.setQueryGenerationFrom(.current)
        try saveChanges(same: same, other: nil)
        try expectSnapshot(
            pinned, bob: bob, red: red.objectID)
        #expect(try names(same) == ["Ann", "Cid", "Dee"])
        try pinned.setQueryGenerationFrom(.current)
        #expect(try names(pinned) == ["Ann", "Cid", "Dee"])
        // Its own save moves it on past another context's save.
        try pinned.setQueryGenerationFrom(.current)
        try insert("Eve", into: same)
        try same.save()
        #expect(try count(pinned) == 3)
        try insert("Fay", into: pinned)
        try pinned.save()
        #expect(try names(pinned) == ["Ann", "Cid", "Dee", "Eve", "Fay"])
    }

    @Test("contexts on several threads share one generation while another thread saves")
    func sharedAcrossThreads() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try RedTeamLeague.write(in: folder)
        let (pinned, _) = try twoContexts(on: url)
        let coordinator = pinned.coordinator
        try pinned.setQueryGenerationFrom(.current)
        let token = try #require(pinned.queryGenerationToken)
        let seen = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 5) { thread in
            do {
                let context = ManagedContext(coordinator: coordinator)
                if thread == 0 {
                    for index in 0..<20 {
                        try insert("T\(index)", into: context)
                        try context.save()
                    }
                    return
                }
                try context.setQueryGenerationFrom(token)
                for _ in 0..<20 {
                    let names = try names(context).joined(separator: ",")
                    seen.withLock { $0.append(names) }
                }
            } catch {
                seen.withLock { $0.append("\(error)") }
            }
        }
        let reads = seen.withLock { $0 }
        #expect(reads.count == 80)
        #expect(Set(reads) == ["Ann,Bob"])
        #expect(try count(pinned) == 2)
        #expect(try count(ManagedContext(coordinator: coordinator)) == 22)
    }

    @Test("a token of another coordinator is refused, and the context stays as it was")
    func foreignToken() throws {
        let pinned = try TestModels.context()
        let stranger = try TestModels.context()
        try stranger.setQueryGenerationFrom(.current)
        let token = try #require(stranger.queryGenerationToken)
        #expect(throws: ObjectGraphError.queryGenerationOfAnotherCoordinator(token.description)) {
            try pinned.setQueryGenerationFrom(token)
        }
        #expect(pinned.queryGenerationToken == nil)
    }

    @Test("a read-only SQLite store is its own generation; the WAL error names the store")
    func readOnlyAndWAL() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try RedTeamLeague.write(in: folder)
        let reader = try SQLiteStoreTests.open(url, readOnly: true)
        let before = Self.openFiles(in: folder)
        try reader.setQueryGenerationFrom(.current)
        #expect(reader.queryGenerationToken != nil)
        #expect(try names(reader) == ["Ann", "Bob"])
        #expect(Self.openFiles(in: folder) == before)
        let error = StoreError.queryGenerationsNeedWAL(path: url.path, journalMode: "delete")
        #expect(
            error.description
                == "\(url.path): query generations need the WAL journal mode; the store is in"
                + " delete mode")
    }

    /// The open file descriptors of the process that name a file in `folder`.
    static func openFiles(in folder: URL) -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let prefix = folder.resolvingSymlinksInPath().path
        return entries.filter { entry in
            let target = try? FileManager.default.destinationOfSymbolicLink(
                atPath: "/proc/self/fd/" + entry)
            return target?.hasPrefix(prefix) == true
        }.count
    }

    @Test("generations let go close their connections: pinning many times opens no more files")
    func noConnectionLeak() throws {
        let folder = try TestSupport.makeTemporaryFolder().resolvingSymlinksInPath()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try RedTeamLeague.write(in: folder)
        let context = try SQLiteStoreTests.open(url)
        let writer = try SQLiteStoreTests.open(url)
        #expect(try count(context) == 2)
        let baseline = Self.openFiles(in: folder)
        #expect(baseline > 0)
        try context.setQueryGenerationFrom(.current)
        #expect(try count(context) == 2)
        let pinnedFiles = Self.openFiles(in: folder)
        #expect(pinnedFiles > baseline)
        var afterFew = 0
        for round in 0..<200 {
            try context.setQueryGenerationFrom(.current)
            #expect(try count(context) == 2 + round)
            if round % 2 == 0 { try context.setQueryGenerationFrom(nil) }
            try insert("P\(round)", into: writer)
            try writer.save()
            if round == 19 { afterFew = Self.openFiles(in: folder) }
        }
        // SQLite may keep a closed connection's descriptor for reuse while other connections
        // of the process lock the file: a small constant, never one per generation.
        let afterMany = Self.openFiles(in: folder)
        #expect(afterMany <= afterFew)
        #expect(afterMany <= pinnedFiles + 2)
        try context.setQueryGenerationFrom(nil)
        let unpinned = Self.openFiles(in: folder)
        #expect(unpinned <= baseline + 2)
    }
}
