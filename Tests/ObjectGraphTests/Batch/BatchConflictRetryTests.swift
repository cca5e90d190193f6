import Foundation
import Testing

@testable import ObjectGraph

/// A batch request worked out from the stored rows, when another coordinator saves some of
/// those rows between the reading and the writing: the request reads them again and succeeds
/// with the other writer's values, instead of failing with ``SaveError/conflicts(_:)``.
@Suite("Batch requests and another writer")
struct BatchConflictRetryTests {
    /// Renames the file named `from` to `to` through another coordinator on the store at `url`.
    static func rename(_ from: String, to: String, at url: URL) throws {
        let other = StoreCoordinator(model: BatchFixture.model())
        _ = try other.addStore(type: .sqlite, at: url)
        let context = ManagedContext(coordinator: other)
        let file = try #require(
            try context.fetch(
                FetchRequest<ManagedObject>(
                    entityName: "File", predicate: try Predicate(format: "name == %@", from))
            ).first)
        try file.set(to, for: "name")
        try context.save()
    }

    @Test("a batch delete by IDs retries after another writer's save")
    func deleteRetries() throws {
        let fixture = try BatchFixture(.sqlite)
        let ids = try fixture.objects("File", "name IN {'a', 'b'}").map(\.objectID)
        let url = fixture.folder.appendingPathComponent("batch.sqlite")
        let hook = BatchHookCalls { call in
            if call == 1 { try Self.rename("a", to: "x", at: url) }
        }
        var request = BatchDeleteRequest(objectIDs: ids)
        request.resultType = .count
        // a's pages go by cascade.
        #expect(try hook.during { try fixture.context.execute(request) }.count == 4)
        #expect(hook.calls == 2)
        #expect(try fixture.names("File") == ["c", "d"])
        #expect(try fixture.names("Page") == ["3"])
    }

    @Test("a batch update evaluated row by row uses the other writer's values")
    func updateRetries() throws {
        let fixture = try BatchFixture(.sqlite)
        let url = fixture.folder.appendingPathComponent("batch.sqlite")
        let hook = BatchHookCalls { call in
            if call == 1 { try Self.rename("a", to: "x", at: url) }
        }
        // A string expression: evaluated over the rows, not in SQL.
        let request = BatchUpdateRequest(
            entityName: "File",
            propertiesToUpdate: ["name": .function("uppercase:", [.key("name")])])
        _ = try hook.during { try fixture.context.execute(request) }
        #expect(hook.calls == 2)
        #expect(try fixture.names("File") == ["B", "C", "D", "X"])
    }
}
