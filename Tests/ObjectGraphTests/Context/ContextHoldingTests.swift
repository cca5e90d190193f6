import Foundation
import Testing

@testable import ObjectGraph

/// What a context holds and what its objects report, as Core Data documents it: only objects
/// with unsaved changes are kept alive (`retainsRegisteredObjects == false`), saved deletions
/// leave the context, refreshing without merging makes any object a fault, and fetched objects
/// are faults until used.
@Suite("What a context holds")
struct ContextHoldingTests {
    /// A league file (``RedTeamLeague``) with `extra` more people in team Red.
    static func league(in folder: URL, extra: Int = 0) throws -> URL {
        let url = try RedTeamLeague.write(in: folder)
        guard extra > 0 else { return url }
        let context = try SQLiteStoreTests.open(url)
        let red = try RedTeamLeague.one(context, "Team", "Red")
        for index in 0..<extra {
            let person = try context.insert("Person")
            try person.set("P\(index)", for: "name")
            try person.setObject(red, for: "team")
        }
        try context.save()
        return url
    }

    /// The IDs of every person, fetched (and read) in `context` by objects let go on return.
    private static func fetchPeople(_ context: ManagedContext) throws -> [ObjectID] {
        let people = try context.fetch(FetchRequest(entityName: "Person"))
        for person in people { _ = person["name"] as String? }
        #expect(context.registeredObjects.count >= people.count)
        return people.map(\.objectID)
    }

    // MARK: - Holding

    @Test("fetched objects nothing holds are released and leave registeredObjects")
    func fetchedObjectsLeave() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try SQLiteStoreTests.open(Self.league(in: folder, extra: 1000))
        let ids = try Self.fetchPeople(context)
        #expect(ids.count == 1002)
        #expect(context.registeredObjects.isEmpty)
        #expect(ids.allSatisfy { context.registeredObject(for: $0) == nil })
        // Asked again, they come back from the store.
        let first = try context.existingObject(with: ids[0])
        #expect(first["name"] as String? != nil)
        #expect(context.registeredObjects.count == 1)
    }

    @Test("a released object's slot storage goes with it")
    func slotStorageIsReclaimed() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try SQLiteStoreTests.open(Self.league(in: folder, extra: 1000))
        weak var firstBlock: SlotBlock?
        weak var firstPerson: ManagedObject?
        do {
            let people = try context.fetch(FetchRequest(entityName: "Person"))
            firstBlock = people.first?.slotBlock
            firstPerson = people.first
            #expect(firstBlock != nil && firstPerson != nil)
        }
        #expect(firstPerson == nil)
        #expect(firstBlock == nil)
    }

    @Test("objects with unsaved changes stay registered until saved, then go")
    func changedObjectsAreHeld() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try SQLiteStoreTests.open(Self.league(in: folder))
        var annID: ObjectID?
        var newID: ObjectID?
        do {
            let ann = try RedTeamLeague.one(context, "Person", "Ann")
            try ann.set(31, for: "age")
            annID = ann.objectID
            let blue = try context.insert("Team")
            try blue.set("Blue", for: "name")
            newID = blue.objectID
        }
        let changed = try #require(annID.flatMap { context.registeredObject(for: $0) })
        #expect(changed["age"] as Int? == 31)
        #expect(newID.flatMap { context.registeredObject(for: $0) } != nil)
        #expect(context.updatedObjects.count == 1 && context.insertedObjects.count == 1)
        #expect(context.hasChanges)
        _ = consume changed
        try context.save()
        #expect(context.registeredObjects.isEmpty)
        #expect(try context.count(for: FetchRequest(entityName: "Team")) == 2)
    }

    @Test("fetching object IDs registers nothing that outlives the call")
    func fetchingIDsRegistersNothing() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try SQLiteStoreTests.open(Self.league(in: folder, extra: 100))
        var request = FetchRequest(entityName: "Person")
        let ids = try context.fetchObjectIDs(request)
        #expect(ids.count == 102)
        #expect(context.registeredObjects.isEmpty)
        request.fetchBatchSize = 10
        #expect(try context.fetch(request).count == 102)
        #expect(context.registeredObjects.isEmpty)
    }

    @Test("objects looked up by IDs no table covers leave when released too")
    func scatteredFaultsLeave() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try SQLiteStoreTests.open(Self.league(in: folder))
        let store = try RedTeamLeague.one(context, "Person", "Ann").objectID.storeIdentifier
        do {
            // Keys far apart: the identity map keeps these in its hash table.
            let faults = try (1...50).map { index in
                try context.object(
                    with: ObjectID(
                        entityName: "Person", storeIdentifier: store,
                        key: .permanent(Int64(index) * 1_000_000)))
            }
            #expect(faults.allSatisfy { $0.isFault })
            #expect(context.registeredObjects.count == 50)
        }
        #expect(context.registeredObjects.isEmpty)
    }

    @Test("retainsRegisteredObjects keeps every registered object until turned off")
    func retainingEverything() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try SQLiteStoreTests.open(Self.league(in: folder, extra: 300))
        #expect(!context.retainsRegisteredObjects)
        context.retainsRegisteredObjects = true
        let ids = try Self.fetchPeople(context)
        #expect(context.registeredObjects.count == 302)
        #expect(ids.allSatisfy { context.registeredObject(for: $0) != nil })
        // Saved inserts and changes stay too.
        try #require(context.registeredObject(for: ids[0])).set(5, for: "age")
        let green = try context.insert("Team")
        try green.set("Green", for: "name")
        let greenID = ObjectIdentifier(green)
        _ = consume green
        try context.save()
        #expect(context.registeredObjects.count == 303)
        #expect(context.registeredObjects.contains { ObjectIdentifier($0) == greenID })
        context.retainsRegisteredObjects = false
        #expect(context.registeredObjects.isEmpty)
    }

    @Test("retained objects that leave the context are let go")
    func retainedObjectsLeave() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try SQLiteStoreTests.open(Self.league(in: folder, extra: 300))
        context.retainsRegisteredObjects = true
        weak var deleted: ManagedObject?
        do {
            let people = try context.fetch(FetchRequest(entityName: "Person"))
            for person in people { context.delete(person) }
            deleted = people.first
        }
        try context.save()
        #expect(context.registeredObjects.count == 1)  // team Red
        #expect(deleted == nil)
    }

    // MARK: - Saved deletions

    @Test("after a save, deleted objects are not deleted, not registered and have no context")
    func savedDeletionsLeave() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try SQLiteStoreTests.open(Self.league(in: folder))
        let bob = try RedTeamLeague.one(context, "Person", "Bob")
        let added = try context.insert("Team")
        context.delete(bob)
        context.delete(added)
        #expect(bob.isDeleted && context.deletedObjects.count == 1)
        try context.save()
        for object in [bob, added] {
            #expect(!object.isDeleted)
            #expect(!object.isInserted)
            #expect(object.context == nil)
            #expect(context.registeredObject(for: object.objectID) == nil)
        }
        #expect(context.deletedObjects.isEmpty)
        #expect(!context.hasChanges)
        #expect(try context.count(for: FetchRequest(entityName: "Person")) == 1)
    }

    @Test("undoing a saved deletion still brings the object back as an insert")
    func undoingSavedDeletion() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try SQLiteStoreTests.open(Self.league(in: folder))
        context.undoManager = UndoManager()
        let bob = try RedTeamLeague.one(context, "Person", "Bob")
        context.delete(bob)
        try context.save()
        #expect(!bob.isDeleted && bob.context == nil)
        context.undo()
        #expect(bob.context === context && bob.isInserted && !bob.isDeleted)
        try context.save()
        #expect(try context.count(for: FetchRequest(entityName: "Person")) == 2)
    }

    // MARK: - Refreshing

    @Test("refresh without merging turns an inserted object into a fault, its insert dropped")
    func refreshingAnInsert() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try SQLiteStoreTests.open(Self.league(in: folder))
        let blue = try context.insert("Team")
        try blue.set("Blue", for: "name")
        try context.refresh(blue, mergeChanges: false)
        #expect(blue.isFault)
        #expect(!blue.isInserted && !blue.hasChanges)
        #expect(context.insertedObjects.isEmpty && !context.hasChanges)
        #expect(blue["name"] as String? == nil)
        #expect(throws: ObjectGraphError.self) { try blue.value(for: "name") }
        try context.save()
        #expect(try context.count(for: FetchRequest(entityName: "Team")) == 1)
    }

    @Test("refresh with merging leaves an inserted object as it is")
    func refreshingAnInsertMerging() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try SQLiteStoreTests.open(Self.league(in: folder))
        let blue = try context.insert("Team")
        try blue.set("Blue", for: "name")
        try context.refresh(blue, mergeChanges: true)
        #expect(!blue.isFault && blue.isInserted && blue["name"] as String? == "Blue")
    }

    @Test("refresh without merging turns a fetched, unused object into a fault too")
    func refreshingAFetchedObject() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try SQLiteStoreTests.open(Self.league(in: folder))
        let ann = try RedTeamLeague.one(context, "Person", "Ann")
        try ann.set(44, for: "age")
        try context.refresh(ann, mergeChanges: false)
        #expect(ann.isFault && !ann.hasChanges && !context.hasChanges)
        #expect(ann["age"] as Int? == 30)
        #expect(!ann.isFault)
    }

    // MARK: - Faults

    @Test("fetched objects are faults until a property is used, though their values came along")
    func fetchedObjectsAreFaults() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try SQLiteStoreTests.open(Self.league(in: folder))
        let people = try context.fetch(FetchRequest(entityName: "Person"))
        #expect(people.count == 2)
        #expect(people.allSatisfy { $0.isFault })
        #expect(people.allSatisfy { $0.isFault })  // asking does not fire
        #expect(people[0]["name"] as String? != nil)
        #expect(!people[0].isFault && people[1].isFault)
        try people[1].set(7, for: "age")
        #expect(!people[1].isFault)
        // Fetched again, realized objects stay realized.
        let again = try context.fetch(FetchRequest(entityName: "Person"))
        #expect(again.allSatisfy { !$0.isFault })
    }

    @Test("each way of using an object fires its fault")
    func usesFireFaults() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try SQLiteStoreTests.open(Self.league(in: folder))
        let uses: [(ManagedObject) throws -> Void] = [
            { _ = try $0.value(for: "name") },
            { _ = try $0.object(for: "team") },
            { _ = try $0.objectIDs(forRelationshipNamed: "clubs") },
            { _ = try $0.objects(for: "clubs") },
        ]
        for use in uses {
            let ann = try RedTeamLeague.one(context, "Person", "Ann")
            try context.refresh(ann, mergeChanges: false)
            let people = try context.fetch(FetchRequest(entityName: "Person"))
            #expect(people.allSatisfy { $0.isFault })
            try use(ann)
            #expect(!ann.isFault)
        }
    }

    @Test("returnsObjectsAsFaults = false returns realized objects")
    func realizedFetch() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try SQLiteStoreTests.open(Self.league(in: folder))
        #expect(FetchRequest(entityName: "Person").returnsObjectsAsFaults)
        var request = FetchRequest(entityName: "Person")
        request.returnsObjectsAsFaults = false
        let people = try context.fetch(request)
        #expect(people.count == 2 && people.allSatisfy { !$0.isFault })
    }

    @Test("objects loaded with a batch or a prefetch are faults until used")
    func batchedAndPrefetchedFaults() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try SQLiteStoreTests.open(Self.league(in: folder, extra: 10))
        var request = FetchRequest(entityName: "Person")
        request.fetchBatchSize = 5
        let people = try context.fetch(request)
        #expect(people.allSatisfy { $0.isFault })
        _ = people[0]["name"] as String?
        #expect(!people[0].isFault)
        #expect(people[1...].allSatisfy { $0.isFault })
        var teams = FetchRequest(entityName: "Team")
        teams.relationshipKeyPathsForPrefetching = ["members"]
        let red = try #require(try context.fetch(teams).first)
        #expect(red.isFault)
        let members = try red.objects(for: "members")
        #expect(members.count == 12)
        #expect(members.filter { $0 !== people[0] }.allSatisfy { $0.isFault })
    }
}
