import Foundation
import Testing

@testable import ObjectGraph

/// A child's save against a parent that changed the same objects (resolved by the child's
/// merge policy), each context's own undo, and what cannot go wrong with a parent.
@Suite("Parent and child contexts: conflicts, undo, misuse")
struct ParentChildConflictTests {
    /// The child reads Ann; then the parent changes her age (and her name to `parentName`, when
    /// given); the child changes her name and inserts Zed. Returns the child and the two Anns.
    private func conflicting(
        _ fixture: ParentChildFixture, _ policy: MergePolicy, parentName: String? = nil
    )
        throws -> (child: ManagedContext, childAnn: ManagedObject, parentAnn: ManagedObject)
    {
        let parent = fixture.parent
        let child = ManagedContext(parent: parent)
        child.mergePolicy = policy
        let childAnn = try fixture.person(child, "Ann")
        let parentAnn = try fixture.person(parent, "Ann")
        try parentAnn.set(60, for: "age")
        if let parentName { try parentAnn.set(parentName, for: "name") }
        try childAnn.set("Anna", for: "name")
        try child.insert("Person").set("Zed", for: "name")
        return (child, childAnn, parentAnn)
    }

    @Test("under .error a conflict with the parent throws, lists its values, and pushes nothing")
    func errorPolicyPushesNothing() throws {
        let fixture = try ParentChildFixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let (child, childAnn, parentAnn) = try conflicting(fixture, .error)
        do {
            try child.save()
            Issue.record("the save should conflict")
        } catch SaveError.conflicts(let conflicts) {
            #expect(conflicts.count == 1)
            let conflict = try #require(conflicts.first)
            #expect(conflict.objectID == childAnn.objectID)
            #expect(conflict.source == .parentContext)
            let name = try #require(conflict.properties.first { $0.property == "name" })
            #expect(name.snapshot == .string("Ann"))
            #expect(name.object == .string("Anna"))
            #expect(name.other == .string("Ann"))
        }
        // Nothing reached the parent: not the name, not the insert.
        #expect(parentAnn["name"] as String? == "Ann")
        #expect(fixture.parent.insertedObjects.isEmpty)
        #expect(child.hasChanges)
    }

    @Test(
        "mergeByPropertyObjectTrump: the child's changed properties win, the parent's others stay")
    func objectTrump() throws {
        let fixture = try ParentChildFixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let (child, _, parentAnn) = try conflicting(
            fixture, .mergeByPropertyObjectTrump, parentName: "Annie")
        try child.save()
        #expect(parentAnn["name"] as String? == "Anna")
        #expect(parentAnn["age"] as Int64? == 60)
        #expect(fixture.parent.insertedObjects.map { $0["name"] as String? } == ["Zed"])
        try fixture.parent.save()
        #expect(try fixture.storedPeople() == ["Anna:60:Red", "Bob:40:Red", "Zed:-1:-"])
    }

    @Test("mergeByPropertyStoreTrump: the parent's changed properties win, the child's others stay")
    func storeTrump() throws {
        let fixture = try ParentChildFixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let parent = fixture.parent
        let child = ManagedContext(parent: parent)
        child.mergePolicy = .mergeByPropertyStoreTrump
        let childAnn = try fixture.person(child, "Ann")
        let parentAnn = try fixture.person(parent, "Ann")
        try parentAnn.set("Annie", for: "name")
        try childAnn.set("Anna", for: "name")
        try childAnn.set(31, for: "age")
        try child.save()
        #expect(parentAnn["name"] as String? == "Annie")
        #expect(parentAnn["age"] as Int64? == 31)
        #expect(childAnn["name"] as String? == "Annie")
    }

    @Test("rollback: the child's changes to the conflicting object go; the rest is pushed")
    func rollbackPolicy() throws {
        let fixture = try ParentChildFixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let (child, childAnn, parentAnn) = try conflicting(fixture, .rollback)
        try child.save()
        #expect(parentAnn["name"] as String? == "Ann")
        #expect(childAnn["name"] as String? == "Ann")
        #expect(childAnn["age"] as Int64? == 60)
        #expect(fixture.parent.insertedObjects.map { $0["name"] as String? } == ["Zed"])
    }

    @Test("two children of one parent: the second save meets the first as a conflict")
    func siblings() throws {
        let fixture = try ParentChildFixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let parent = fixture.parent
        let first = ManagedContext(parent: parent)
        let second = ManagedContext(parent: parent)
        let firstAnn = try fixture.person(first, "Ann")
        let secondAnn = try fixture.person(second, "Ann")
        try firstAnn.set(31, for: "age")
        try secondAnn.set("Anna", for: "name")
        try first.save()
        #expect(throws: SaveError.self) { try second.save() }
        second.mergePolicy = .mergeByPropertyObjectTrump
        try second.save()
        try parent.save()
        #expect(try fixture.storedPeople() == ["Anna:31:Red", "Bob:40:Red"])
    }

    @Test("an object the parent deleted that the child changed is a conflict (gone)")
    func parentDeleted() throws {
        let fixture = try ParentChildFixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let parent = fixture.parent
        let child = ManagedContext(parent: parent)
        child.mergePolicy = .mergeByPropertyObjectTrump
        let childBob = try fixture.person(child, "Bob")
        parent.delete(try fixture.person(parent, "Bob"))
        try childBob.set(41, for: "age")
        #expect(throws: SaveError.self) { try child.save() }
        #expect(parent.updatedObjects.map(\.entity.name) == ["Team"])  // Bob left Red
        child.mergePolicy = .rollback
        try child.save()
        #expect(childBob.context == nil || !childBob.hasChanges)
        #expect(parent.deletedObjects.map { $0["name"] as String? } == ["Bob"])
    }

    @Test("each context has its own undo; a child's save is one undo step of the parent")
    func ownUndo() throws {
        let fixture = try ParentChildFixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let parent = fixture.parent
        parent.undoManager = UndoManager()
        let parentBob = try fixture.person(parent, "Bob")
        try parentBob.set(41, for: "age")  // in the event the child's save comes in
        let child = ManagedContext(parent: parent, undoManager: UndoManager())
        let ann = try fixture.person(child, "Ann")
        try ann.set("Anna", for: "name")
        child.processPendingChanges()
        try ann.set(32, for: "age")
        child.processPendingChanges()
        child.undo()
        #expect(ann["age"] as Int64? == 30)
        #expect(ann["name"] as String? == "Anna")
        #expect(parentBob["age"] as Int64? == 41)  // the parent's edit is not the child's to undo

        try child.insert("Person").set("Dan", for: "name")
        try child.save()
        let parentAnn = try parent.existingObject(with: ann.objectID)
        #expect(parentAnn["name"] as String? == "Anna")
        #expect(try ParentChildFixture.names(parent) == ["Anna", "Bob", "Dan"])
        parent.undo()  // the child's whole save
        #expect(parentAnn["name"] as String? == "Ann")
        #expect(try ParentChildFixture.names(parent) == ["Ann", "Bob"])
        #expect(parentBob["age"] as Int64? == 41)
        parent.undo()  // the parent's own edit
        #expect(parentBob["age"] as Int64? == 40)
        parent.redo()
        parent.redo()
        #expect(try ParentChildFixture.names(parent) == ["Anna", "Bob", "Dan"])
    }

    @Test("a child of a context whose coordinator lost its store: typed errors, no crash")
    func lostStore() throws {
        let fixture = try ParentChildFixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        let parent = fixture.parent
        let annID = try fixture.person(parent, "Ann").objectID
        let child = ManagedContext(parent: parent)
        for store in fixture.coordinator.storeDescriptions {
            fixture.coordinator.removeStore(store)
        }
        #expect(try ParentChildFixture.names(child).isEmpty)
        #expect(throws: ObjectGraphError.self) { try child.existingObject(with: annID) }
        try child.insert("Person").set("Dan", for: "name")
        try child.save()
        #expect(throws: ObjectGraphError.self) { try parent.save() }
        #expect(parent.insertedObjects.count == 1)
    }

    @Test("a parent the app let go lives as long as its child; a parent is fixed, so no loop")
    func parentOutlivesItsReferences() throws {
        let fixture = try ParentChildFixture()
        defer { TestSupport.removeTemporaryFolder(fixture.folder) }
        weak var weakParent: ManagedContext?
        var child: ManagedContext?
        do {
            let parent = ManagedContext(coordinator: fixture.coordinator)
            try parent.insert("Person").set("Cara", for: "name")
            weakParent = parent
            child = ManagedContext(parent: parent)
        }
        #expect(weakParent != nil)
        do {
            let reader = try #require(child)
            #expect(try ParentChildFixture.names(reader) == ["Ann", "Bob", "Cara"])
            try reader.insert("Person").set("Dan", for: "name")
            try reader.save()
            try #require(reader.parent).save()
            #expect(try fixture.storedPeople().count == 4)
        }
        child = nil
        #expect(weakParent == nil)
    }
}
