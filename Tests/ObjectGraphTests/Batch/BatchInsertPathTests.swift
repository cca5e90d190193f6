import Foundation
import Testing

@testable import ObjectGraph

/// The SQLite and PostgreSQL stores' own batch insert paths: one transaction of INSERTs, no
/// rows saved through the context's path, with the same answers as the stores that save rows.
@Suite("Batch insert in the store")
struct BatchInsertPathTests {
    @Test(
        "SQLite and PostgreSQL insert by themselves; IDs in request order, defaults, keys",
        arguments: BatchStoreKind.allCases)
    func storeInsert(_ kind: BatchStoreKind) throws {
        let fixture = try BatchFixture(kind)
        let hook = BatchHookCalls()
        var request = BatchInsertRequest(
            entityName: "Folder",
            objects: [["name": "n1"], ["name": "n2", "score": 7], ["name": "n3", "score": 2.5]])
        request.resultType = .objectIDs
        let result = try hook.during { try fixture.context.execute(request) }
        // The rows path (commitBatch) runs only where the store cannot insert by itself.
        #expect(hook.calls == ([.sqlite, .postgres].contains(kind) ? 0 : 1))
        let ids = try #require(result.objectIDs)
        #expect(result.changes[.insertedObjects] == ids)
        let reader = fixture.fresh()
        let read = try ids.map { id -> String in
            let object = try reader.existingObject(with: id)
            return
                "\(BatchFixture.text(try object.value(for: "name"))) \(try object.value(for: "score"))"
        }
        #expect(read == ["n1 1.0", "n2 7.0", "n3 2.5"])
        // Keys were reserved: a context's insert and another batch get new ones.
        let later = fixture.fresh()
        let other = try later.insert("Folder")
        try other.set("n4", for: "name")
        try later.save()
        request.source = .objects([["name": "n5"]])
        let more = try #require(try fixture.context.execute(request).objectIDs)
        #expect(Set(ids + more + [other.objectID]).count == 5)
        #expect(
            try fixture.names("Folder") == ["home", "n1", "n2", "n3", "n4", "n5", "vault", "work"])
        request.source = .objects([["name": "n6"], ["name": "n7"]])
        request.resultType = .statusOnly
        #expect(try fixture.context.execute(request).result == .status(true))
        request.source = .objects([["name": "n8"]])
        request.resultType = .count
        #expect(try fixture.context.execute(request).result == .count(1))
        request.source = .objects([])
        #expect(try fixture.context.execute(request).result == .count(0))
    }

    @Test("a failing batch insert on SQLite inserts nothing; the next one inserts")
    func failureRollsBack() throws {
        let fixture = try BatchFixture(.sqlite)
        #expect(throws: StoreError.self) {
            try fixture.context.execute(
                BatchInsertRequest(
                    entityName: "Tag",
                    objects: [["title": "t1"], ["title": "t2"], ["title": "red"]]))
        }
        #expect(try fixture.names("Tag", "title") == ["green", "red"])
        var request = BatchInsertRequest(entityName: "Tag", objects: [["title": "t1"]])
        request.resultType = .objectIDs
        let id = try #require(try fixture.context.execute(request).objectIDs?.first)
        let stored = try fixture.objects("Tag").map(\.objectID)
        #expect(stored.contains(id))
        #expect(try fixture.names("Tag", "title") == ["green", "red", "t1"])
    }

    @Test("with history on, a batch insert is one transaction of one insert per object")
    func history() throws {
        let fixture = try HistoryFixture()
        try fixture.seed()
        let start = try #require(
            try fixture.coordinator.currentHistoryToken(forStore: fixture.store))
        var request = BatchInsertRequest(
            entityName: "Note",
            objects: [["title": "x", "rank": 1], ["title": "y"], ["title": "z", "rank": 3]])
        request.resultType = .objectIDs
        let ids = try #require(try fixture.context.execute(request).objectIDs)
        let transactions = try fixture.coordinator.fetchHistory(.fetchHistory(after: start))
            .transactions
        try #require(transactions.count == 1)
        #expect(transactions[0].author == "tester" && transactions[0].contextName == "main")
        #expect(transactions[0].changes.map(\.changeType) == [.insert, .insert, .insert])
        #expect(transactions[0].changes.map(\.changedObjectID) == ids)
    }

    @Test("text that is not NFC turns the store's byte-order string sorts off")
    func normalization() throws {
        let fixture = try BatchFixture(.sqlite)
        func storeTextIsNFC() -> Bool {
            fixture.coordinator.withStoresLocked { ($0.first as? SQLiteStore)?.textIsNFC ?? false }
        }
        #expect(storeTextIsNFC())
        try fixture.context.execute(
            BatchInsertRequest(entityName: "Page", objects: [["name": "cafe"]]))
        #expect(storeTextIsNFC())
        try fixture.context.execute(
            BatchInsertRequest(entityName: "Page", objects: [["name": "cafe\u{301}"]]))
        #expect(!storeTextIsNFC())
    }
}
