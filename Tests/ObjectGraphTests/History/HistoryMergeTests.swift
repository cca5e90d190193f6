import Foundation
import Testing

@testable import ObjectGraph

@Suite("Persistent history: merging into a context")
struct HistoryMergeTests {
    @Test("another coordinator's saves, read from history, reach a context's objects")
    func mergeFromHistory() throws {
        let fixture = try HistoryFixture()
        let (_, notes) = try fixture.seed()
        let reader = ManagedContext(coordinator: fixture.coordinator)
        reader.retainsRegisteredObjects = true
        let first = try reader.existingObject(with: notes[0].objectID)
        let second = try reader.existingObject(with: notes[1].objectID)
        #expect(try first.value(for: "title") == .string("a"))
        let token = try #require(
            try fixture.coordinator.currentHistoryToken(forStore: fixture.store))

        // Another process: its own coordinator on the same file.
        let (other, _) = try HistoryFixture.open(fixture.url, tracksHistory: true)
        let writer = HistoryFixture.context(other)
        writer.transactionAuthor = "other"
        try writer.existingObject(with: notes[0].objectID).set("changed", for: "title")
        writer.delete(try writer.existingObject(with: notes[1].objectID))
        let added = try writer.insert("Note")
        try added.set("c", for: "title")
        try writer.save()

        let result = try reader.execute(HistoryRequest.fetchHistory(after: token))
        #expect(result.transactions.map(\.author) == ["other"])
        let changes = try #require(result.transactions.first).objectIDChanges()
        #expect(changes.deleted == [notes[1].objectID])
        #expect(changes.inserted.count == 1)
        try reader.mergeChanges(fromHistory: result.transactions)
        #expect(try first.value(for: "title") == .string("changed"))
        #expect(second.isDeleted || !reader.registeredObjects.contains { $0 === second })
        #expect(throws: (any Error).self) { try reader.existingObject(with: notes[1].objectID) }
    }
}
