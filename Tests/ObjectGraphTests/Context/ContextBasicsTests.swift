import Foundation
import Testing

@testable import ObjectGraph

@Suite("Context basics")
struct ContextBasicsTests {
    @Test("insert, set, read, save, reload through another context")
    func insertAndSave() throws {
        let context = try TestModels.context()
        let ada = try context.insert("Person")
        try ada.set("Ada", for: "name")
        try ada.set(36, for: "age")
        #expect(ada["name"] as String? == "Ada")
        #expect(ada["age"] as Int? == 36)
        #expect(ada["score"] as Double? == 1.5)
        #expect(ada.isInserted && ada.objectID.isTemporary)
        #expect(context.hasChanges)
        try context.save()
        #expect(!context.hasChanges && !ada.isInserted && !ada.objectID.isTemporary)
        let other = ManagedContext(coordinator: context.coordinator)
        let copy = try other.existingObject(with: ada.objectID)
        #expect(copy["name"] as String? == "Ada")
        #expect(copy !== ada)
    }

    @Test("wrong types and unknown names throw, naming entity and property")
    func typeErrors() throws {
        let context = try TestModels.context()
        let person = try context.insert("Person")
        #expect(
            throws: ObjectGraphError.typeMismatch(
                entity: "Person", property: "age", expected: "Integer 16", got: "the string \"ten\""
            )
        ) {
            try person.set("ten", for: "age")
        }
        #expect(throws: ObjectGraphError.unknownProperty(entity: "Person", property: "nope")) {
            try person.set(1, for: "nope")
        }
        #expect(throws: ObjectGraphError.self) { try person.set(70_000, for: "age") }
        #expect(throws: ObjectGraphError.unknownEntity("Nope")) { try context.insert("Nope") }
    }

    @Test("to-one ↔ to-many inverse kept in step, moving between owners")
    func inverseToOneToMany() throws {
        let context = try TestModels.context()
        let red = try context.insert("Team")
        let blue = try context.insert("Team")
        let ann = try context.insert("Person")
        try ann.setObject(red, for: "team")
        #expect(try red.objects(for: "members").map(\.objectID) == [ann.objectID])
        try blue.add(ann, to: "members")
        #expect(try ann.object(for: "team") === blue)
        #expect(try red.objects(for: "members").isEmpty)
        try ann.setObject(nil, for: "team")
        #expect(try blue.objects(for: "members").isEmpty)
    }

    @Test("one-to-one self-inverse and many-to-many")
    func inverseOtherShapes() throws {
        let context = try TestModels.context()
        let a = try context.insert("Person")
        let b = try context.insert("Person")
        let c = try context.insert("Person")
        try a.setObject(b, for: "spouse")
        #expect(try b.object(for: "spouse") === a)
        try c.setObject(b, for: "spouse")
        #expect(try a.object(for: "spouse") == nil)
        #expect(try b.object(for: "spouse") === c)
        let chess = try context.insert("Club")
        try a.add(chess, to: "clubs")
        try chess.add(b, to: "members")
        #expect(Set(try chess.objects(for: "members").map(\.objectID)) == [a.objectID, b.objectID])
        #expect(try b.objects(for: "clubs").first === chess)
        try chess.remove(a, from: "members")
        #expect(try a.objects(for: "clubs").isEmpty)
    }

    @Test("undo and redo of attribute, insert and relationship changes")
    func undoRedo() throws {
        let context = try TestModels.context()
        let team = try context.insert("Team")
        let ann = try context.insert("Person")
        try ann.set("Ann", for: "name")
        try ann.setObject(team, for: "team")
        context.undo()
        #expect(try team.objects(for: "members").isEmpty)
        #expect(try ann.object(for: "team") == nil)
        context.undo()
        #expect(ann["name"] == .null)
        context.redo()
        context.redo()
        #expect(ann["name"] as String? == "Ann")
        #expect(try team.objects(for: "members").first === ann)
        context.undo()
        context.undo()
        context.undo()
        #expect(!ann.isInserted)
        #expect(context.registeredObject(for: ann.objectID) == nil)
        #expect(context.undoManager?.canRedo == true)
        try team.set("New", for: "name")
        #expect(context.undoManager?.canRedo == false)
    }

    @Test("cascade delete and undo restore the subgraph")
    func cascadeUndo() throws {
        let context = try TestModels.context()
        let team = try context.insert("Team")
        let a = try context.insert("Person")
        let b = try context.insert("Person")
        try a.set("A", for: "name")
        try b.set("B", for: "name")
        try team.setObjects([a, b], for: "members")
        try context.save()
        context.delete(team)
        #expect(a.isDeleted && b.isDeleted && team.isDeleted)
        context.undo()
        #expect(!a.isDeleted && !b.isDeleted && !team.isDeleted)
        #expect(Set(try team.objects(for: "members").map(\.objectID)) == [a.objectID, b.objectID])
        #expect(try a.object(for: "team") === team)
        #expect(!context.hasChanges)
    }

    @Test("validation lists every problem and changes nothing")
    func validation() throws {
        let context = try TestModels.context()
        let p = try context.insert("Person")
        try p.set(200, for: "age")
        try p.set("nope", for: "email")
        do {
            try context.save()
            Issue.record("expected a validation error")
        } catch SaveError.validation(let error) {
            let rules = Set(error.problems.map(\.rule))
            #expect(rules == [.required, .tooLarge, .patternMismatch])
        }
        #expect(p.isInserted)
        try p.set("P", for: "name")
        try p.set(20, for: "age")
        try p.set("p@x", for: "email")
        try context.save()
    }

    @Test("deny blocks the save, uniqueness is checked against the store")
    func denyAndUnique() throws {
        let context = try TestModels.context()
        let p = try context.insert("Person")
        try p.set("P", for: "name")
        try p.set("p@x", for: "email")
        let badge = try context.insert("Badge")
        try badge.setObject(p, for: "owner")
        try context.save()
        context.delete(p)
        #expect(throws: SaveError.self) { try context.save() }
        context.undo()
        let q = try context.insert("Person")
        try q.set("Q", for: "name")
        try q.set("p@x", for: "email")
        do {
            try context.save()
            Issue.record("expected a uniqueness error")
        } catch SaveError.constraintConflicts(let conflicts) {
            #expect(conflicts.map(\.properties) == [["email"]])
        }
    }
}
