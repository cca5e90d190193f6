import Foundation
import Testing

@testable import ObjectGraph

/// Batch deletes and relationships without an inverse (the deleted rows do not name their
/// holders): on every store, by the SQL path and by the row path, no reference to a deleted
/// row is left.
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
            _ = try coordinator.addStore(
                type: kind.type, at: try kind.url(in: folder, name: "unpaired"))
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
        "relationships without an inverse lose the deleted row; their holder is updated",
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
        // The to-one without an inverse no longer points at the deleted row (Core Data would
        // leave it, and its fault would fail to fire; the XML store cannot even write it).
        #expect(try board.object(for: "pinned") == nil)
        let pinnedBoards = try ManagedContext(coordinator: store.coordinator).fetch(
            FetchRequest<ManagedObject>(
                entityName: "Board", predicate: try Predicate(format: "pinned == nil")))
        #expect(pinnedBoards.count == 1)
        // The board can still be changed and saved.
        let writer = ManagedContext(coordinator: store.coordinator)
        let same = try writer.existingObject(with: boardID)
        try same.set("renamed", for: "name")
        try writer.save()
        #expect(try store.board().value(for: "name") == .string("renamed"))
    }
}
