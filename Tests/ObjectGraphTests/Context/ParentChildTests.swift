import Foundation
import Testing

@testable import ObjectGraph

/// Parent and child contexts on a SQLite file: a child reads through its parent (its unsaved
/// changes included) and saves into it; the parent's save writes to the store.
@Suite("Parent and child contexts")
struct ParentChildTests {
    @Test("a child shares its parent's coordinator; a root context has no parent")
    func childSharesCoordinator() throws {
        let fixture = try ParentChildFixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let child = ManagedContext(parent: fixture.parent)
        #expect(child.parent === fixture.parent)
        #expect(child.coordinator === fixture.coordinator)
        #expect(fixture.parent.parent == nil)
    }

    @Test("a child's fetches, counts and IDs see the parent's unsaved inserts, edits and deletions")
    func childFetchSeesParentChanges() throws {
        let fixture = try ParentChildFixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let parent = fixture.parent
        let cara = try parent.insert("Person")
        try cara.set("Cara", for: "name")
        try cara.set(50, for: "age")
        try fixture.person(parent, "Ann").set(45, for: "age")
        parent.delete(try fixture.person(parent, "Bob"))

        let child = ManagedContext(parent: parent)
        #expect(try ParentChildFixture.names(child) == ["Ann", "Cara"])
        #expect(try ParentChildFixture.names(child, "age > 40") == ["Ann", "Cara"])
        #expect(try child.count(for: FetchRequest(entityName: "Person")) == 2)
        let ids = try child.fetchObjectIDs(FetchRequest(entityName: "Person"))
        #expect(Set(ids).contains(cara.objectID))
        #expect(cara.objectID.isTemporary)
        // The child's object for the parent's insert has its temporary ID.
        let childCara = try fixture.person(child, "Cara")
        #expect(childCara.objectID == cara.objectID)
        #expect(childCara !== cara)
        #expect(childCara["age"] as Int64? == 50)
        // Limits apply to the parent's view.
        var first = FetchRequest(entityName: "Person", sortDescriptors: [SortDescriptor("name")])
        first.fetchLimit = 1
        first.fetchOffset = 1
        #expect(try child.fetch(first).map { $0["name"] as String? } == ["Cara"])
        // The store has none of it.
        #expect(try fixture.storedPeople() == ["Ann:30:Red", "Bob:40:Red"])
    }

    @Test("a child's faults fire from the parent's current values, or the store's")
    func childFaultsFireFromParent() throws {
        let fixture = try ParentChildFixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let parent = fixture.parent
        let ann = try fixture.person(parent, "Ann")
        let bobID = try fixture.person(parent, "Bob").objectID
        let red = try fixture.red(parent)
        let child = ManagedContext(parent: parent)
        let childAnn = try child.object(with: ann.objectID)
        #expect(childAnn.isFault)
        try ann.set("Anna", for: "name")  // after the child made its fault
        let cara = try parent.insert("Person")
        try cara.set("Cara", for: "name")
        try cara.setObject(red, for: "team")

        #expect(childAnn["name"] as String? == "Anna")
        // Bob is in the parent only as a fault (or not at all): from the store.
        parent.refreshAllObjectsLeavingChanges()
        #expect(try child.existingObject(with: bobID)["name"] as String? == "Bob")
        // The parent's insert, by its temporary ID, and its relationships.
        let childCara = try child.existingObject(with: cara.objectID)
        #expect(childCara["name"] as String? == "Cara")
        let childRed = try #require(try childCara.object(for: "team"))
        #expect(childRed.objectID == red.objectID)
        let members = try childRed.objects(for: "members").map { $0["name"] as String? ?? "?" }
        #expect(members.sorted() == ["Anna", "Bob", "Cara"])
        // A deleted object is gone for the child.
        parent.delete(try fixture.person(parent, "Bob"))
        let fresh = ManagedContext(parent: parent)
        #expect(throws: ObjectGraphError.self) { try fresh.existingObject(with: bobID) }
    }

    @Test("batched and prefetching fetches in a child see the parent's changes")
    func childBatchesAndPrefetching() throws {
        let fixture = try ParentChildFixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let parent = fixture.parent
        let cara = try parent.insert("Person")
        try cara.set("Cara", for: "name")
        try cara.setObject(try fixture.red(parent), for: "team")
        try fixture.person(parent, "Bob").set("Rob", for: "name")
        let child = ManagedContext(parent: parent)
        var batched = FetchRequest(entityName: "Person", sortDescriptors: [SortDescriptor("name")])
        batched.fetchBatchSize = 2
        #expect(try child.fetch(batched).map { $0["name"] as String? } == ["Ann", "Cara", "Rob"])
        var teams = FetchRequest(entityName: "Team")
        teams.relationshipKeyPathsForPrefetching = ["members"]
        let red = try #require(try child.fetch(teams).first)
        let members = try red.objects(for: "members").map { $0["name"] as String? ?? "?" }
        #expect(members.sorted() == ["Ann", "Cara", "Rob"])
    }

    @Test("a child's dictionary results reflect the store, as Core Data's do")
    func childDictionariesReflectStore() throws {
        let fixture = try ParentChildFixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        try fixture.person(fixture.parent, "Ann").set(99, for: "age")
        let child = ManagedContext(parent: fixture.parent)
        var request = FetchRequest(entityName: "Person", sortDescriptors: [SortDescriptor("name")])
        request.propertiesToFetch = [.key("age")]
        #expect(try child.fetchDictionaries(request) == [["age": 30], ["age": 40]])
    }

    @Test("a child's save pushes into the parent, not the store; the parent's save writes it")
    func saveOrderChildParentStore() throws {
        let fixture = try ParentChildFixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let parent = fixture.parent
        let child = ManagedContext(parent: parent)
        let dan = try child.insert("Person")
        try dan.set("Dan", for: "name")
        try dan.set(20, for: "age")
        try dan.setObject(try fixture.red(child), for: "team")
        try fixture.person(child, "Ann").set(31, for: "age")
        child.delete(try fixture.person(child, "Bob"))
        var saves: [ContextChange] = []
        let observation = child.observe { if $0.kind == .didSave { saves.append($0.changes) } }
        defer { observation.cancel() }
        try child.save()

        #expect(!child.hasChanges)
        #expect(saves.count == 1 && saves.first?.inserted == [dan.objectID])
        #expect(dan.objectID.isTemporary)  // a child's save gives no permanent IDs
        #expect(try fixture.storedPeople() == ["Ann:30:Red", "Bob:40:Red"])
        #expect(parent.hasChanges)
        let parentDan = try #require(parent.registeredObject(for: dan.objectID))
        #expect(parentDan.isInserted)
        #expect(parent.insertedObjects.map(\.objectID) == [dan.objectID])
        #expect(parent.deletedObjects.map { $0["name"] as String? } == ["Bob"])
        #expect(try fixture.person(parent, "Ann")["age"] as Int64? == 31)
        let members = try fixture.red(parent).objects(for: "members").map { $0["name"] ?? "?" }
        #expect(members.sorted() == ["Ann", "Dan"])

        try parent.save()
        #expect(try fixture.storedPeople() == ["Ann:31:Red", "Dan:20:Red"])
        // The parent's object took a permanent ID; the child's keeps its temporary one (as in
        // Core Data), and the permanent ID finds the object through the parent.
        #expect(!parentDan.objectID.isTemporary)
        #expect(dan.objectID.isTemporary)
        let byPermanent = try child.existingObject(with: parentDan.objectID)
        #expect(byPermanent["name"] as String? == "Dan")
        // An edit of the child's object under its temporary ID still reaches the row.
        try dan.set(21, for: "age")
        try child.save()
        try parent.save()
        #expect(try fixture.storedPeople() == ["Ann:31:Red", "Dan:21:Red"])
    }

    @Test("obtainPermanentIDs in a child gets store IDs; the parents' objects take them too")
    func permanentIDsThroughTheChain() throws {
        let fixture = try ParentChildFixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let parent = fixture.parent
        let fay = try parent.insert("Person")
        try fay.set("Fay", for: "name")
        let child = ManagedContext(parent: parent)
        let eve = try child.insert("Person")
        try eve.set("Eve", for: "name")
        let childFay = try child.existingObject(with: fay.objectID)
        try child.obtainPermanentIDs(for: [eve, childFay])
        #expect(!eve.objectID.isTemporary)
        #expect(!childFay.objectID.isTemporary)
        #expect(fay.objectID == childFay.objectID)  // the parent's object took the same ID
        #expect(parent.registeredObject(for: fay.objectID) === fay)
        try child.save()
        #expect(parent.registeredObject(for: eve.objectID)?["name"] as String? == "Eve")
        try parent.save()
        let reader = ManagedContext(coordinator: fixture.coordinator)
        #expect(try reader.existingObject(with: eve.objectID)["name"] as String? == "Eve")
        #expect(try reader.existingObject(with: fay.objectID)["name"] as String? == "Fay")
    }

    @Test("three levels: a grandchild reads both ancestors' changes; saves climb one level each")
    func grandchildChain() throws {
        let fixture = try ParentChildFixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let root = fixture.parent
        let middle = ManagedContext(parent: root)
        let leaf = ManagedContext(parent: middle)
        let cara = try root.insert("Person")
        try cara.set("Cara", for: "name")
        try fixture.person(middle, "Ann").set(33, for: "age")
        #expect(try ParentChildFixture.names(leaf) == ["Ann", "Bob", "Cara"])
        #expect(try fixture.person(leaf, "Ann")["age"] as Int64? == 33)
        #expect(try fixture.person(leaf, "Cara").objectID == cara.objectID)

        let xia = try leaf.insert("Person")
        try xia.set("Xia", for: "name")
        try xia.setObject(try fixture.red(leaf), for: "team")
        try leaf.save()
        #expect(try ParentChildFixture.names(middle) == ["Ann", "Bob", "Cara", "Xia"])
        #expect(try ParentChildFixture.names(root) == ["Ann", "Bob", "Cara"])
        try middle.save()
        #expect(try ParentChildFixture.names(root) == ["Ann", "Bob", "Cara", "Xia"])
        #expect(try fixture.storedPeople() == ["Ann:30:Red", "Bob:40:Red"])
        try root.save()
        #expect(
            try fixture.storedPeople() == ["Ann:33:Red", "Bob:40:Red", "Cara:-1:-", "Xia:-1:Red"])
        // The leaf edits its object again (temporary ID) and the edit climbs to the store.
        try xia.set(7, for: "age")
        try leaf.save()
        try middle.save()
        try root.save()
        #expect(try fixture.storedPeople().last == "Xia:7:Red")
    }

    @Test("a child's rollback discards its edits and leaves the parent untouched")
    func childRollback() throws {
        let fixture = try ParentChildFixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let parent = fixture.parent
        try fixture.person(parent, "Bob").set(41, for: "age")
        let child = ManagedContext(parent: parent)
        try fixture.person(child, "Ann").set("Anna", for: "name")
        try child.insert("Person").set("Zed", for: "name")
        child.rollback()
        #expect(!child.hasChanges)
        try child.save()
        #expect(try ParentChildFixture.names(child) == ["Ann", "Bob"])
        #expect(parent.insertedObjects.isEmpty)
        #expect(parent.updatedObjects.map { $0["name"] as String? } == ["Bob"])
        #expect(try fixture.person(parent, "Ann")["name"] as String? == "Ann")
    }

    @Test("a child does not merge its parent's save unless asked")
    func childDoesNotAutoMerge() throws {
        let fixture = try ParentChildFixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let parent = fixture.parent
        let child = ManagedContext(parent: parent)
        let childAnn = try fixture.person(child, "Ann")
        var saved: [ContextNotification] = []
        let observation = parent.observe { if $0.kind == .didSave { saved.append($0) } }
        defer { observation.cancel() }
        try fixture.person(parent, "Ann").set(50, for: "age")
        try parent.save()
        #expect(childAnn["age"] as Int64? == 30)
        try child.refresh(childAnn, mergeChanges: false)
        #expect(childAnn["age"] as Int64? == 50)
        // Asked to merge the parent's did-save, the child reads the objects again through it.
        try fixture.person(parent, "Ann").set(51, for: "age")
        try parent.save()
        try child.mergeChanges(fromContextDidSave: try #require(saved.last))
        #expect(childAnn["age"] as Int64? == 51)
    }

    @Test("parent and child on the in-memory store")
    func inMemoryStore() throws {
        let fixture = try ParentChildFixture(.inMemory)
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let parent = fixture.parent
        try parent.insert("Person").set("Cara", for: "name")
        let child = ManagedContext(parent: parent)
        #expect(try ParentChildFixture.names(child) == ["Ann", "Bob", "Cara"])
        try fixture.person(child, "Bob").set(42, for: "age")
        child.delete(try fixture.person(child, "Ann"))
        try child.save()
        #expect(try fixture.storedPeople() == ["Ann:30:Red", "Bob:40:Red"])
        try parent.save()
        #expect(try fixture.storedPeople() == ["Bob:42:Red", "Cara:-1:-"])
    }
}

extension ManagedContext {
    /// Turns every loaded object without changes into a fault (a test's way to have the parent
    /// hold objects only as faults).
    fileprivate func refreshAllObjectsLeavingChanges() {
        for object in registeredObjects where !object.hasChanges {
            try? refresh(object, mergeChanges: false)
        }
    }
}
