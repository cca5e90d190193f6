import Foundation
import Testing

@testable import ObjectGraph

@Suite("Relationship inverse maintenance")
struct RelationshipInverseTests {
    let context: ManagedContext

    init() throws {
        context = try GraphTestModels.context(GraphTestModels.shapes())
    }

    private func make(_ entity: String, _ name: String) throws -> ManagedObject {
        try GraphTestModels.make(context, entity, name)
    }

    @Test("to-one ↔ to-one: setting either side sets the other; moving clears the old pair")
    func oneToOne() throws {
        let ann = try make("Owner", "ann")
        let bob = try make("Owner", "bob")
        let rex = try make("Pet", "rex")
        let tom = try make("Pet", "tom")
        try ann.setObject(rex, for: "pet")
        #expect(try rex.object(for: "owner") === ann)
        try tom.setObject(ann, for: "owner")
        #expect(try ann.object(for: "pet") === tom)
        #expect(try rex.object(for: "owner") == nil)
        try bob.setObject(tom, for: "pet")
        #expect(try tom.object(for: "owner") === bob)
        #expect(try ann.object(for: "pet") == nil)
        try tom.setObject(nil, for: "owner")
        #expect(try bob.object(for: "pet") == nil)
    }

    @Test("self-inverse to-one on one entity keeps both ends and unpairs the old partners")
    func selfInverse() throws {
        let a = try make("Owner", "a")
        let b = try make("Owner", "b")
        let c = try make("Owner", "c")
        let d = try make("Owner", "d")
        try a.setObject(b, for: "friend")
        #expect(try toOneName(b, "friend") == "a")
        try c.setObject(d, for: "friend")
        try a.setObject(c, for: "friend")
        #expect(try toOneName(a, "friend") == "c")
        #expect(try toOneName(c, "friend") == "a")
        #expect(try b.object(for: "friend") == nil)
        #expect(try d.object(for: "friend") == nil)
        try c.setObject(nil, for: "friend")
        #expect(try a.object(for: "friend") == nil)
    }

    @Test("self-inverse to-many: both ends list each other, an object may list itself once")
    func selfInverseToMany() throws {
        let a = try make("Owner", "a")
        let b = try make("Owner", "b")
        let c = try make("Owner", "c")
        try a.add(b, to: "peers")
        try c.add(a, to: "peers")
        #expect(try sortedNames(a, "peers") == ["b", "c"])
        #expect(try sortedNames(b, "peers") == ["a"])
        #expect(try sortedNames(c, "peers") == ["a"])
        try b.remove(a, from: "peers")
        #expect(try sortedNames(a, "peers") == ["c"])
        try a.add(a, to: "peers")
        #expect(try sortedNames(a, "peers") == ["a", "c"])
        try a.setObjects([a, b], for: "peers")
        #expect(try sortedNames(a, "peers") == ["a", "b"])
        #expect(try c.objects(for: "peers").isEmpty)
        try a.remove(a, from: "peers")
        #expect(try sortedNames(a, "peers") == ["b"])
        context.delete(b)
        #expect(try a.objects(for: "peers").isEmpty)
    }

    @Test("to-one ↔ to-many from the to-one side: owner's set follows, moving removes")
    func toOneSide() throws {
        let ann = try make("Owner", "ann")
        let bob = try make("Owner", "bob")
        let cup = try make("Item", "cup")
        let pen = try make("Item", "pen")
        try cup.setObject(ann, for: "owner")
        try pen.setObject(ann, for: "owner")
        #expect(try sortedNames(ann, "items") == ["cup", "pen"])
        try cup.setObject(bob, for: "owner")
        #expect(try sortedNames(ann, "items") == ["pen"])
        #expect(try sortedNames(bob, "items") == ["cup"])
        try pen.setObject(nil, for: "owner")
        #expect(try ann.objects(for: "items").isEmpty)
    }

    @Test("to-many ↔ to-one from the to-many side: add, remove, setObjects and moving")
    func toManySide() throws {
        let ann = try make("Owner", "ann")
        let bob = try make("Owner", "bob")
        let cup = try make("Item", "cup")
        let pen = try make("Item", "pen")
        let mug = try make("Item", "mug")
        try ann.add(cup, to: "items")
        try ann.add(pen, to: "items")
        #expect(try toOneName(cup, "owner") == "ann")
        try bob.add(cup, to: "items")
        #expect(try toOneName(cup, "owner") == "bob")
        #expect(try sortedNames(ann, "items") == ["pen"])
        try ann.remove(pen, from: "items")
        #expect(try pen.object(for: "owner") == nil)
        try ann.setObjects([pen, mug, cup], for: "items")
        #expect(try sortedNames(ann, "items") == ["cup", "mug", "pen"])
        #expect(try bob.objects(for: "items").isEmpty)
        #expect(try toOneName(cup, "owner") == "ann")
        try ann.setObjects([mug], for: "items")
        #expect(try pen.object(for: "owner") == nil)
        #expect(try cup.object(for: "owner") == nil)
        #expect(try toOneName(mug, "owner") == "ann")
    }

    @Test("many-to-many: both sides hold each other; removing and replacing update both")
    func manyToMany() throws {
        let ann = try make("Owner", "ann")
        let bob = try make("Owner", "bob")
        let red = try make("Tag", "red")
        let blue = try make("Tag", "blue")
        try ann.add(red, to: "tags")
        try ann.add(blue, to: "tags")
        try red.add(bob, to: "owners")
        #expect(try sortedNames(red, "owners") == ["ann", "bob"])
        #expect(try sortedNames(blue, "owners") == ["ann"])
        #expect(try sortedNames(bob, "tags") == ["red"])
        try red.remove(ann, from: "owners")
        #expect(try sortedNames(ann, "tags") == ["blue"])
        try bob.setObjects([blue], for: "tags")
        #expect(try red.objects(for: "owners").isEmpty)
        #expect(try sortedNames(blue, "owners") == ["ann", "bob"])
    }

    @Test("ordered to-many keeps order, inserts at an index, and setObjects reorders")
    func ordered() throws {
        let ann = try make("Owner", "ann")
        let bob = try make("Owner", "bob")
        let one = try make("Step", "one")
        let two = try make("Step", "two")
        let three = try make("Step", "three")
        let four = try make("Step", "four")
        try ann.add(one, to: "steps")
        try ann.add(three, to: "steps")
        try ann.add(two, to: "steps", at: 1)
        try ann.add(four, to: "steps", at: 99)
        #expect(names(try ann.objects(for: "steps")) == ["one", "two", "three", "four"])
        #expect(try toOneName(two, "owner") == "ann")
        try ann.setObjects([four, two, one, three], for: "steps")
        #expect(names(try ann.objects(for: "steps")) == ["four", "two", "one", "three"])
        try three.setObject(bob, for: "owner")
        #expect(names(try ann.objects(for: "steps")) == ["four", "two", "one"])
        #expect(names(try bob.objects(for: "steps")) == ["three"])
        try ann.add(three, to: "steps", at: 0)
        #expect(names(try ann.objects(for: "steps")) == ["three", "four", "two", "one"])
        #expect(try bob.objects(for: "steps").isEmpty)
    }

    @Test("ordered to-many order survives a save and a reload in another context")
    func orderedSaved() throws {
        let ann = try make("Owner", "ann")
        for name in ["c", "a", "b"] { try ann.add(try make("Step", name), to: "steps") }
        try context.save()
        let other = GraphTestModels.peer(of: context)
        let copy = try other.existingObject(with: ann.objectID)
        #expect(names(try copy.objects(for: "steps")) == ["c", "a", "b"])
    }

    @Test("relationships without an inverse change only their own side")
    func noInverse() throws {
        let ann = try make("Owner", "ann")
        let bob = try make("Owner", "bob")
        let cup = try make("Item", "cup")
        try ann.setObject(cup, for: "favorite")
        try bob.setObject(cup, for: "favorite")
        #expect(try ann.object(for: "favorite") === cup)
        #expect(try bob.object(for: "favorite") === cup)
        #expect(try cup.object(for: "owner") == nil)
        try ann.add(cup, to: "watched")
        try bob.add(cup, to: "watched")
        #expect(try ann.objects(for: "watched").count == 1)
        #expect(try bob.objects(for: "watched").count == 1)
        #expect(try cup.object(for: "owner") == nil)
    }

    @Test("a relationship declared on a parent entity works on a subentity object")
    func inherited() throws {
        let dan = try make("Driver", "dan")
        let eve = try make("Driver", "eve")
        let car = try make("Car", "car")
        let van = try make("Vehicle", "van")
        try car.setObject(dan, for: "driver")
        try dan.add(van, to: "vehicles")
        #expect(try sortedNames(dan, "vehicles") == ["car", "van"])
        try eve.add(car, to: "vehicles")
        #expect(try toOneName(car, "driver") == "eve")
        #expect(try sortedNames(dan, "vehicles") == ["van"])
        try car.set(4, for: "seats")
        try context.save()
        let other = GraphTestModels.peer(of: context)
        let copy = try other.existingObject(with: eve.objectID)
        #expect(try copy.objects(for: "vehicles").map(\.entity.name) == ["Car"])
    }

    @Test("setting the same value twice is a no-op: no new undo group, no change")
    func sameValueTwice() throws {
        let ann = try make("Owner", "ann")
        let rex = try make("Pet", "rex")
        let cup = try make("Item", "cup")
        let red = try make("Tag", "red")
        try ann.setObject(rex, for: "pet")
        try ann.add(cup, to: "items")
        try ann.add(red, to: "tags")
        try context.save()
        context.undoManager?.removeAllActions()
        try ann.setObject(rex, for: "pet")
        try ann.add(cup, to: "items")
        try cup.setObject(ann, for: "owner")
        try ann.add(red, to: "tags")
        try ann.setObjects([red], for: "tags")
        try ann.set("ann", for: "name")
        #expect(!context.hasChanges)
        #expect(context.undoManager?.canUndo == false)
        #expect(try ann.objects(for: "items").count == 1)
        #expect(try red.objects(for: "owners").count == 1)
    }

    @Test("a wrong destination entity or kind of relationship throws, naming the property")
    func wrongDestination() throws {
        let ann = try make("Owner", "ann")
        let cup = try make("Item", "cup")
        let car = try make("Car", "car")
        #expect(
            throws: ObjectGraphError.wrongDestination(
                entity: "Owner", property: "pet", expected: "Pet", got: "Item")
        ) { try ann.setObject(cup, for: "pet") }
        #expect(throws: ObjectGraphError.self) { try ann.add(car, to: "items") }
        #expect(throws: ObjectGraphError.self) { try ann.setObjects([cup, car], for: "items") }
        #expect(throws: ObjectGraphError.self) { try ann.setObject(cup, for: "items") }
        #expect(throws: ObjectGraphError.self) { try ann.add(cup, to: "pet") }
        #expect(throws: ObjectGraphError.self) { try ann.setObject(cup, for: "name") }
        #expect(try ann.objects(for: "items").isEmpty)
        #expect(try ann.object(for: "pet") == nil)
    }

    @Test("objects of another context are refused")
    func foreignObjects() throws {
        let other = try GraphTestModels.context(GraphTestModels.shapes())
        let ann = try make("Owner", "ann")
        let rex = try GraphTestModels.make(other, "Pet", "rex")
        let cup = try GraphTestModels.make(other, "Item", "cup")
        #expect(throws: ObjectGraphError.foreignObject(entity: "Owner", property: "pet")) {
            try ann.setObject(rex, for: "pet")
        }
        #expect(throws: ObjectGraphError.self) { try ann.add(cup, to: "items") }
        #expect(throws: ObjectGraphError.self) { try ann.setObjects([cup], for: "items") }
        #expect(try rex.object(for: "owner") == nil)
        #expect(try cup.object(for: "owner") == nil)
    }

    @Test("inverses are kept when both sides are faults in a fresh context")
    func faultsBothSides() throws {
        let ann = try make("Owner", "ann")
        let bob = try make("Owner", "bob")
        let cup = try make("Item", "cup")
        let red = try make("Tag", "red")
        let one = try make("Step", "one")
        try ann.add(cup, to: "items")
        try ann.add(red, to: "tags")
        try ann.add(one, to: "steps")
        try context.save()
        let other = GraphTestModels.peer(of: context)
        let cupCopy = try other.object(with: cup.objectID)
        let bobCopy = try other.object(with: bob.objectID)
        let redCopy = try other.object(with: red.objectID)
        let oneCopy = try other.object(with: one.objectID)
        #expect(cupCopy.isFault && bobCopy.isFault)
        try cupCopy.setObject(bobCopy, for: "owner")
        try bobCopy.add(redCopy, to: "tags")
        try bobCopy.add(oneCopy, to: "steps", at: 0)
        let annCopy = try other.object(with: ann.objectID)
        #expect(try annCopy.objects(for: "items").isEmpty)
        #expect(try annCopy.objects(for: "steps").isEmpty)
        #expect(try sortedNames(redCopy, "owners") == ["ann", "bob"])
        try other.save()
        let check = GraphTestModels.peer(of: context)
        #expect(try check.existingObject(with: ann.objectID).objects(for: "items").isEmpty)
        #expect(try sortedNames(try check.existingObject(with: bob.objectID), "items") == ["cup"])
        #expect(try toOneName(try check.existingObject(with: one.objectID), "owner") == "bob")
    }

    @Test("relationship edits on saved objects are saved on both sides")
    func savedBothSides() throws {
        let ann = try make("Owner", "ann")
        let bob = try make("Owner", "bob")
        let cup = try make("Item", "cup")
        let red = try make("Tag", "red")
        try ann.add(cup, to: "items")
        try context.save()
        try bob.add(cup, to: "items")
        try red.add(bob, to: "owners")
        #expect(
            Set(context.updatedObjects.map(\.objectID))
                == [ann.objectID, bob.objectID, cup.objectID, red.objectID])
        try context.save()
        let other = GraphTestModels.peer(of: context)
        #expect(try other.existingObject(with: ann.objectID).objects(for: "items").isEmpty)
        let bobCopy = try other.existingObject(with: bob.objectID)
        #expect(try sortedNames(bobCopy, "items") == ["cup"])
        #expect(try sortedNames(bobCopy, "tags") == ["red"])
        let cupCopy = try other.existingObject(with: cup.objectID)
        #expect(try toOneName(cupCopy, "owner") == "bob")
    }
}
