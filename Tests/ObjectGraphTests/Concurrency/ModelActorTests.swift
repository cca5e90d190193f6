import Foundation
import Testing

@testable import ObjectGraph

/// Imports clubs on its own private-queue context.
actor ClubImporter: ModelActor {
    nonisolated let modelExecutor: ContextExecutor
    /// Counts the blocks and methods running on the context's queue (to show they exclude each
    /// other).
    let running = QueueGuarded(0)

    init(container: PersistentContainer) {
        modelExecutor = ContextExecutor(container: container)
    }

    /// Inserts `count` clubs in batches of `batch`, saving each; returns the clubs counted.
    func importClubs(_ count: Int, batch: Int, prefix: String) throws -> Int {
        var done = 0
        while done < count {
            let size = min(batch, count - done)
            let seen = running.value
            try ConcurrencyFixture.insertClubs(size, prefix: "\(prefix)\(done)-", into: context)
            try context.save()
            running.value = seen + 1
            done += size
        }
        return try ConcurrencyFixture.clubs(in: context)
    }
}

/// Reads clubs on its own private-queue context.
actor ClubReader: ModelActor {
    nonisolated let modelExecutor: ContextExecutor

    init(_ context: BackgroundContext) {
        modelExecutor = ContextExecutor(context)
    }

    /// The titles of every club, sorted.
    func titles() throws -> [String] {
        let clubs = try context.fetch(FetchRequest(entityName: "Club"))
        return clubs.compactMap { $0["title"] as String? }.sorted()
    }

    /// Whether the actor's code runs inside its context's queue.
    func onContextQueue() -> Bool { context.queue.isCurrent }
}

/// SwiftData's `ModelActor` pattern over a private-queue context.
@Suite("ModelActor")
struct ModelActorTests {
    @Test("an actor imports on its context while another reads what it saved")
    func importAndRead() async throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let container = try ConcurrencyFixture.container(in: folder)
        let importer = ClubImporter(container: container)
        let reader = ClubReader(container.newBackgroundContext())
        #expect(await reader.onContextQueue())
        let imported = try await importer.importClubs(30, batch: 7, prefix: "i")
        #expect(imported == 30)
        let titles = try await reader.titles()
        #expect(titles.count == 30)
        #expect(titles.first == "i0-0")
    }

    @Test("the actor's methods and its context's perform blocks exclude each other")
    func methodsAndBlocksExclude() async throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let container = try ConcurrencyFixture.container(in: folder)
        let importer = ClubImporter(container: container)
        let background = importer.modelExecutor.backgroundContext
        let running = importer.running
        try await withThrowingTaskGroup(of: Void.self) { group in
            for round in 0..<4 {
                group.addTask {
                    _ = try await importer.importClubs(20, batch: 5, prefix: "m\(round)")
                }
                group.addTask {
                    for _ in 0..<4 {
                        await background.perform { context in
                            let seen = running.value
                            _ = try? ConcurrencyFixture.clubs(in: context)
                            running.value = seen + 1
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        // 4 imports of 4 batches, and 4 × 4 blocks: no update lost.
        #expect(await background.perform { _ in running.value } == 4 * 4 + 4 * 4)
        #expect(try await background.perform { try ConcurrencyFixture.clubs(in: $0) } == 80)
    }

    @Test("a perform block of the actor's context is isolated to the actor (assumeIsolated)")
    func blocksAreActorIsolated() async throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let container = try ConcurrencyFixture.container(in: folder)
        let reader = ClubReader(container.newBackgroundContext())
        let name = await reader.modelExecutor.backgroundContext.perform { context in
            context.name = "reader"
            return reader.assumeIsolated { $0.context.name }
        }
        #expect(name == "reader")
        // Outside the queue the executor says so (instead of `assumeIsolated` passing).
        #expect(reader.modelExecutor.isIsolatingCurrentContext() == false)
        let inside = await reader.modelExecutor.backgroundContext.perform { _ in
            reader.modelExecutor.isIsolatingCurrentContext()
        }
        #expect(inside == true)
    }
}
