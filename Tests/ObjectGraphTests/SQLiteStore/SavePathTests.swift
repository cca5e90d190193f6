import Foundation
import SQLiteDatabase
import Testing

@testable import ObjectGraph

/// The save path as the benchmark drives it: no undo manager by default, keys in insertion
/// order, committed values kept per changed property, in-place to-many edits.
@Suite("Save path")
struct SavePathTests {
    /// Article(title, words) ↔ Shelf(name): a to-many ↔ to-one pair, nullify both ways.
    static func model() -> EntityModel {
        let article = Entity(
            "Article",
            attributes: [
                Attribute("title", type: .string, isIndexed: true),
                Attribute("words", type: .integer32),
            ],
            relationships: [Relationship("shelf", destination: "Shelf", inverse: "articles")])
        let shelf = Entity(
            "Shelf", attributes: [Attribute("name", type: .string)],
            relationships: [
                Relationship("articles", destination: "Article", toMany: true, inverse: "shelf")
            ])
        return EntityModel(entities: [article, shelf])
    }

    static func open(_ url: URL, undoManager: ObjectGraph.UndoManager? = nil) throws
        -> ManagedContext
    {
        let coordinator = StoreCoordinator(model: model())
        try coordinator.addStore(type: .sqlite, at: url)
        return ManagedContext(coordinator: coordinator, undoManager: undoManager)
    }

    @Test("a context has no undo manager unless given one, as in Core Data")
    func noUndoByDefault() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try Self.open(folder.appendingPathComponent("A.sqlite"))
        #expect(context.undoManager == nil)
        let article = try context.insert("Article")
        try article.set("Draft", for: "title")
        context.undo()
        #expect(article["title"] == Value.string("Draft"))
        #expect(!article.isDeleted && article.isInserted)

        context.undoManager = UndoManager()
        try article.set("Final", for: "title")
        context.undo()
        #expect(article["title"] == Value.string("Draft"))
        context.redo()
        #expect(article["title"] == Value.string("Final"))
    }

    @Test("new objects get keys in the order they were inserted")
    func keysFollowInsertionOrder() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("A.sqlite")
        let context = try Self.open(url)
        var articles: [ManagedObject] = []
        for index in 0..<500 {
            let article = try context.insert("Article")
            try article.set("Article \(index)", for: "title")
            articles.append(article)
        }
        try context.save()
        let keys = articles.map { object -> Int64 in
            if case .permanent(let key) = object.objectID.key { return key }
            return -1
        }
        #expect(keys == Array(1...500))
        // The rows are in the table in that order too.
        let database = try Database(path: url.path)
        let titles = try database.fetchAll(sql: "SELECT ZTITLE FROM ZARTICLE ORDER BY Z_PK")
            .map { try $0.decode(String.self, at: 0) }
        #expect(titles == (0..<500).map { "Article \($0)" })
    }

    @Test("saved objects go to the stores in key order within each entity, however they changed")
    func savedInKeyOrder() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("A.sqlite")
        let writer = try Self.open(url)
        for index in 0..<60 {
            let shelf = try writer.insert("Shelf")
            try shelf.set("Shelf \(index + 10)", for: "name")
            let article = try writer.insert("Article")
            try article.set("Article \(index + 10)", for: "title")
            try article.setObject(shelf, for: "shelf")
        }
        try writer.save()
        func keys(_ objects: ArraySlice<ManagedObject>, _ entity: String) -> [UInt64] {
            objects.filter { $0.entity.name == entity }.map(\.objectID.insertionOrder)
        }
        // In order per entity, interleaved across entities: kept as it is.
        let context = try Self.open(url)
        let articles = try context.fetch(
            FetchRequest(entityName: "Article", sortDescriptors: [SortDescriptor("title")]))
        let shelves = try context.fetch(
            FetchRequest(entityName: "Shelf", sortDescriptors: [SortDescriptor("name")]))
        for index in 0..<60 {
            try articles[index].set(Int32(index), for: "words")
            try shelves[index].set("Renamed \(index)", for: "name")
        }
        var batch = SaveBatch(context.touched.values, count: context.touched.count)
        #expect(
            batch.saved.map(\.objectID)
                == zip(articles, shelves).flatMap {
                    [$0.objectID, $1.objectID]
                })
        // Out of order: sorted by entity, then key.
        let shuffled = try Self.open(url)
        var objects = try shuffled.fetch(FetchRequest(entityName: "Article"))
        objects += try shuffled.fetch(FetchRequest(entityName: "Shelf"))
        var generator = SystemRandomNumberGenerator()
        for object in objects.shuffled(using: &generator) {
            try object.set(
                object.entity.name == "Article" ? "T" : "N",
                for:
                    object.entity.name == "Article" ? "title" : "name")
        }
        batch = SaveBatch(shuffled.touched.values, count: shuffled.touched.count)
        let order = batch.saved.map(\.objectID.insertionOrder)
        #expect(keys(batch.saved, "Article") == Array(1...60))
        #expect(keys(batch.saved, "Shelf") == Array(1...60))
        #expect(Array(order.prefix(60)) == Array(1...60))
        try shuffled.save()
        let database = try Database(path: url.path)
        #expect(
            try database.fetchValue(
                Int.self, sql: "SELECT count(*) FROM ZARTICLE WHERE ZTITLE = 'T'") == 60)
    }

    @Test(
        "a deletion without an undo manager keeps no copy; relationships read empty until rollback")
    func deletionWithoutUndo() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("A.sqlite")
        let writer = try Self.open(url)
        let shelf = try writer.insert("Shelf")
        try shelf.set("Fiction", for: "name")
        for title in ["A", "B"] {
            let article = try writer.insert("Article")
            try article.set(title, for: "title")
            try article.setObject(shelf, for: "shelf")
        }
        try writer.save()

        let context = try Self.open(url)
        let articles = try context.fetch(
            FetchRequest(entityName: "Article", sortDescriptors: [SortDescriptor("title")]))
        let fiction = try #require(try articles[0].object(for: "shelf"))
        context.delete(articles[0])
        #expect(articles[0].originals.isEmpty)
        #expect(try articles[0].object(for: "shelf") == nil)
        guard case .value(.null) = try articles[0].predicateValue(forKey: "shelf") else {
            Issue.record("a deleted object's nullified to-one reads nil in key paths")
            return
        }
        #expect(try fiction.objects(for: "articles").map(\.objectID) == [articles[1].objectID])
        // The shelf's side changed; the deleted article's side reads empty, holds no original.
        context.rollback()
        #expect(!articles[0].isDeleted)
        #expect(try articles[0].object(for: "shelf") === fiction)
        #expect(
            Set(try fiction.objects(for: "articles").map(ObjectIdentifier.init))
                == Set(articles.map(ObjectIdentifier.init)))
        #expect(!context.hasChanges)

        context.delete(fiction)
        #expect(try fiction.objects(for: "articles").isEmpty)
        #expect(try articles.allSatisfy { try $0.object(for: "shelf") == nil })
        try context.save()
        let reader = try Self.open(url)
        #expect(try reader.count(for: FetchRequest(entityName: "Shelf")) == 0)
        let left = try reader.fetch(FetchRequest(entityName: "Article"))
        #expect(left.count == 2)
        #expect(try left.allSatisfy { try $0.object(for: "shelf") == nil })
    }

    @Test("an update saves only what changed; committed values are the saved ones until then")
    func committedValuesPerProperty() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("A.sqlite")
        do {
            let context = try Self.open(url)
            let article = try context.insert("Article")
            try article.set("One", for: "title")
            try article.set(100, for: "words")
            try context.save()
        }
        let context = try Self.open(url)
        let article = try #require(try context.fetch(FetchRequest(entityName: "Article")).first)
        try article.set(250, for: "words")
        #expect(article.changedKeys == ["words"])
        #expect(article.committedValues(for: ["words"]) == ["words": .integer(100)])
        try article.set(100, for: "words")
        #expect(article.changedKeys.isEmpty)
        #expect(!context.hasChanges)

        try article.set(300, for: "words")
        // Someone else changes the title meanwhile: our save writes only `words`, but the
        // row's version moved, so it is a conflict rather than a lost update.
        let other = try Self.open(url)
        let theirs = try #require(try other.fetch(FetchRequest(entityName: "Article")).first)
        try theirs.set("Two", for: "title")
        try other.save()
        #expect(throws: SaveError.self) { try context.save() }

        context.rollback()
        #expect(article["words"] == Value.integer(100))
        #expect(!context.hasChanges)
        try context.refresh(article, mergeChanges: false)
        try article.set(400, for: "words")
        try context.save()
        let check = try Self.open(url)
        let saved = try #require(try check.fetch(FetchRequest(entityName: "Article")).first)
        #expect(saved["title"] == Value.string("Two"))
        #expect(saved["words"] == Value.integer(400))
    }

    @Test("refresh with mergeChanges keeps the unsaved change on top of the store's values")
    func refreshMerges() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("A.sqlite")
        let context = try Self.open(url)
        let article = try context.insert("Article")
        try article.set("One", for: "title")
        try article.set(1, for: "words")
        try context.save()
        try article.set(2, for: "words")
        let other = try Self.open(url)
        let theirs = try #require(try other.fetch(FetchRequest(entityName: "Article")).first)
        try theirs.set("Two", for: "title")
        try other.save()
        try context.refresh(article, mergeChanges: true)
        #expect(article["title"] == Value.string("Two"))
        #expect(article["words"] == Value.integer(2))
        #expect(article.changedKeys == ["words"])
        #expect(article.committedValues(for: ["words"]) == ["words": .integer(1)])
        try context.save()
        let check = try #require(
            try Self.open(url).fetch(FetchRequest(entityName: "Article")).first)
        #expect(check["title"] == Value.string("Two"))
        #expect(check["words"] == Value.integer(2))
    }

    @Test("deleting members detaches them in place; undo puts each back where it was")
    func detachInPlaceAndUndo() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("A.sqlite")
        do {
            let context = try Self.open(url)
            let shelf = try context.insert("Shelf")
            try shelf.set("Fiction", for: "name")
            for title in ["A", "B", "C", "D"] {
                let article = try context.insert("Article")
                try article.set(title, for: "title")
                try article.setObject(shelf, for: "shelf")
            }
            try context.save()
        }
        let context = try Self.open(url, undoManager: UndoManager())
        let shelf = try #require(try context.fetch(FetchRequest(entityName: "Shelf")).first)
        let before = try shelf.objects(for: "articles")
        #expect(before.map { $0["title"] as String? } == ["A", "B", "C", "D"])
        context.delete(before[1])
        context.delete(before[3])
        #expect(try shelf.objects(for: "articles").map { $0["title"] as String? } == ["A", "C"])
        #expect(shelf.changedKeys == ["articles"])
        context.undo()
        context.undo()
        #expect(
            try shelf.objects(for: "articles").map { $0["title"] as String? } == [
                "A", "B", "C", "D",
            ])
        #expect(!context.hasChanges)
        context.delete(before[0])
        try context.save()
        let check = try Self.open(url)
        let saved = try #require(try check.fetch(FetchRequest(entityName: "Shelf")).first)
        #expect(
            Set(try saved.objects(for: "articles").compactMap { $0["title"] as String? })
                == ["B", "C", "D"])
    }

    @Test("an entity with more than 64 properties saves changes past the 64th")
    func wideEntity() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("Wide.sqlite")
        let wide = Entity(
            "Wide", attributes: (0..<70).map { Attribute("a\($0)", type: .integer64) })
        let model = EntityModel(entities: [wide])
        func open() throws -> ManagedContext {
            let coordinator = StoreCoordinator(model: model)
            try coordinator.addStore(type: .sqlite, at: url)
            return ManagedContext(coordinator: coordinator)
        }
        do {
            let context = try open()
            let object = try context.insert("Wide")
            for index in 0..<70 { try object.set(Int64(index), for: "a\(index)") }
            try context.save()
            try object.set(1_000, for: "a69")
            try context.save()
            try object.set(2_000, for: "a3")
            try object.set(3_000, for: "a68")
            try context.save()
            try object.set(4_000, for: "a5")
            try context.save()
        }
        let object = try #require(try open().fetch(FetchRequest(entityName: "Wide")).first)
        #expect(object["a69"] == Value.integer(1_000))
        #expect(object["a3"] == Value.integer(2_000))
        #expect(object["a68"] == Value.integer(3_000))
        #expect(object["a5"] == Value.integer(4_000))
        #expect(object["a0"] == Value.integer(0))
        #expect(object["a67"] == Value.integer(67))
    }

    @Test("object IDs are equal by entity, store and key, however they were made")
    func objectIDEquality() throws {
        let a = ObjectID(entityName: "Article", storeIdentifier: "S", key: .permanent(7))
        let b = ObjectID(entityName: "Article", storeIdentifier: "S", key: .permanent(7))
        let otherEntity = ObjectID(entityName: "Shelf", storeIdentifier: "S", key: .permanent(7))
        let otherStore = ObjectID(entityName: "Article", storeIdentifier: "T", key: .permanent(7))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != otherEntity)
        #expect(a != otherStore)
        #expect(Set([a, b, otherEntity, otherStore]).count == 3)
        #expect(a.entityName == "Article" && a.storeIdentifier == "S")
        #expect(a.description == "x-coredata://S/Article/p7")
    }
}
