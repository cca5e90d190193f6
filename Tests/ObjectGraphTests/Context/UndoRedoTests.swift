import Foundation
import Testing

@testable import ObjectGraph

@Suite("Undo and redo")
struct UndoRedoTests {
    let context: ManagedContext
    let undoManager = ObjectGraph.UndoManager()

    init() throws {
        context = try GraphTestModels.context(GraphTestModels.shapes())
        context.undoManager = undoManager
    }

    private func make(_ entity: String, _ name: String) throws -> ManagedObject {
        try GraphTestModels.make(context, entity, name)
    }

    /// What a second context reads for `object`'s `name` (nil when the store has no row).
    private func storedName(_ object: ManagedObject) -> String? {
        let other = GraphTestModels.peer(of: context)
        return (try? other.existingObject(with: object.objectID))?["name"] as String?
    }

    @Test("attribute values: each set undoes to the previous value and redoes")
    func attributes() throws {
        // Each change its own event (so its own undo step, as in Core Data).
        let ann = try make("Owner", "ann")
        context.processPendingChanges()
        try ann.set("anna", for: "name")
        context.processPendingChanges()
        try ann.set("annie", for: "name")
        context.undo()
        #expect(ann["name"] as String? == "anna")
        context.undo()
        #expect(ann["name"] as String? == "ann")
        context.redo()
        #expect(ann["name"] as String? == "anna")
        context.redo()
        #expect(ann["name"] as String? == "annie")
        #expect(!undoManager.canRedo)
    }

    @Test("insert: undo removes the object from the context, redo brings the same one back")
    func insert() throws {
        let ann = try context.insert("Owner")
        context.undo()
        #expect(context.registeredObject(for: ann.objectID) == nil)
        #expect(!context.hasChanges)
        #expect(context.insertedObjects.isEmpty)
        context.redo()
        #expect(context.registeredObject(for: ann.objectID) === ann)
        #expect(ann.isInserted)
        try context.save()
        #expect(storedName(ann) == nil)
        #expect(
            try GraphTestModels.peer(of: context).existingObject(with: ann.objectID).entity.name
                == "Owner")
    }

    @Test("delete of a saved object: undo restores it with its values; redo deletes again")
    func delete() throws {
        let ann = try make("Owner", "ann")
        try context.save()
        context.delete(ann)
        context.undo()
        #expect(!ann.isDeleted)
        #expect(ann["name"] as String? == "ann")
        #expect(!context.hasChanges)
        context.redo()
        #expect(ann.isDeleted)
        try context.save()
        #expect(storedName(ann) == nil)
    }

    @Test("undo of a cascade delete restores the whole subgraph and both sides of relationships")
    func cascadeDelete() throws {
        let context = try GraphTestModels.context(GraphTestModels.deletion())
        func make(_ entity: String, _ name: String) throws -> ManagedObject {
            try GraphTestModels.make(context, entity, name)
        }
        let root = try make("Folder", "root")
        let mid = try make("Folder", "mid")
        let leaf = try make("Folder", "leaf")
        let file = try make("File", "file")
        let label = try make("Label", "label")
        let sibling = try make("Folder", "sibling")
        try root.add(mid, to: "children")
        try mid.add(leaf, to: "children")
        try leaf.add(file, to: "files")
        try leaf.setObject(label, for: "label")
        try sibling.setObject(label, for: "label")
        try context.save()
        context.delete(root)
        #expect([root, mid, leaf, file].filter(\.isDeleted).count == 4)
        #expect(try sortedNames(label, "folders") == ["sibling"])
        context.undo()
        #expect([root, mid, leaf, file, label, sibling].allSatisfy { !$0.isDeleted })
        #expect(try sortedNames(root, "children") == ["mid"])
        #expect(try toOneName(mid, "parent") == "root")
        #expect(try sortedNames(mid, "children") == ["leaf"])
        #expect(try toOneName(leaf, "parent") == "mid")
        #expect(try sortedNames(leaf, "files") == ["file"])
        #expect(try toOneName(file, "folder") == "leaf")
        #expect(try toOneName(leaf, "label") == "label")
        #expect(try sortedNames(label, "folders") == ["leaf", "sibling"])
        #expect(!context.hasChanges)
        context.redo()
        #expect([root, mid, leaf, file].filter(\.isDeleted).count == 4)
        #expect(try sortedNames(label, "folders") == ["sibling"])
        try context.save()
        #expect(context.registeredObjects.count == 2)
    }

    @Test("undo of a nullifying delete restores every relationship shape on both sides")
    func nullifyDeleteAllShapes() throws {
        let ann = try make("Owner", "ann")
        let bob = try make("Owner", "bob")
        let rex = try make("Pet", "rex")
        let cup = try make("Item", "cup")
        let red = try make("Tag", "red")
        let steps = try ["a", "b", "c"].map { try make("Step", $0) }
        try ann.setObject(rex, for: "pet")
        try ann.add(cup, to: "items")
        try ann.add(red, to: "tags")
        try bob.add(red, to: "tags")
        try ann.setObject(bob, for: "friend")
        try ann.add(bob, to: "peers")
        try ann.setObjects(steps, for: "steps")
        try context.save()
        context.delete(ann)
        #expect(try rex.object(for: "owner") == nil)
        #expect(try sortedNames(red, "owners") == ["bob"])
        #expect(try bob.object(for: "friend") == nil)
        #expect(try bob.objects(for: "peers").isEmpty)
        context.undo()
        #expect(try toOneName(rex, "owner") == "ann")
        #expect(try toOneName(ann, "pet") == "rex")
        #expect(try toOneName(cup, "owner") == "ann")
        #expect(try sortedNames(red, "owners") == ["ann", "bob"])
        #expect(try sortedNames(ann, "tags") == ["red"])
        #expect(try toOneName(bob, "friend") == "ann")
        #expect(try sortedNames(bob, "peers") == ["ann"])
        #expect(names(try ann.objects(for: "steps")) == ["a", "b", "c"])
        #expect(!context.hasChanges)
    }

    @Test("undo of deleting the middle of an ordered relationship puts it back in place")
    func orderedDeleteUndo() throws {
        let ann = try make("Owner", "ann")
        let steps = try ["a", "b", "c"].map { try make("Step", $0) }
        try ann.setObjects(steps, for: "steps")
        try context.save()
        context.delete(steps[1])
        #expect(names(try ann.objects(for: "steps")) == ["a", "c"])
        context.undo()
        #expect(names(try ann.objects(for: "steps")) == ["a", "b", "c"])
        #expect(!context.hasChanges)
    }

    @Test("undo of a cascade delete after saving it re-inserts the subgraph")
    func cascadeDeleteAfterSave() throws {
        let context = try GraphTestModels.context(GraphTestModels.deletion())
        let root = try GraphTestModels.make(context, "Folder", "root")
        let file = try GraphTestModels.make(context, "File", "file")
        try root.add(file, to: "files")
        try context.save()
        let rootID = root.objectID
        let fileID = file.objectID
        context.delete(root)
        try context.save()
        context.undo()
        #expect(context.hasChanges)
        try context.save()
        let other = GraphTestModels.peer(of: context)
        let rootCopy = try other.existingObject(with: rootID)
        #expect(try rootCopy.objects(for: "files").map(\.objectID) == [fileID])
        #expect(try other.existingObject(with: fileID)["name"] as String? == "file")
    }

    @Test("relationship edits: undo restores both sides, including the old owner")
    func relationshipEdits() throws {
        let ann = try make("Owner", "ann")
        let bob = try make("Owner", "bob")
        let cup = try make("Item", "cup")
        let red = try make("Tag", "red")
        let rex = try make("Pet", "rex")
        try ann.add(cup, to: "items")
        try ann.add(red, to: "tags")
        try ann.setObject(rex, for: "pet")
        try context.save()
        try bob.add(cup, to: "items")
        context.processPendingChanges()
        try red.add(bob, to: "owners")
        context.processPendingChanges()
        try rex.setObject(bob, for: "owner")
        context.undo()
        #expect(try toOneName(rex, "owner") == "ann")
        #expect(try toOneName(ann, "pet") == "rex")
        #expect(try bob.object(for: "pet") == nil)
        context.undo()
        #expect(try sortedNames(red, "owners") == ["ann"])
        #expect(try bob.objects(for: "tags").isEmpty)
        context.undo()
        #expect(try toOneName(cup, "owner") == "ann")
        #expect(try sortedNames(ann, "items") == ["cup"])
        #expect(try bob.objects(for: "items").isEmpty)
        #expect(!context.hasChanges)
        context.redo()
        context.redo()
        context.redo()
        #expect(try toOneName(cup, "owner") == "bob")
        #expect(try sortedNames(red, "owners") == ["ann", "bob"])
        #expect(try toOneName(bob, "pet") == "rex")
        #expect(try ann.object(for: "pet") == nil)
    }

    @Test("ordered moves and inserts undo to the previous order")
    func orderedMoves() throws {
        let ann = try make("Owner", "ann")
        let steps = try ["a", "b", "c"].map { try make("Step", $0) }
        try ann.setObjects(steps, for: "steps")
        let d = try make("Step", "d")
        try context.save()
        try ann.setObjects([steps[2], steps[0], steps[1]], for: "steps")
        context.processPendingChanges()
        try ann.add(d, to: "steps", at: 1)
        #expect(names(try ann.objects(for: "steps")) == ["c", "d", "a", "b"])
        context.undo()
        #expect(names(try ann.objects(for: "steps")) == ["c", "a", "b"])
        #expect(try d.object(for: "owner") == nil)
        context.undo()
        #expect(names(try ann.objects(for: "steps")) == ["a", "b", "c"])
        #expect(!context.hasChanges)
        context.redo()
        #expect(names(try ann.objects(for: "steps")) == ["c", "a", "b"])
    }

    @Test("beginUndoGrouping/endUndoGrouping make several changes one undo step")
    func manualGrouping() throws {
        let ann = try make("Owner", "ann")
        try context.save()
        undoManager.removeAllActions()
        undoManager.beginUndoGrouping()
        try ann.set("x", for: "name")
        let cup = try make("Item", "cup")
        try ann.add(cup, to: "items")
        undoManager.endUndoGrouping()
        #expect(undoManager.groupingLevel == 0)
        context.undo()
        #expect(ann["name"] as String? == "ann")
        #expect(context.registeredObject(for: cup.objectID) == nil)
        #expect(try ann.objects(for: "items").isEmpty)
        #expect(!undoManager.canUndo)
        context.redo()
        #expect(ann["name"] as String? == "x")
        #expect(try ann.objects(for: "items").first === cup)
    }

    @Test("group(named:) is one step with an action name, nested groups merge")
    func namedGroup() throws {
        let ann = try make("Owner", "ann")
        undoManager.setActionName("Add Ann")
        #expect(undoManager.undoActionName == "Add Ann")
        try undoManager.group(named: "Rename") {
            try ann.set("a", for: "name")
            try undoManager.group(named: "Inner") { try ann.set("b", for: "name") }
        }
        #expect(undoManager.undoActionName == "Rename")
        context.undo()
        #expect(ann["name"] as String? == "ann")
        #expect(undoManager.redoActionName == "Rename")
        #expect(undoManager.undoActionName == "Add Ann")
        context.redo()
        #expect(ann["name"] as String? == "b")
    }

    @Test("a throwing group still closes and keeps the changes made before the throw")
    func throwingGroup() throws {
        let ann = try make("Owner", "ann")
        let cup = try make("Item", "cup")
        try context.save()
        #expect(throws: ObjectGraphError.self) {
            try undoManager.group(named: "Bad") {
                try ann.set("z", for: "name")
                try ann.setObject(cup, for: "pet")
            }
        }
        #expect(undoManager.groupingLevel == 0)
        context.undo()
        #expect(ann["name"] as String? == "ann")
        #expect(!context.hasChanges)
    }

    @Test("levelsOfUndo keeps only the newest groups")
    func levels() throws {
        let ann = try make("Owner", "ann")
        try context.save()
        undoManager.removeAllActions()
        undoManager.levelsOfUndo = 2
        for name in ["a", "b", "c", "d"] {
            try ann.set(name, for: "name")
            context.processPendingChanges()
        }
        context.undo()
        context.undo()
        #expect(ann["name"] as String? == "b")
        #expect(!undoManager.canUndo)
        context.undo()
        #expect(ann["name"] as String? == "b")
    }

    @Test("disabled registration records nothing; enabling resumes")
    func disabledRegistration() throws {
        let ann = try make("Owner", "ann")
        try context.save()
        undoManager.removeAllActions()
        undoManager.disableUndoRegistration()
        #expect(!undoManager.isUndoRegistrationEnabled)
        try ann.set("hidden", for: "name")
        let cup = try make("Item", "cup")
        #expect(!undoManager.canUndo)
        undoManager.enableUndoRegistration()
        try ann.set("seen", for: "name")
        context.undo()
        #expect(ann["name"] as String? == "hidden")
        #expect(cup.isInserted)
        #expect(!undoManager.canUndo)
    }

    @Test("removeAllActions forgets undo and redo")
    func removeAll() throws {
        let ann = try make("Owner", "ann")
        context.processPendingChanges()
        try ann.set("b", for: "name")
        context.undo()
        #expect(undoManager.canUndo && undoManager.canRedo)
        undoManager.removeAllActions()
        #expect(!undoManager.canUndo && !undoManager.canRedo)
        context.undo()
        #expect(ann["name"] as String? == "ann")
        #expect(ann.isInserted)
    }

    @Test("undo after a save makes the context dirty again, and saving again stores it")
    func undoAfterSave() throws {
        let ann = try make("Owner", "ann")
        try context.save()
        try ann.set("anna", for: "name")
        try context.save()
        context.undo()
        #expect(context.hasChanges && ann.isUpdated)
        #expect(ann.changedKeys == ["name"])
        try context.save()
        #expect(storedName(ann) == "ann")
        context.redo()
        try context.save()
        #expect(storedName(ann) == "anna")
    }

    @Test("undo of a saved relationship edit is saved on both sides")
    func undoSavedRelationshipEdit() throws {
        let ann = try make("Owner", "ann")
        let bob = try make("Owner", "bob")
        let cup = try make("Item", "cup")
        try ann.add(cup, to: "items")
        try context.save()
        try bob.add(cup, to: "items")
        try context.save()
        context.undo()
        #expect(
            Set(context.updatedObjects.map(\.objectID)) == [
                ann.objectID, bob.objectID, cup.objectID,
            ])
        try context.save()
        let other = GraphTestModels.peer(of: context)
        #expect(try sortedNames(try other.existingObject(with: ann.objectID), "items") == ["cup"])
        #expect(try other.existingObject(with: bob.objectID).objects(for: "items").isEmpty)
        #expect(try toOneName(try other.existingObject(with: cup.objectID), "owner") == "ann")
    }

    @Test("redo after saving an undone insert brings the object back into the store")
    func redoSavedUndoneInsert() throws {
        let ann = try make("Owner", "ann")
        try context.save()
        context.undo()
        context.undo()
        try context.save()
        #expect(storedName(ann) == nil)
        context.redo()
        context.redo()
        #expect(ann.isInserted)
        #expect(ann["name"] as String? == "ann")
        try context.save()
        #expect(storedName(ann) == "ann")
    }

    @Test("undoing a saved insert deletes the object at the next save")
    func undoSavedInsert() throws {
        let ann = try make("Owner", "ann")
        try context.save()
        context.undo()  // the name
        context.undo()  // the insert
        #expect(ann.isDeleted)
        try context.save()
        #expect(storedName(ann) == nil)
    }

    @Test("undoing a saved delete of a lone object re-inserts it at the next save")
    func undoSavedDelete() throws {
        let id: ObjectID
        do {
            let ann = try make("Owner", "ann")
            try context.save()
            id = ann.objectID
            context.delete(ann)
            try context.save()
        }
        #expect(context.registeredObject(for: id) == nil)
        context.undo()
        let back = try #require(context.registeredObject(for: id))
        #expect(back.isInserted)
        try context.save()
        #expect(
            try GraphTestModels.peer(of: context).existingObject(with: id)["name"] as String?
                == "ann")
    }

    @Test("undoing the delete of an unsaved object after a save brings it back as an insert")
    func undoDeleteOfInsertedAfterSave() throws {
        let ann = try make("Owner", "ann")
        let cup = try make("Item", "cup")
        try ann.add(cup, to: "items")
        context.processPendingChanges()
        context.delete(cup)
        try context.save()
        #expect(context.registeredObject(for: cup.objectID) == nil)
        context.undo()
        #expect(context.registeredObject(for: cup.objectID) === cup)
        #expect(cup.isInserted)
        #expect(try toOneName(cup, "owner") == "ann")
        #expect(try sortedNames(ann, "items") == ["cup"])
        try context.save()
        let other = GraphTestModels.peer(of: context)
        #expect(try sortedNames(try other.existingObject(with: ann.objectID), "items") == ["cup"])
    }

    @Test("undo closes a group left open and reverses it")
    func undoClosesOpenGroup() throws {
        let ann = try make("Owner", "ann")
        try context.save()
        undoManager.removeAllActions()
        undoManager.beginUndoGrouping()
        try ann.set("a", for: "name")
        try ann.set("b", for: "name")
        #expect(undoManager.canUndo)
        context.undo()
        #expect(undoManager.groupingLevel == 0)
        #expect(ann["name"] as String? == "ann")
        #expect(!context.hasChanges)
    }

    @Test("redo brings back an inserted object nobody else holds")
    func redoUnheldInsert() throws {
        let id: ObjectID
        do {
            let ann = try make("Owner", "ann")
            id = ann.objectID
        }
        context.undo()  // the name
        context.undo()  // the insert
        #expect(context.registeredObject(for: id) == nil)
        context.redo()
        context.redo()
        let back = try #require(context.registeredObject(for: id))
        #expect(back["name"] as String? == "ann")
        #expect(back.isInserted)
        try context.save()
        #expect(context.registeredObjects.count == 1)
    }

    @Test("undo after a failed save works and the next save succeeds")
    func undoAfterFailedSave() throws {
        let context = try GraphTestModels.context(GraphTestModels.validation())
        let account = try context.insert("Account")
        try account.set("a@b", for: "email")
        try context.save()
        let twin = try context.insert("Account")
        try twin.set("a@b", for: "email")
        #expect(throws: SaveError.self) { try context.save() }
        context.undo()
        #expect(twin["email"] == .null)
        try context.save()
        #expect(!context.hasChanges)
    }

    @Test("a new change clears the redo stack")
    func newChangeClearsRedo() throws {
        let ann = try make("Owner", "ann")
        context.processPendingChanges()
        try ann.set("b", for: "name")
        context.undo()
        #expect(undoManager.canRedo)
        try ann.set("c", for: "name")
        #expect(!undoManager.canRedo)
        context.redo()
        #expect(ann["name"] as String? == "c")
    }

    @Test("redo is not cleared by redoing, and undo/redo can alternate")
    func alternate() throws {
        let ann = try make("Owner", "ann")
        for name in ["b", "c"] {
            context.processPendingChanges()
            try ann.set(name, for: "name")
        }
        context.undo()
        context.undo()
        context.redo()
        #expect(undoManager.canRedo)
        context.undo()
        context.redo()
        context.redo()
        #expect(ann["name"] as String? == "c")
    }
}
