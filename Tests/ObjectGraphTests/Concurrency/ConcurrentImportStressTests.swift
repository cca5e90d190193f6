import Foundation
import Synchronization
import Testing

@testable import ObjectGraph

/// Many background contexts importing at once while the view context fetches and merges.
@Suite("Concurrent import")
struct ConcurrentImportStressTests {
    static let importers = 4
    static let perImporter = 500
    static let batch = 50

    @Test("4 background contexts import 4 × 500 clubs while the view context fetches and merges")
    @MainActor func importWhileViewing() async throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let container = try ConcurrencyFixture.container(in: folder)
        let view = container.viewContext
        view.automaticallyMergesChangesFromParent = true
        var merged = Set<ObjectID>()
        let observation = view.observe { note in
            if note.kind == .objectsDidChange { merged.formUnion(note.changes.inserted) }
        }
        defer { observation.cancel() }
        let contexts = (0..<Self.importers).map { _ in container.newBackgroundContext() }
        let finished = Atomic<Bool>(false)
        let imports = Task.detached {
            defer { finished.store(true, ordering: .releasing) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (importer, context) in contexts.enumerated() {
                    group.addTask {
                        for start in stride(from: 0, to: Self.perImporter, by: Self.batch) {
                            try await context.perform { context in
                                try ConcurrencyFixture.insertClubs(
                                    Self.batch, prefix: "i\(importer)-\(start)-", into: context)
                                try context.save()
                                context.reset()
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        var rounds = 0
        var lastCount = 0
        while !finished.load(ordering: .acquiring) {
            let count = try ConcurrencyFixture.clubs(in: view)
            #expect(count >= lastCount && count <= Self.importers * Self.perImporter)
            lastCount = count
            var request = FetchRequest(
                entityName: "Club", sortDescriptors: [SortDescriptor("title", ascending: false)])
            request.fetchLimit = 20
            for club in try view.fetch(request) { _ = club["title"] as String? }
            rounds += 1
            try await Task.sleep(for: .milliseconds(2))
        }
        try await imports.value
        // Every save's merge was queued on the main queue before the imports finished.
        await Task.yield()
        let total = Self.importers * Self.perImporter
        #expect(try ConcurrencyFixture.clubs(in: view) == total)
        #expect(merged.count == total)
        let titles = try view.fetch(FetchRequest(entityName: "Club")).compactMap {
            $0["title"] as String?
        }
        #expect(Set(titles).count == total)
        #expect(rounds > 0)
    }
}
