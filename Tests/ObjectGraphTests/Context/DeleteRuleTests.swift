import Foundation
import Testing

@testable import ObjectGraph

@Suite("Delete rules")
struct DeleteRuleTests {
    let context: ManagedContext

    init() throws {
        context = try GraphTestModels.context(GraphTestModels.deletion())
    }

    private func make(_ entity: String, _ name: String) throws -> ManagedObject {
        try GraphTestModels.make(context, entity, name)
    }

    /// The validation problems of a save that must fail.
    private func failedSave() throws -> [ValidationError.Problem] {
        do {
            try context.save()
        } catch SaveError.validation(let error) {
            return error.problems
        }
        Issue.record("the save was expected to fail validation")
        return []
    }

    @Test("nullify clears both sides, to-one and to-many, and the save removes the row")
    func nullify() throws {
        let work = try make("Folder", "work")
        let home = try make("Folder", "home")
        let blue = try make("Label", "blue")
        try work.setObject(blue, for: "label")
        try home.setObject(blue, for: "label")
        try context.save()
        context.delete(work)
        #expect(work.isDeleted)
        #expect(try sortedNames(blue, "folders") == ["home"])
        #expect(try work.object(for: "label") == nil)
        context.delete(blue)
        #expect(try home.object(for: "label") == nil)
        #expect(!home.isDeleted)
        try context.save()
        let other = GraphTestModels.peer(of: context)
        #expect(throws: ObjectGraphError.self) { try other.existingObject(with: work.objectID) }
        let homeCopy = try other.existingObject(with: home.objectID)
        #expect(try homeCopy.object(for: "label") == nil)
    }

    @Test("nullify from the to-one side removes the object from the owner's set")
    func nullifyToOneSide() throws {
        let work = try make("Folder", "work")
        let a = try make("File", "a")
        let b = try make("File", "b")
        try work.setObjects([a, b], for: "files")
        context.delete(a)
        #expect(try sortedNames(work, "files") == ["b"])
        #expect(!work.isDeleted)
    }

    @Test("cascade deletes transitively across several levels and saves it")
    func cascadeLevels() throws {
        let root = try make("Folder", "root")
        let mid = try make("Folder", "mid")
        let leaf = try make("Folder", "leaf")
        let file = try make("File", "file")
        let outside = try make("Folder", "outside")
        try root.add(mid, to: "children")
        try mid.add(leaf, to: "children")
        try leaf.add(file, to: "files")
        try context.save()
        context.delete(root)
        #expect(root.isDeleted && mid.isDeleted && leaf.isDeleted && file.isDeleted)
        #expect(!outside.isDeleted)
        #expect(context.deletedObjects.count == 4)
        try context.save()
        let other = GraphTestModels.peer(of: context)
        for object in [root, mid, leaf, file] {
            #expect(throws: ObjectGraphError.self) {
                try other.existingObject(with: object.objectID)
            }
        }
        #expect(try other.existingObject(with: outside.objectID)["name"] as String? == "outside")
    }

    @Test("cascade and nullify reach objects that are still faults")
    func cascadeThroughFaults() throws {
        let root = try make("Folder", "root")
        let child = try make("Folder", "child")
        let file = try make("File", "file")
        let label = try make("Label", "label")
        try root.add(child, to: "children")
        try child.add(file, to: "files")
        try child.setObject(label, for: "label")
        try context.save()
        let other = GraphTestModels.peer(of: context)
        let rootCopy = try other.object(with: root.objectID)
        other.delete(rootCopy)
        #expect(other.deletedObjects.count == 3)
        #expect(try other.object(with: label.objectID).objects(for: "folders").isEmpty)
        try other.save()
        let check = GraphTestModels.peer(of: context)
        for object in [root, child, file] {
            #expect(throws: ObjectGraphError.self) {
                try check.existingObject(with: object.objectID)
            }
        }
        #expect(try check.existingObject(with: label.objectID).objects(for: "folders").isEmpty)
    }

    @Test("cascade in the middle of a tree nullifies the parent's side")
    func cascadeMiddle() throws {
        let root = try make("Folder", "root")
        let mid = try make("Folder", "mid")
        let leaf = try make("Folder", "leaf")
        try root.add(mid, to: "children")
        try mid.add(leaf, to: "children")
        context.delete(mid)
        #expect(leaf.isDeleted && !root.isDeleted)
        #expect(try root.objects(for: "children").isEmpty)
    }

    @Test("cascade through a cycle A → B → A terminates and deletes both")
    func cascadeCycle() throws {
        let ping = try make("Ping", "ping")
        let pong = try make("Pong", "pong")
        try ping.setObject(pong, for: "pong")
        try context.save()
        context.delete(ping)
        #expect(ping.isDeleted && pong.isDeleted)
        try context.save()
        #expect(context.registeredObjects.isEmpty)
        context.delete(pong)
        #expect(!context.hasChanges)
    }

    @Test("cascade from the other end of the cycle works too")
    func cascadeCycleReverse() throws {
        let ping = try make("Ping", "ping")
        let pong = try make("Pong", "pong")
        try pong.setObject(ping, for: "ping")
        context.delete(pong)
        #expect(ping.isDeleted && pong.isDeleted)
    }

    @Test("deny makes the save fail with a problem naming the blocking relationship")
    func deny() throws {
        let work = try make("Folder", "work")
        let lock = try make("Lock", "lock")
        try work.add(lock, to: "locks")
        try context.save()
        context.delete(work)
        let problems = try failedSave()
        #expect(problems.count == 1)
        let problem = try #require(problems.first)
        #expect(problem.rule == .deleteDenied)
        #expect(problem.property == "locks")
        #expect(problem.entity == "Folder")
        #expect(problem.objectID == work.objectID)
        #expect(problem.message.contains("locks"))
        #expect(work.isDeleted)
        let other = GraphTestModels.peer(of: context)
        #expect(try other.existingObject(with: work.objectID)["name"] as String? == "work")
    }

    @Test("deny allows the save once the blocking object is removed")
    func denyAfterRemoval() throws {
        let work = try make("Folder", "work")
        let lock = try make("Lock", "lock")
        try work.add(lock, to: "locks")
        try context.save()
        context.delete(work)
        _ = try failedSave()
        try lock.setObject(nil, for: "folder")
        try context.save()
        let other = GraphTestModels.peer(of: context)
        #expect(throws: ObjectGraphError.self) { try other.existingObject(with: work.objectID) }
        #expect(try other.existingObject(with: lock.objectID).object(for: "folder") == nil)
    }

    @Test("deny allows the save when the blocking object is deleted too")
    func denyAfterDeletingBlocker() throws {
        let work = try make("Folder", "work")
        let lock = try make("Lock", "lock")
        try work.add(lock, to: "locks")
        try context.save()
        context.delete(work)
        context.delete(lock)
        try context.save()
        let other = GraphTestModels.peer(of: context)
        #expect(throws: ObjectGraphError.self) { try other.existingObject(with: work.objectID) }
        #expect(throws: ObjectGraphError.self) { try other.existingObject(with: lock.objectID) }
    }

    @Test("deny on an object reached by a cascade blocks the whole save")
    func denyInCascade() throws {
        let root = try make("Folder", "root")
        let child = try make("Folder", "child")
        let lock = try make("Lock", "lock")
        try root.add(child, to: "children")
        try child.add(lock, to: "locks")
        try context.save()
        context.delete(root)
        #expect(child.isDeleted)
        let problems = try failedSave()
        #expect(problems.map(\.objectID) == [child.objectID])
        #expect(problems.map(\.property) == ["locks"])
        let other = GraphTestModels.peer(of: context)
        #expect(
            try sortedNames(try other.existingObject(with: root.objectID), "children") == ["child"])
        context.undo()
        #expect(!root.isDeleted && !child.isDeleted)
        try context.save()
    }

    @Test("deny lets an object with an empty relationship go")
    func denyEmpty() throws {
        let work = try make("Folder", "work")
        try context.save()
        context.delete(work)
        try context.save()
        #expect(context.registeredObject(for: work.objectID) == nil)
    }

    @Test("no action leaves the other side pointing at the deleted object")
    func noAction() throws {
        let work = try make("Folder", "work")
        let note = try make("Note", "note")
        try work.setObject(note, for: "note")
        try context.save()
        context.delete(work)
        #expect(!note.isDeleted)
        #expect(try note.object(for: "folder") === work)
        #expect(!note.isUpdated)
    }

    @Test("deleting an inserted object makes it vanish at save")
    func deleteInserted() throws {
        let keep = try make("Folder", "keep")
        let temp = try make("Folder", "temp")
        let file = try make("File", "file")
        try temp.add(file, to: "files")
        try keep.add(temp, to: "children")
        context.delete(temp)
        #expect(!temp.isInserted)
        #expect(temp.isDeleted)
        #expect(file.isDeleted)
        #expect(context.insertedObjects.map(\.objectID) == [keep.objectID])
        #expect(context.deletedObjects.isEmpty)
        #expect(try keep.objects(for: "children").isEmpty)
        try context.save()
        #expect(context.registeredObject(for: temp.objectID) == nil)
        #expect(context.registeredObject(for: file.objectID) == nil)
        #expect(context.registeredObjects.map(\.objectID) == [keep.objectID])
        #expect(!context.hasChanges)
        let other = GraphTestModels.peer(of: context)
        #expect(try other.existingObject(with: keep.objectID).objects(for: "children").isEmpty)
    }

    @Test("deleting only an inserted object leaves nothing to save and nothing registered")
    func deleteOnlyInserted() throws {
        let temp = try make("Folder", "temp")
        context.delete(temp)
        #expect(!context.hasChanges)
        try context.save()
        #expect(context.registeredObject(for: temp.objectID) == nil)
    }

    @Test("deleting twice or an object of another context does nothing")
    func deleteTwice() throws {
        let work = try make("Folder", "work")
        try context.save()
        context.delete(work)
        context.delete(work)
        let other = try GraphTestModels.context(GraphTestModels.deletion())
        let stranger = try GraphTestModels.make(other, "Folder", "x")
        context.delete(stranger)
        #expect(!stranger.isDeleted)
        #expect(context.deletedObjects.count == 1)
        context.undo()
        #expect(!work.isDeleted)
        #expect(!context.hasChanges)
    }
}
