import Foundation
import Testing

@testable import ObjectGraph

/// `automaticallyMergesChangesFromParent`: other contexts' saves on the coordinator merged on
/// the receiving context's own queue, without the app asking.
@Suite("Automatic merging")
struct AutomaticMergeTests {
    /// Saves three clubs on `background` and returns their IDs by title.
    static func saveClubs(_ background: BackgroundContext) async throws -> [String: ObjectID] {
        try await background.perform { context in
            var clubs: [String: ManagedObject] = [:]
            for title in ["Chess", "Go", "Bridge"] {
                let club = try context.insert("Club")
                try club.set(title, for: "title")
                clubs[title] = club
            }
            try context.save()
            return clubs.mapValues(\.objectID)  // permanent since the save
        }
    }

    /// Renames Chess and deletes Go on `background`, and saves.
    static func renameAndDelete(_ background: BackgroundContext, _ ids: [String: ObjectID])
        async throws
    {
        let chess = try #require(ids["Chess"])
        let go = try #require(ids["Go"])
        try await background.perform { context in
            try context.existingObject(with: chess).set("Chess960", for: "title")
            context.delete(try context.existingObject(with: go))
            try context.save()
        }
    }

    @Test(
        "the view context sees what a background context saved; a context without the flag does not"
    )
    @MainActor func viewContextMerges() async throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let container = try ConcurrencyFixture.container(in: folder)
        let view = container.viewContext
        view.automaticallyMergesChangesFromParent = true
        #expect(view.automaticallyMergesChangesFromParent)
        let plain = ManagedContext(coordinator: container.coordinator, concurrencyType: .mainQueue)
        // Both keep what they load (so a deleted object's leaving shows).
        view.retainsRegisteredObjects = true
        plain.retainsRegisteredObjects = true
        var changes: [ContextChange] = []
        let observation = view.observe {
            if $0.kind == .objectsDidChange { changes.append($0.changes) }
        }
        defer { observation.cancel() }
        let background = container.newBackgroundContext()

        let ids = try await Self.saveClubs(background)
        // The merge was queued on the main queue during the save, before this task resumed.
        #expect(changes == [ContextChange(inserted: Set(ids.values))])

        let chess = try #require(ids["Chess"])
        let go = try #require(ids["Go"])
        let viewChess = try view.existingObject(with: chess)
        let plainChess = try plain.existingObject(with: chess)
        _ = try view.existingObject(with: go)
        _ = try plain.existingObject(with: go)
        changes = []
        try await Self.renameAndDelete(background, ids)

        #expect(viewChess["title"] as String? == "Chess960")
        #expect(view.registeredObject(for: go) == nil)
        #expect(changes == [ContextChange(deleted: [go], refreshed: [chess])])
        // No flag, no merge.
        #expect(plainChess["title"] as String? == "Chess")
        #expect(plain.registeredObject(for: go) != nil)
        // Its own saves are not merged back into it: the save's own event lists the update,
        // and no merge refreshes it afterwards.
        changes = []
        try viewChess.set("Chess", for: "title")
        try view.save()
        await Task.yield()
        #expect(changes == [ContextChange(updated: [chess])])
    }

    @Test(
        "a private-queue context merges on its queue, before the blocks handed to it after the save"
    )
    func privateQueueMerges() async throws {
        let fixture = try ConcurrencyFixture()
        defer { fixture.remove() }
        let writer = BackgroundContext(coordinator: fixture.coordinator)
        let reader = BackgroundContext(coordinator: fixture.coordinator)
        let ids = try await Self.saveClubs(writer)
        let chess = try #require(ids["Chess"])
        let go = try #require(ids["Go"])
        try await reader.perform { context in
            context.automaticallyMergesChangesFromParent = true
            context.retainsRegisteredObjects = true
            _ = try context.existingObject(with: chess).value(for: "title")
            _ = try context.existingObject(with: go)
        }
        try await Self.renameAndDelete(writer, ids)
        let seen = await reader.perform { context in
            (
                context.registeredObject(for: chess)?["title"] as String?,
                context.registeredObject(for: go) == nil
            )
        }
        #expect(seen.0 == "Chess960")
        #expect(seen.1)
    }

    @Test("a confined context merges at its next processPendingChanges, fetch or save")
    func confinedMergesAtNextEvent() async throws {
        let fixture = try ConcurrencyFixture()
        defer { fixture.remove() }
        let writer = BackgroundContext(coordinator: fixture.coordinator)
        let context = ManagedContext(coordinator: fixture.coordinator)
        context.automaticallyMergesChangesFromParent = true
        context.retainsRegisteredObjects = true
        let ids = try await Self.saveClubs(writer)
        let chess = try #require(ids["Chess"])
        let held = try context.existingObject(with: chess)
        try await Self.renameAndDelete(writer, ids)
        // Queued, not merged yet: the context merges only inside its own calls.
        #expect(held["title"] as String? == "Chess")
        context.processPendingChanges()
        #expect(held["title"] as String? == "Chess960")
        // And at a fetch.
        try await writer.perform { context in
            try context.existingObject(with: chess).set("Chess", for: "title")
            try context.save()
        }
        #expect(held["title"] as String? == "Chess960")
        #expect(try ConcurrencyFixture.clubs(in: context) == 2)
        #expect(held["title"] as String? == "Chess")
        // Turned off, it hears no more.
        context.automaticallyMergesChangesFromParent = false
        try await writer.perform { context in
            try context.existingObject(with: chess).set("Chess960", for: "title")
            try context.save()
        }
        context.processPendingChanges()
        #expect(held["title"] as String? == "Chess")
        #expect(fixture.coordinator.saveObservers.isEmpty)
    }
}
