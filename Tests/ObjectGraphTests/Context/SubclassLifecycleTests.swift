import Foundation
import Testing

@testable import ObjectGraph

/// An `Owner` subclass that records its lifecycle hooks.
final class RecordingOwner: ManagedObject {
    var calls: [String] = []

    var name: String? { self["name"] }

    override func awakeFromInsert() {
        calls.append("awakeFromInsert")
        try? set("new", for: "name")
    }
    override func awakeFromFetch() { calls.append("awakeFromFetch") }
    override func willSave() {
        calls.append("willSave")
        if name == "stamp" { try? set("stamped", for: "name") }
    }
    override func didSave() { calls.append("didSave") }
    override func prepareForDeletion() { calls.append("prepareForDeletion") }
}

/// A class named by an entity's `representedClassName`.
final class Gadget: ManagedObject {}

/// A class registered for no entity its name matches.
final class Unrelated: ManagedObject {}

@Suite("Subclasses and lifecycle hooks")
struct SubclassLifecycleTests {
    let classes: ManagedObjectClasses
    let context: ManagedContext

    init() throws {
        classes = ManagedObjectClasses()
        classes.register(RecordingOwner.self, forEntity: "Owner")
        context = try GraphTestModels.context(GraphTestModels.shapes(), classes: classes)
    }

    @Test("inserts return the registered subclass, by entity name or by type")
    func insertsSubclass() throws {
        let byName = try context.insert("Owner")
        #expect(byName is RecordingOwner)
        let byType = try context.insert(RecordingOwner.self)
        #expect(byType.entity.name == "Owner")
        let plain = try context.insert("Pet")
        #expect(type(of: plain) == ManagedObject.self)
        #expect(throws: ObjectGraphError.self) { try context.insert(Unrelated.self) }
        #expect(throws: ObjectGraphError.self) {
            try context.insert(RecordingOwner.self, entity: "Pet")
        }
    }

    @Test("the default shared registry is not touched by a private one")
    func privateRegistry() throws {
        let plainContext = try TestModels.context(GraphTestModels.shapes())
        #expect(type(of: try plainContext.insert("Owner")) == ManagedObject.self)
    }

    @Test("representedClassName or the class's own name picks the class")
    func classByName() throws {
        let thing = Entity("Thing", className: "Module.Gadget")
        let model = EntityModel(entities: [thing, Entity("Gadget")])
        let registry = ManagedObjectClasses()
        registry.register(Gadget.self)
        let context = try GraphTestModels.context(model, classes: registry)
        #expect(try context.insert("Thing") is Gadget)
        #expect(try context.insert("Gadget") is Gadget)
        #expect(try context.insert(Gadget.self).entity.name == "Thing")
    }

    @Test("objects loaded in another context are the subclass too, woken from fetch")
    func fetchedSubclass() throws {
        let ann = try context.insert(RecordingOwner.self)
        try context.save()
        let other = ManagedContext(coordinator: context.coordinator, classes: classes)
        let copy = try #require(try other.object(with: ann.objectID) as? RecordingOwner)
        #expect(copy.calls.isEmpty)
        #expect(copy.name == "new")
        #expect(copy.calls == ["awakeFromFetch"])
    }

    @Test("awakeFromInsert runs once and its values are the initial state")
    func awakeFromInsert() throws {
        let ann = try context.insert(RecordingOwner.self)
        #expect(ann.calls == ["awakeFromInsert"])
        #expect(ann.name == "new")
        context.undo()
        #expect(context.registeredObject(for: ann.objectID) == nil)
    }

    @Test("willSave runs before validation and its changes are saved; didSave after")
    func saveHooks() throws {
        let ann = try context.insert(RecordingOwner.self)
        try ann.set("stamp", for: "name")
        try context.save()
        #expect(ann.calls == ["awakeFromInsert", "willSave", "didSave"])
        #expect(ann.name == "stamped")
        #expect(!context.hasChanges)
        let other = GraphTestModels.peer(of: context)
        #expect(try other.existingObject(with: ann.objectID)["name"] as String? == "stamped")
        try context.save()
        #expect(ann.calls.count == 3)
    }

    @Test("prepareForDeletion runs on delete, for cascaded objects too")
    func prepareForDeletion() throws {
        let ann = try context.insert(RecordingOwner.self)
        let bob = try context.insert(RecordingOwner.self)
        try ann.setObject(bob, for: "friend")
        try context.save()
        context.delete(ann)
        #expect(ann.calls.last == "prepareForDeletion")
        #expect(!bob.calls.contains("prepareForDeletion"))
        try context.save()
        #expect(ann.calls.filter { $0 == "didSave" }.count == 2)
        #expect(try bob.object(for: "friend") == nil)
    }
}
