import Foundation
import Testing

@testable import ObjectGraph

@Suite("Batch insert requests")
struct BatchInsertTests {
    @Test(
        "from dictionaries, each result type, keys after the stored ones",
        arguments: BatchStoreKind.allCases)
    func fromDictionaries(_ kind: BatchStoreKind) throws {
        let fixture = try BatchFixture(kind)
        var request = BatchInsertRequest(
            entityName: "Folder", objects: [["name": "x", "score": 5], ["name": "y"]])
        request.resultType = .objectIDs
        let ids = try #require(try fixture.context.execute(request).objectIDs)
        #expect(ids.count == 2)
        #expect(
            Set(ids).isDisjoint(
                with: try fixture.objects("Folder", "name IN {'work', 'home', 'vault'}").map(
                    \.objectID)))
        #expect(try fixture.names("Folder") == ["home", "vault", "work", "x", "y"])
        #expect(try fixture.names("Folder", "score") == ["1.0", "1.0", "2.0", "3.0", "5.0"])
        // Objects inserted later by a context get other keys.
        let later = fixture.fresh()
        let z = try later.insert("Folder")
        try z.set("z", for: "name")
        try later.save()
        #expect(!ids.contains(z.objectID))
        request = BatchInsertRequest(entityName: "Tag", objects: [["title": "t1"]])
        request.resultType = .count
        #expect(try fixture.context.execute(request).count == 1)
        #expect(try fixture.names("Tag", "title") == ["green", "red", "t1"])
        #expect(fixture.context.registeredObjects.isEmpty)
    }

    @Test(
        "from a dictionary handler and from an object handler", arguments: BatchStoreKind.allCases)
    func fromHandlers(_ kind: BatchStoreKind) throws {
        let fixture = try BatchFixture(kind)
        var next = 0
        let request = BatchInsertRequest(
            entityName: "Page",
            dictionaryHandler: { values in
                next += 1
                guard next <= 3 else { return true }
                values["name"] = .string("p\(next)")
                return false
            })
        #expect(try fixture.context.execute(request).result == .status(true))
        #expect(try fixture.names("Page") == ["1", "2", "3", "p1", "p2", "p3"])
        var made = 0
        var objects = BatchInsertRequest(
            entityName: "Folder",
            managedObjectHandler: { object in
                made += 1
                guard made <= 2 else { return true }
                try object.set("f\(made)", for: "name")
                return false
            })
        objects.resultType = .count
        #expect(try fixture.context.execute(objects).count == 2)
        #expect(try fixture.names("Folder") == ["f1", "f2", "home", "vault", "work"])
        #expect(
            try fixture.objects("Folder", "name == 'f1'").first?.value(for: "score") == .double(1))
        #expect(fixture.context.registeredObjects.isEmpty)
    }

    @Test(
        "a missing value, a wrong type, an unknown key or a taken unique value fail",
        arguments: BatchStoreKind.allCases)
    func refusals(_ kind: BatchStoreKind) throws {
        let fixture = try BatchFixture(kind)
        let context = fixture.context
        do {
            try context.execute(
                BatchInsertRequest(entityName: "Folder", objects: [["name": "ok"], ["score": 2]]))
            Issue.record("a folder without a name was inserted")
        } catch let error as ValidationError {
            #expect(error.problems.map(\.rule) == [.required])
            #expect(error.problems.first?.entity == "Folder")
            #expect(error.problems.first?.property == "name")
        }
        do {
            try context.execute(
                BatchInsertRequest(entityName: "Folder", objects: [["name": "a", "score": "x"]]))
            Issue.record("a string was stored in a double")
        } catch ObjectGraphError.typeMismatch(let entity, let property, _, _) {
            #expect(entity == "Folder" && property == "score")
        }
        #expect(throws: ObjectGraphError.unknownProperty(entity: "Folder", property: "nope")) {
            try context.execute(
                BatchInsertRequest(entityName: "Folder", objects: [["name": "a", "nope": 1]]))
        }
        #expect(try fixture.names("Folder") == ["home", "vault", "work"])
        // A title the store holds, and a title twice in one request.
        for objects: [[String: Value]] in [
            [["title": "new"], ["title": "red"]], [["title": "new"], ["title": "new"]],
        ] {
            do {
                try context.execute(BatchInsertRequest(entityName: "Tag", objects: objects))
                Issue.record("a taken unique title was inserted")
            } catch StoreError.uniqueConstraint(_, let entity, let properties) {
                #expect(entity == "Tag" && properties == ["title"])
            }
        }
        #expect(try fixture.names("Tag", "title") == ["green", "red"])
        #expect(fixture.context.registeredObjects.isEmpty)
    }

    @Test(
        "a taken unique value upserts under object trump, is dropped under store trump",
        arguments: BatchStoreKind.allCases)
    func upserts(_ kind: BatchStoreKind) throws {
        let fixture = try BatchFixture(kind)
        let context = fixture.context
        let red = try #require(try fixture.objects("Tag", "title == 'red'").first).objectID
        context.mergePolicy = .mergeByPropertyObjectTrump
        var request = BatchInsertRequest(
            entityName: "Tag",
            objects: [
                ["title": "red", "color": "#f00"], ["title": "new", "color": "1"],
                ["title": "new", "color": "2"],
            ])
        request.resultType = .objectIDs
        let result = try context.execute(request)
        #expect(result.objectIDs?.count == 2)
        #expect(result.objectIDs?.contains(red) == true)
        #expect(result.changes[.updatedObjects] == [red])
        #expect(try fixture.names("Tag", "title") == ["green", "new", "red"])
        #expect(try fixture.objects("Tag", "title == 'red'").first?.value(for: "color") == "#f00")
        #expect(try fixture.objects("Tag", "title == 'new'").first?.value(for: "color") == "2")
        #expect(try fixture.related("Tag", "title == 'red'", "files") == ["a", "b"])
        context.mergePolicy = .mergeByPropertyStoreTrump
        try context.execute(
            BatchInsertRequest(entityName: "Tag", objects: [["title": "red", "color": "x"]]))
        #expect(try fixture.objects("Tag", "title == 'red'").first?.value(for: "color") == "#f00")
        #expect(try fixture.names("Tag", "title") == ["green", "new", "red"])
        #expect(fixture.context.registeredObjects.isEmpty)
    }
}
