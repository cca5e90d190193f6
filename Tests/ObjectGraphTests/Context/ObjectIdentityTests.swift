import Foundation
import Testing

@testable import ObjectGraph

@Suite("Identity map and object IDs")
struct ObjectIdentityTests {
    let context: ManagedContext

    init() throws {
        context = try GraphTestModels.context(GraphTestModels.shapes())
    }

    private var coordinator: StoreCoordinator { context.coordinator }

    /// The in-memory store's identifier.
    private var storeID: String { coordinator.storeDescriptions.first?.identifier ?? "" }

    @Test("object(with:) twice gives the same instance, a fault until used")
    func sameInstance() throws {
        let ann = try GraphTestModels.make(context, "Owner", "ann")
        try context.save()
        let other = GraphTestModels.peer(of: context)
        let first = try other.object(with: ann.objectID)
        let second = try other.object(with: ann.objectID)
        #expect(first === second)
        #expect(first.isFault)
        #expect(first["name"] as String? == "ann")
        #expect(!first.isFault)
        #expect(try other.existingObject(with: ann.objectID) === first)
        #expect(other.registeredObject(for: ann.objectID) === first)
        #expect(try context.object(with: ann.objectID) === ann)
    }

    @Test("objects reached through relationships are the registered instances")
    func throughRelationships() throws {
        let ann = try GraphTestModels.make(context, "Owner", "ann")
        let cup = try GraphTestModels.make(context, "Item", "cup")
        try ann.add(cup, to: "items")
        try context.save()
        let other = GraphTestModels.peer(of: context)
        let cupCopy = try other.object(with: cup.objectID)
        let annCopy = try other.existingObject(with: ann.objectID)
        #expect(try annCopy.objects(for: "items").first === cupCopy)
        #expect(try cupCopy.object(for: "owner") === annCopy)
    }

    @Test("existingObject(with:) throws for an ID no store has, and registers nothing")
    func existingMissing() throws {
        let missing = ObjectID(entityName: "Owner", storeIdentifier: storeID, key: .permanent(99))
        #expect(throws: ObjectGraphError.objectNotFound(missing)) {
            try context.existingObject(with: missing)
        }
        #expect(context.registeredObject(for: missing) == nil)
        #expect(context.registeredObjects.isEmpty)
        let unknownStore = ObjectID(
            entityName: "Owner", storeIdentifier: "nowhere", key: .permanent(1))
        #expect(throws: ObjectGraphError.self) { try context.existingObject(with: unknownStore) }
        let unknownEntity = ObjectID(
            entityName: "Nope", storeIdentifier: storeID, key: .permanent(1))
        #expect(throws: ObjectGraphError.unknownEntity("Nope")) {
            try context.object(with: unknownEntity)
        }
    }

    @Test("registeredObject(for:) never loads: nil for saved objects not yet used")
    func registeredOnly() throws {
        let ann = try GraphTestModels.make(context, "Owner", "ann")
        #expect(context.registeredObject(for: ann.objectID) === ann)
        try context.save()
        let other = GraphTestModels.peer(of: context)
        #expect(other.registeredObject(for: ann.objectID) == nil)
        let fault = try other.object(with: ann.objectID)
        #expect(other.registeredObject(for: ann.objectID)?.isFault == true)
        withExtendedLifetime(fault) {}
    }

    @Test("IDs are temporary before the first save and permanent, in the store, after it")
    func temporaryThenPermanent() throws {
        let ann = try GraphTestModels.make(context, "Owner", "ann")
        let temporary = ann.objectID
        #expect(temporary.isTemporary)
        #expect(temporary.storeIdentifier.isEmpty)
        #expect(temporary.entityName == "Owner")
        try context.save()
        #expect(!ann.objectID.isTemporary)
        #expect(ann.objectID.storeIdentifier == storeID)
        #expect(ann.objectID != temporary)
        #expect(context.registeredObject(for: ann.objectID) === ann)
        #expect(context.registeredObject(for: temporary) == nil)
        #expect(
            ann.objectID.uriRepresentation.absoluteString.hasPrefix(
                "x-coredata://\(storeID)/Owner/p"))
    }

    @Test("the URI form round-trips through the coordinator")
    func uriRoundTrip() throws {
        let ann = try GraphTestModels.make(context, "Owner", "ann")
        let car = try GraphTestModels.make(context, "Car", "car")
        try context.save()
        for object in [ann, car] {
            let uri = object.objectID.uriRepresentation
            let id = try coordinator.objectID(forURI: uri)
            #expect(id == object.objectID)
            #expect(try context.object(with: id) === object)
            let parsed = try #require(URL(string: uri.absoluteString))
            #expect(try coordinator.objectID(forURI: parsed) == object.objectID)
        }
        let other = GraphTestModels.peer(of: context)
        let copy = try other.existingObject(
            with: try coordinator.objectID(forURI: car.objectID.uriRepresentation))
        #expect(copy["name"] as String? == "car")
        #expect(copy.entity.name == "Car")
    }

    @Test(
        "invalid URIs throw invalidObjectURI",
        arguments: [
            "https://STORE/Owner/p1", "x-coredata://STORE/Owner/p0", "x-coredata://STORE/Owner/1",
            "x-coredata://STORE/Owner/px", "x-coredata://STORE/Nope/p1", "x-coredata://STORE/Owner",
            "x-coredata://STORE/Owner/p1/extra", "x-coredata://other-store/Owner/p1",
            "x-coredata://STORE/Owner/p-3", "x-coredata:///Owner/p1",
        ])
    func invalidURIs(text: String) throws {
        let uri = try #require(URL(string: text.replacingOccurrences(of: "STORE", with: storeID)))
        #expect(throws: ObjectGraphError.invalidObjectURI(uri.absoluteString)) {
            try coordinator.objectID(forURI: uri)
        }
    }

    @Test("a temporary ID's URI does not resolve")
    func temporaryURI() throws {
        let ann = try context.insert("Owner")
        #expect(throws: ObjectGraphError.self) {
            try coordinator.objectID(forURI: ann.objectID.uriRepresentation)
        }
    }

    @Test("obtainPermanentIDs gives permanent IDs before saving; the save keeps them")
    func obtainPermanent() throws {
        let ann = try GraphTestModels.make(context, "Owner", "ann")
        let cup = try GraphTestModels.make(context, "Item", "cup")
        try ann.add(cup, to: "items")
        try context.obtainPermanentIDs(for: [ann, cup])
        let annID = ann.objectID
        #expect(!annID.isTemporary && !cup.objectID.isTemporary)
        #expect(ann.isInserted)
        #expect(context.registeredObject(for: annID) === ann)
        #expect(context.insertedObjects.count == 2)
        try context.save()
        #expect(ann.objectID == annID)
        let other = GraphTestModels.peer(of: context)
        let copy = try other.existingObject(with: annID)
        #expect(try copy.objects(for: "items").map(\.objectID) == [cup.objectID])
    }

    @Test("permanent IDs are distinct within an entity hierarchy")
    func distinctKeys() throws {
        let objects =
            try (0..<3).map { try GraphTestModels.make(context, "Vehicle", "v\($0)") }
            + (0..<3).map { try GraphTestModels.make(context, "Car", "c\($0)") }
        try context.save()
        #expect(Set(objects.map(\.objectID.uriRepresentation.lastPathComponent)).count == 6)
        #expect(Set(objects.map(\.objectID)).count == 6)
    }

    @Test("abstract and unknown entities cannot be inserted")
    func abstractInsert() throws {
        var shape = Entity("Shape")
        shape.isAbstract = true
        let model = EntityModel(entities: [shape, Entity("Circle", parent: "Shape")])
        let context = try GraphTestModels.context(model)
        #expect(throws: ObjectGraphError.abstractEntity("Shape")) { try context.insert("Shape") }
        #expect(try context.insert("Circle").entity.name == "Circle")
        #expect(context.registeredObjects.count == 1)
    }

    @Test("undoing an insert and making an object of the same entity gives a new ID")
    func freshIDs() throws {
        let first = try context.insert("Owner")
        context.undo()
        let second = try context.insert("Owner")
        #expect(first.objectID != second.objectID)
        #expect(context.registeredObjects.count == 1)
    }
}
