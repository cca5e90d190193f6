import Foundation
import Testing

@testable import ObjectGraph

/// `BackgroundContext`, and the container's view context and background tasks.
@Suite("Background contexts and the container")
struct BackgroundContextTests {
    @Test("perform returns the block's value; object IDs cross queues")
    func performReturns() async throws {
        let fixture = try ConcurrencyFixture()
        defer { fixture.remove() }
        let background = BackgroundContext(coordinator: fixture.coordinator)
        let id = try await background.perform { context in
            let club = try context.insert("Club")
            try club.set("Chess", for: "title")
            try context.save()
            return club.objectID
        }
        #expect(!id.isTemporary)
        let reader = ManagedContext(coordinator: fixture.coordinator)
        #expect(try reader.existingObject(with: id)["title"] as String? == "Chess")
    }

    @Test("a throwing perform rethrows its typed error and leaves the context usable")
    func performRethrows() async throws {
        let fixture = try ConcurrencyFixture()
        defer { fixture.remove() }
        let background = BackgroundContext(coordinator: fixture.coordinator)
        await #expect(throws: Refused(reason: "half way")) {
            try await background.perform { (context) throws(Refused) -> Void in
                try? ConcurrencyFixture.insertClubs(2, prefix: "h", into: context)
                throw Refused(reason: "half way")
            }
        }
        // The context kept what the block did before throwing, and works on.
        let counts = try await background.perform { context in
            let pending = context.insertedObjects.count
            try context.save()
            return (pending, try ConcurrencyFixture.clubs(in: context))
        }
        #expect(counts == (2, 2))
    }

    @Test("fire-and-forget perform runs the blocks in order on the queue")
    func performInOrder() async throws {
        let fixture = try ConcurrencyFixture()
        defer { fixture.remove() }
        let background = BackgroundContext(coordinator: fixture.coordinator)
        let order = QueueGuarded<[Int]>([])
        // Called from a synchronous function: in an `async` one, `perform { … }` is the
        // `async` overload.
        func schedule(_ index: Int) {
            background.perform { context in
                #expect(context.queue.isCurrent)
                order.value.append(index)
            }
        }
        for index in 0..<20 { schedule(index) }
        let seen = await background.perform { _ in order.value }
        #expect(seen == Array(0..<20))
    }

    @Test("the container's view context is one main-queue context, made on the main actor")
    @MainActor func viewContext() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let container = try ConcurrencyFixture.container(in: folder)
        let view = container.viewContext
        #expect(view === container.viewContext)
        #expect(view.concurrencyType == .mainQueue)
        #expect(view.name == "viewContext")
        #expect(container.newContext().concurrencyType == .confined)
        try ConcurrencyFixture.insertClubs(1, prefix: "v", into: view)
        try view.save()
        #expect(try ConcurrencyFixture.clubs(in: view) == 1)
    }

    @Test("performBackgroundTask runs on a new private-queue context, async or fire-and-forget")
    func backgroundTasks() async throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let container = try ConcurrencyFixture.container(in: folder)
        let kind = try await container.performBackgroundTask { context in
            try ConcurrencyFixture.insertClubs(3, prefix: "t", into: context)
            try context.save()
            return context.concurrencyType
        }
        #expect(kind == .privateQueue)
        let done = Locked<CheckedContinuation<Int, Never>?>(nil)
        let count = await withCheckedContinuation { continuation in
            done.withLock { $0 = continuation }
            container.performBackgroundTask { context in
                let count = (try? ConcurrencyFixture.clubs(in: context)) ?? -1
                done.withLock { $0?.resume(returning: count) }
            }
        }
        #expect(count == 3)
    }

    @Test("a background context whose coordinator lost its store throws, keeping unsaved work")
    func lostStore() async throws {
        let fixture = try ConcurrencyFixture()
        defer { fixture.remove() }
        let background = BackgroundContext(coordinator: fixture.coordinator)
        let id = try await background.perform { context in
            let club = try context.insert("Club")
            try context.save()
            return club.objectID
        }
        for store in fixture.coordinator.storeDescriptions {
            fixture.coordinator.removeStore(store)
        }
        let outcome = await background.perform { context in
            var errors: [String] = []
            do { _ = try context.existingObject(with: id) } catch { errors.append("\(error)") }
            do {
                try ConcurrencyFixture.insertClubs(1, prefix: "new", into: context)
                try context.save()
            } catch { errors.append("\(error)") }
            return (errors, context.insertedObjects.count)
        }
        // Both fail with an error (no crash), and the unsaved insert is still there to save
        // once a store is back.
        #expect(outcome.0.count == 2)
        #expect(outcome.1 == 1)
    }
}
