import Foundation
import Testing

@testable import ObjectGraph

/// Parent and child contexts on different queues: a child's calls into its parent enter the
/// parent's queue, and a child that asks for it merges its parent's saves on its own queue.
@Suite("Parent and child contexts on queues")
struct QueuedParentChildTests {
    @Test("a private child of the view context saves into it, through the main queue")
    @MainActor func childOfViewContext() async throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let container = try ConcurrencyFixture.container(in: folder)
        let view = container.viewContext
        try ConcurrencyFixture.insertClubs(2, prefix: "v", into: view)
        let editor = BackgroundContext(viewContextOf: container)
        let seen = try await editor.perform { context in
            #expect(context.parent?.concurrencyType == .mainQueue)
            // The child's fetch reads the parent's unsaved inserts (on the main queue).
            let before = try ConcurrencyFixture.clubs(in: context)
            try ConcurrencyFixture.insertClubs(3, prefix: "e", into: context)
            try context.save()
            return before
        }
        #expect(seen == 2)
        #expect(view.insertedObjects.count == 5)
        try view.save()
        let stored = try await container.performBackgroundTask {
            try ConcurrencyFixture.clubs(in: $0)
        }
        #expect(stored == 5)
    }

    @Test("a child that merges automatically takes its parent's saves on its own queue")
    func childMergesParentSaves() async throws {
        let fixture = try ConcurrencyFixture()
        defer { fixture.remove() }
        let parent = BackgroundContext(coordinator: fixture.coordinator)
        let merging = BackgroundContext(parent: parent)
        let plain = BackgroundContext(parent: parent)
        let id = try await parent.perform { context in
            let club = try context.insert("Club")
            try club.set("Chess", for: "title")
            try context.save()
            return club.objectID
        }
        for child in [merging, plain] {
            try await child.perform { context in
                context.retainsRegisteredObjects = true
                _ = try context.existingObject(with: id).value(for: "title")
            }
        }
        await merging.perform { $0.automaticallyMergesChangesFromParent = true }
        try await parent.perform { context in
            try context.existingObject(with: id).set("Go", for: "title")
            try context.save()
        }
        // The merge was queued on each child's queue during the parent's save.
        let titles = await [merging, plain].asyncMap { child in
            await child.perform { $0.registeredObject(for: id)?["title"] as String? }
        }
        #expect(titles == ["Go", "Chess"])
        // A child is not registered with the coordinator: only its parent's saves reach it.
        #expect(fixture.coordinator.saveObservers.isEmpty)
    }
}

extension Array where Element: Sendable {
    /// `map` with an `async` transform, in order.
    fileprivate func asyncMap<T>(_ transform: (Element) async -> T) async -> [T] {
        var result: [T] = []
        for element in self { result.append(await transform(element)) }
        return result
    }
}
