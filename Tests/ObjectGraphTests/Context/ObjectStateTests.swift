import Foundation
import Testing

@testable import ObjectGraph

@Suite("Object state, rollback, reset and refresh")
struct ObjectStateTests {
    let context: ManagedContext

    init() throws {
        context = try GraphTestModels.context(GraphTestModels.shapes())
    }

    private func make(_ entity: String, _ name: String) throws -> ManagedObject {
        try GraphTestModels.make(context, entity, name)
    }

    @Test("state flags through insert, save, edit, save, delete and save")
    func flags() throws {
        let ann = try make("Owner", "ann")
        #expect(ann.isInserted && !ann.isUpdated && !ann.isDeleted && !ann.isFault)
        #expect(ann.hasChanges && context.hasChanges)
        try context.save()
        #expect(!ann.isInserted && !ann.isUpdated && !ann.isDeleted && !ann.hasChanges)
        #expect(!context.hasChanges)
        try ann.set("anna", for: "name")
        #expect(ann.isUpdated && ann.hasChanges && !ann.isInserted)
        #expect(context.updatedObjects.map(\.objectID) == [ann.objectID])
        try context.save()
        #expect(!ann.isUpdated)
        context.delete(ann)
        #expect(ann.isDeleted && ann.hasChanges && !ann.isUpdated)
        #expect(context.deletedObjects.map(\.objectID) == [ann.objectID])
        try context.save()
        #expect(ann.context == nil)
        #expect(!context.hasChanges)
    }

    @Test("insertedObjects, updatedObjects, deletedObjects and registeredObjects")
    func lists() throws {
        let a = try make("Owner", "a")
        let b = try make("Owner", "b")
        let c = try make("Owner", "c")
        try context.save()
        let d = try make("Owner", "d")
        try a.set("a2", for: "name")
        context.delete(b)
        #expect(context.insertedObjects.map(\.objectID) == [d.objectID])
        #expect(context.updatedObjects.map(\.objectID) == [a.objectID])
        #expect(context.deletedObjects.map(\.objectID) == [b.objectID])
        #expect(Set(context.registeredObjects.map(\.objectID)).count == 4)
        #expect(!c.hasChanges)
    }

    @Test("changedValues, changedKeys and committedValues")
    func changedValues() throws {
        let ann = try make("Owner", "ann")
        let rex = try make("Pet", "rex")
        let cup = try make("Item", "cup")
        #expect(ann.changedKeys == ["name"])
        #expect(ann.committedValues().isEmpty)
        try context.save()
        #expect(ann.changedValues().isEmpty && ann.changedKeys.isEmpty)
        try ann.set("anna", for: "name")
        try ann.setObject(rex, for: "pet")
        try ann.add(cup, to: "items")
        #expect(ann.changedKeys == ["name", "pet", "items"])
        let changes = ann.changedValues()
        #expect(changes["name"] == "anna")
        #expect(changes["pet"] == .objectID(rex.objectID))
        #expect(changes["items"] == .null)
        #expect(ann.committedValues(for: ["name"]) == ["name": "ann"])
        #expect(ann.committedValues()["name"] == "ann")
        #expect(rex.changedKeys == ["owner"])
        try ann.set("ann", for: "name")
        #expect(!ann.changedKeys.contains("name"))
        try context.save()
        #expect(ann.committedValues(for: ["name"]) == ["name": "ann"])
        #expect(ann.changedKeys.isEmpty)
    }

    @Test("an ordered reorder is a change; an unordered one is not")
    func reorderIsChange() throws {
        let ann = try make("Owner", "ann")
        let steps = try ["a", "b"].map { try make("Step", $0) }
        let tags = try ["x", "y"].map { try make("Tag", $0) }
        try ann.setObjects(steps, for: "steps")
        try ann.setObjects(tags, for: "tags")
        try context.save()
        try ann.setObjects(tags.reversed(), for: "tags")
        #expect(!ann.hasChanges)
        try ann.setObjects(steps.reversed(), for: "steps")
        #expect(ann.changedKeys == ["steps"])
    }

    @Test("rollback discards inserts, restores deletes, values and both relationship sides")
    func rollback() throws {
        let ann = try make("Owner", "ann")
        let bob = try make("Owner", "bob")
        let cup = try make("Item", "cup")
        try ann.add(cup, to: "items")
        try context.save()
        try ann.set("changed", for: "name")
        try bob.add(cup, to: "items")
        let fresh = try make("Item", "fresh")
        try ann.add(fresh, to: "items")
        context.delete(bob)
        context.rollback()
        #expect(!context.hasChanges)
        #expect(ann["name"] as String? == "ann")
        #expect(!bob.isDeleted)
        #expect(try sortedNames(ann, "items") == ["cup"])
        #expect(try toOneName(cup, "owner") == "ann")
        #expect(try bob.objects(for: "items").isEmpty)
        #expect(context.registeredObject(for: fresh.objectID) == nil)
        #expect(fresh.context == nil)
        #expect(context.undoManager?.canUndo == false)
        try context.save()
    }

    @Test("reset forgets every object; IDs load fresh instances from the store")
    func reset() throws {
        let ann = try make("Owner", "ann")
        try context.save()
        try ann.set("unsaved", for: "name")
        _ = try make("Owner", "new")
        context.reset()
        #expect(context.registeredObjects.isEmpty)
        #expect(!context.hasChanges)
        #expect(ann.context == nil)
        #expect(context.undoManager?.canUndo == false)
        let again = try context.existingObject(with: ann.objectID)
        #expect(again !== ann)
        #expect(again["name"] as String? == "ann")
        #expect(throws: ObjectGraphError.self) { try ann.set("x", for: "name") }
    }

    @Test("refresh without merging discards changes and reloads what another context saved")
    func refreshDiscarding() throws {
        let ann = try make("Owner", "ann")
        try context.save()
        let other = GraphTestModels.peer(of: context)
        let copy = try other.existingObject(with: ann.objectID)
        try copy.set("from other", for: "name")
        try other.save()
        try ann.set("local", for: "name")
        try context.refresh(ann, mergeChanges: false)
        #expect(ann.isFault)
        #expect(!context.hasChanges)
        #expect(ann["name"] as String? == "from other")
        try ann.set("after", for: "name")
        try context.save()
        #expect(
            try GraphTestModels.peer(of: context).existingObject(with: ann.objectID)["name"]
                as String? == "after")
    }

    @Test("refresh with merging keeps local changes over the store's newer values")
    func refreshMerging() throws {
        let ann = try make("Owner", "ann")
        let rex = try make("Pet", "rex")
        try context.save()
        let other = GraphTestModels.peer(of: context)
        let copy = try other.existingObject(with: ann.objectID)
        try copy.set("from other", for: "name")
        try other.save()
        try ann.setObject(rex, for: "pet")
        try context.refresh(ann, mergeChanges: true)
        #expect(ann["name"] as String? == "from other")
        #expect(try ann.object(for: "pet") === rex)
        #expect(ann.changedKeys == ["pet"])
        try context.save()
        let check = GraphTestModels.peer(of: context)
        let stored = try check.existingObject(with: ann.objectID)
        #expect(stored["name"] as String? == "from other")
        #expect(try toOneName(stored, "pet") == "rex")
    }

    @Test("refreshing an inserted object without merging drops its insert; merging keeps it")
    func refreshInserted() throws {
        let ann = try make("Owner", "ann")
        try context.refresh(ann, mergeChanges: true)
        #expect(ann.isInserted && !ann.isFault)
        #expect(ann["name"] as String? == "ann")
        try context.refresh(ann, mergeChanges: false)
        #expect(!ann.isInserted && ann.isFault && context.insertedObjects.isEmpty)
    }

    @Test("transient attributes are never saved, but are changes (as in Core Data)")
    func transientNotSaved() throws {
        var entity = Entity("Memo", attributes: [Attribute("text", type: .string)])
        entity.attributes.append(Attribute("scratch", type: .string, isTransient: true))
        let context = try GraphTestModels.context(EntityModel(entities: [entity]))
        let memo = try context.insert("Memo")
        try memo.set("kept", for: "text")
        try context.save()
        try memo.set("temp", for: "scratch")
        #expect(memo["scratch"] as String? == "temp")
        #expect(memo.changedKeys.contains("scratch"))
        #expect(!memo.hasPersistentChangedValues)
        try memo.set("kept2", for: "text")
        try context.save()
        let other = GraphTestModels.peer(of: context)
        let copy = try other.existingObject(with: memo.objectID)
        #expect(copy["text"] as String? == "kept2")
        #expect(copy["scratch"] == .null)
    }

    @Test("typed reads: wrong kinds throw, naming entity and property")
    func typedReads() throws {
        let ann = try make("Owner", "ann")
        #expect(
            throws: ObjectGraphError.wrongPropertyKind(
                entity: "Owner", property: "pet", expected: "an attribute")
        ) { try ann.value(for: "pet") }
        #expect(throws: ObjectGraphError.self) { try ann.objects(for: "pet") }
        #expect(throws: ObjectGraphError.self) { try ann.object(for: "items") }
        #expect(throws: ObjectGraphError.unknownProperty(entity: "Owner", property: "nope")) {
            try ann.value(for: "nope")
        }
        #expect(ann["pet"] == .null)
        #expect(ann["name"] as Int? == nil)
    }
}
