import Foundation
import Synchronization
import Testing

@testable import ObjectGraph

/// Asynchronous fetches: batches with progress, cancellation between batches, errors at the
/// completion, and exactly the objects a plain fetch gives.
@Suite("Asynchronous fetches")
struct AsynchronousFetchTests {
    /// What a completion or a progress handler saw, kept for the test. Unchecked: the contexts
    /// here are confined, so every handler runs on the test's thread, before it reads this.
    final class Record<T: ManagedObject>: @unchecked Sendable {
        var results: [AsynchronousFetchResult<T>] = []
        var updates: [FetchProgress.Update] = []
    }

    /// A SQLite store of `count` people, `P0000`…, aged 0 to 99 in turn.
    static func people(_ count: Int, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("People.sqlite")
        let context = try SQLiteStoreTests.open(url)
        for index in 0..<count {
            let person = try context.insert("Person")
            try person.set(String(format: "P%04d", index), for: "name")
            try person.set(index % 100, for: "age")
        }
        try context.save()
        return url
    }

    /// People aged 10 or more, by name, last first.
    static func request() throws -> FetchRequest<ManagedObject> {
        var request = FetchRequest(
            entityName: "Person", predicate: try Predicate(format: "age >= 10"))
        request.sortDescriptors = [SortDescriptor("name", ascending: false)]
        return request
    }

    /// Executes `request` on `context` and runs its work until it ends (a confined context's
    /// queued work runs when it processes its pending changes).
    static func run<T>(
        _ request: FetchRequest<T>, on context: ManagedContext, batchSize: Int = 256,
        cancelAfter: Int? = nil
    ) throws -> (Record<T>, FetchProgress) {
        let record = Record<T>()
        let asynchronous = AsynchronousFetchRequest(
            fetchRequest: request, batchSize: batchSize,
            progressHandler: { progress in
                record.updates.append(
                    FetchProgress.Update(
                        completedUnitCount: progress.completedUnitCount,
                        totalUnitCount: progress.totalUnitCount))
                if let cancelAfter, progress.completedUnitCount >= cancelAfter {
                    progress.cancel()
                }
            },
            completion: { record.results.append($0) })
        let progress = try context.execute(asynchronous)
        var rounds = 0
        while !progress.isFinished && rounds < 10_000 {
            context.processPendingChanges()
            rounds += 1
        }
        return (record, progress)
    }

    @Test("progress reaches the total, and the completion gets a plain fetch's objects in order")
    func finishes() async throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try Self.people(1_000, in: folder)
        let context = try SQLiteStoreTests.open(url)
        let (record, progress) = try Self.run(try Self.request(), on: context)
        let plain = try SQLiteStoreTests.open(url).fetch(try Self.request())
        #expect(plain.count == 900)
        let result = try #require(record.results.first)
        #expect(record.results.count == 1)
        let objects = try #require(result.finalResult)
        #expect(objects.map(\.objectID) == plain.map(\.objectID))
        #expect(objects.map { $0["name"] as String? } == plain.map { $0["name"] as String? })
        #expect(objects.allSatisfy { !$0.isFault || $0["age"] as Int? != nil })
        #expect(result.operationError == nil && !result.isCancelled)
        #expect(result.context === context)
        let steps = [0, 256, 512, 768, 900].map {
            FetchProgress.Update(completedUnitCount: $0, totalUnitCount: 900)
        }
        #expect(record.updates == steps)
        #expect(progress.completedUnitCount == 900 && progress.totalUnitCount == 900)
        #expect(progress.fractionCompleted == 1 && progress.isFinished && !progress.isCancelled)
        progress.cancel()  // an ended fetch: nothing happens
        #expect(!progress.isCancelled)
        var streamed: [FetchProgress.Update] = []
        for await update in progress.updates { streamed.append(update) }
        #expect(streamed == steps)
        // The objects are the context's: a plain fetch now gives the same ones.
        let again = try context.fetch(try Self.request())
        #expect(zip(again, objects).allSatisfy { $0 === $1 })
    }

    @Test("pending changes count as in a plain fetch, and a limit and offset apply")
    func pendingChanges() throws {
        let context = try TestModels.context()
        for index in 0..<40 {
            let person = try context.insert("Person")
            try person.set("Q\(index)", for: "name")
            try person.set(index, for: "age")
        }
        try context.save()
        let added = try context.insert("Person")
        try added.set("Q99", for: "name")
        try added.set(50, for: "age")
        context.delete(try RedTeamLeague.one(context, "Person", "Q15"))
        var request = try Self.request()
        request.fetchOffset = 3
        request.fetchLimit = 20
        let plain = try context.fetch(request)
        let (record, _) = try Self.run(request, on: context, batchSize: 7)
        let objects = try #require(record.results.first?.finalResult)
        #expect(objects.count == 20)
        #expect(zip(objects, plain).allSatisfy { $0 === $1 })
        #expect(record.updates.map(\.completedUnitCount) == [0, 7, 14, 20])
    }

    /// The context a progress handler works on between batches. Unchecked: the context is
    /// confined to the test's thread, where its queued work (the handler too) runs.
    final class ContextBox: @unchecked Sendable {
        let context: ManagedContext
        init(_ context: ManagedContext) { self.context = context }
    }

    @Test("a save between batches keeps an unsaved insert among the objects")
    func saveBetweenBatches() throws {
        let context = try TestModels.context()
        for index in 0..<30 {
            let person = try context.insert("Person")
            try person.set("Q\(index)", for: "name")
            try person.set(index + 10, for: "age")
        }
        try context.save()
        let added = try context.insert("Person")
        try added.set("A", for: "name")  // last, by name descending
        try added.set(50, for: "age")
        let box = ContextBox(context)
        let record = Record<ManagedObject>()
        let request = AsynchronousFetchRequest(
            fetchRequest: try Self.request(), batchSize: 8,
            progressHandler: { progress in
                if progress.completedUnitCount == 8 { try? box.context.save() }
            },
            completion: { record.results.append($0) })
        let progress = try context.execute(request)
        // Each batch is a piece of queued work: a confined context runs the work queued by
        // then at each drain.
        var rounds = 0
        while !progress.isFinished && rounds < 10_000 {
            context.processPendingChanges()
            rounds += 1
        }
        let objects = try #require(record.results.first?.finalResult)
        #expect(objects.count == 31)
        #expect(objects.last === added)
        #expect(!added.objectID.isTemporary)
        #expect(objects.map(\.objectID) == (try context.fetch(try Self.request())).map(\.objectID))
    }

    @Test("cancelled after its first batch, a fetch stops with a cancelled result")
    func cancels() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try Self.people(1_000, in: folder)
        let context = try SQLiteStoreTests.open(url)
        let (record, progress) = try Self.run(try Self.request(), on: context, cancelAfter: 256)
        let result = try #require(record.results.first)
        #expect(record.results.count == 1)
        #expect(result.finalResult == nil && result.isCancelled)
        #expect(
            result.operationError as? AsynchronousFetchError
                == .cancelled(completedUnitCount: 256, totalUnitCount: 900))
        #expect(record.updates.map(\.completedUnitCount) == [0, 256])
        #expect(progress.isCancelled && progress.isFinished)
        #expect(progress.completedUnitCount == 256)
        // Cancelled once its last batch is loaded, a fetch still finishes.
        let (late, lateProgress) = try Self.run(
            try Self.request(), on: context, cancelAfter: 900)
        #expect(late.results.first?.finalResult?.count == 900)
        #expect(lateProgress.isFinished && !lateProgress.isCancelled)
        // The context goes on as before.
        #expect(try context.count(for: try Self.request()) == 900)
        let person = try context.insert("Person")
        try person.set("New", for: "name")
        try context.save()
        #expect(try context.count(for: FetchRequest(entityName: "Person")) == 1_001)
    }

    @Test("a fetch error reaches the completion as the plain fetch's typed error")
    func failures() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try Self.people(10, in: folder)
        let context = try SQLiteStoreTests.open(url)
        let bad = FetchRequest(
            entityName: "Person", predicate: try Predicate(format: "shoeSize > 3"))
        var plainError: (any Error)?
        do { _ = try context.fetch(bad) } catch { plainError = error }
        let expected = try #require(plainError)
        let (record, progress) = try Self.run(bad, on: context)
        let result = try #require(record.results.first)
        let error = try #require(result.operationError)
        #expect(type(of: error) == type(of: expected))
        #expect("\(error)" == "\(expected)")
        #expect(!result.isCancelled && progress.isFinished && !progress.isCancelled)
        #expect(try context.count(for: FetchRequest(entityName: "Person")) == 10)
        // An entity the model lacks is refused at once.
        let unknown = AsynchronousFetchRequest(fetchRequest: FetchRequest(entityName: "Nope")) {
            _ in
        }
        #expect(throws: ObjectGraphError.self) { try context.execute(unknown) }
    }
}
