import Foundation
import PostgresClient
import Testing

@testable import ObjectGraph

/// Batch requests on a PostgreSQL store run in the store, in one transaction (the shared batch
/// suites check their results on every store, PostgreSQL included): deletes and updates of
/// constants never take the rows path, and writers running them at once all succeed.
@Suite("PostgreSQL batch requests in the store")
struct PostgresBatchRequestTests {
    @Test("batch deletes and constant updates run in the store, not through the rows path")
    func inTheStore() throws {
        let fixture = try BatchFixture(.postgres)
        let hook = BatchHookCalls()
        var delete = BatchDeleteRequest(
            entityName: "Folder", predicate: try Predicate(format: "name == 'work'"))
        delete.resultType = .count
        #expect(try hook.during { try fixture.context.execute(delete) }.count == 5)
        let update = BatchUpdateRequest(
            entityName: "File", predicate: try Predicate(format: "folder.name == 'home'"),
            values: ["bytes": 7])
        #expect(try hook.during { try fixture.context.execute(update) }.status)
        #expect(hook.calls == 0)
        #expect(try fixture.objects("File", "bytes == 7").map { $0["name"] as String? } == ["c"])
        #expect(try fixture.names("Page") == ["3"])
    }

    @Test("a deny rule refuses the whole delete: nothing changed, versions included")
    func denyChangesNothing() throws {
        let fixture = try BatchFixture(.postgres)
        let before = try fixture.objects("Label").map { try fixture.version(of: $0.objectID) }
        #expect(throws: ValidationError.self) {
            try fixture.context.execute(BatchDeleteRequest(entityName: "Folder"))
        }
        let after = try fixture.objects("Label").map { try fixture.version(of: $0.objectID) }
        #expect(before == after)
        #expect(try fixture.names("File") == ["a", "b", "c", "d"])
    }

    @Test("writers updating the same rows at once all succeed; no update is lost")
    func concurrentUpdates() throws {
        let fixture = try BatchFixture(.postgres)
        let url = try #require(fixture.coordinator.storeDescriptions.first?.url)
        let start = try fixture.objects("Folder").map { try fixture.version(of: $0.objectID) }
        let failures = Locked<[String]>([])
        let coordinators = try (0..<4).map { _ in
            let coordinator = StoreCoordinator(model: BatchFixture.model())
            try coordinator.addStore(type: .postgres, at: url)
            return coordinator
        }
        DispatchQueue.concurrentPerform(iterations: coordinators.count) { index in
            do {
                let context = ManagedContext(coordinator: coordinators[index])
                for round in 0..<5 {
                    try context.execute(
                        BatchUpdateRequest(
                            entityName: "Folder",
                            values: ["score": .double(Double(index * 10 + round))]))
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let end = try fixture.objects("Folder").map { try fixture.version(of: $0.objectID) }
        #expect(end == start.map { $0 + 20 })
    }
}

extension BatchFixture {
    /// The stored version (`Z_OPT`) of the object `id`.
    func version(of id: ObjectID) throws -> Int64 {
        try #require(try coordinator.rows(for: [id], in: nil)[id]).version
    }
}
