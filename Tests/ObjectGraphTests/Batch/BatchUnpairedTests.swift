import Foundation
import Testing

@testable import ObjectGraph

/// Batch deletes and relationships without an inverse (the deleted rows do not name their
/// holders): on every store, by the SQL path and by the row path, the same as Core Data.
@Suite("Batch deletes and relationships without an inverse")
struct BatchUnpairedTests {
    /// `Board.pinned` (to-one) and `Board.cards` (to-many) point at `Card` without inverses.
    static func model() -> EntityModel {
        var board = Entity("Board")
        board.attributes = [Attribute("name", type: .string)]
        board.relationships = [
            Relationship("pinned", destination: "Card"),
            Relationship("cards", destination: "Card", toMany: true),
        ]
        var card = Entity("Card")
        card.attributes = [Attribute("name", type: .string)]
        return EntityModel(entities: [board, card])
    }

    /// A store with board `b` pinning card `c1` and holding `c1`, `c2`.
    final class Store {
        let folder: URL
        let coordinator = StoreCoordinator(model: BatchUnpairedTests.model())
        private var readers: [ManagedContext] = []

        init(_ kind: BatchStoreKind) throws {
            folder = try TestSupport.makeTemporaryFolder()
            let url = kind == .inMemory ? nil : folder.appendingPathComponent("unpaired.\(kind)")
            _ = try coordinator.addStore(type: kind.type, at: url)
            let context = ManagedContext(coordinator: coordinator)
            let board = try context.insert("Board")
            try board.set("b", for: "name")
            let first = try context.insert("Card")
            try first.set("c1", for: "name")
            let second = try context.insert("Card")
            try second.set("c2", for: "name")
            try board.setObject(first, for: "pinned")
            try board.setObjects([first, second], for: "cards")
            try context.save()
        }

        deinit { TestSupport.removeTemporaryFolder(folder) }

        /// The board, read in a fresh context (kept alive with the fixture).
        func board() throws -> ManagedObject {
            let context = ManagedContext(coordinator: coordinator)
            readers.append(context)
            return try #require(
                try context.fetch(FetchRequest<ManagedObject>(entityName: "Board")).first)
        }
    }

    /// The two ways of asking: by predicate (SQL in the SQLite store) and by IDs (the rows).
    enum Way: String, CaseIterable, Sendable { case predicate, objectIDs }

    @Test(
        "a to-many loses the deleted row; a to-one keeps it and reads as not found",
        arguments: BatchStoreKind.allCases, Way.allCases)
    func unpaired(_ kind: BatchStoreKind, _ way: Way) throws {
        let store = try Store(kind)
        let context = ManagedContext(coordinator: store.coordinator)
        let boardID = try store.board().objectID
        let card = try #require(
            try context.fetch(
                FetchRequest<ManagedObject>(
                    entityName: "Card", predicate: try Predicate(format: "name == 'c1'"))
            ).first
        ).objectID
        var request =
            way == .predicate
            ? BatchDeleteRequest(
                entityName: "Card", predicate: try Predicate(format: "name == 'c1'"))
            : BatchDeleteRequest(objectIDs: [card])
        request.resultType = .objectIDs
        let result = try context.execute(request)
        #expect(result.objectIDs == [card])
        // The holder of the to-many is changed, on every path.
        #expect(result.changes[.updatedObjects] == [boardID])
        let board = try store.board()
        #expect(try board.objects(for: "cards").map { try $0.value(for: "name") } == ["c2"])
        // The to-one without an inverse keeps the deleted row's ID, as in Core Data; reading
        // it throws a typed error (never a trap), and a predicate through it reads nil.
        #expect(throws: ObjectGraphError.objectNotFound(card)) {
            _ = try board.object(for: "pinned")?.value(for: "name")
        }
        let pinnedBoards = try ManagedContext(coordinator: store.coordinator).fetch(
            FetchRequest<ManagedObject>(
                entityName: "Board", predicate: try Predicate(format: "pinned.name == 'c1'")))
        #expect(pinnedBoards.isEmpty)
        // The board can still be changed and saved.
        let writer = ManagedContext(coordinator: store.coordinator)
        let same = try writer.existingObject(with: boardID)
        try same.set("renamed", for: "name")
        try writer.save()
        #expect(try store.board().value(for: "name") == .string("renamed"))
    }
}
