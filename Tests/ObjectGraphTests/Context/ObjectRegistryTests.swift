import Foundation
import Testing

@testable import ObjectGraph

@Suite("Object registry")
struct ObjectRegistryTests {
    /// Random inserts, replacements, lookups and removals agree with a dictionary, across
    /// growth, wrap-around and back-shifted deletions; IDs of two entities share keys.
    @Test("agrees with a dictionary over 40,000 random operations")
    func matchesDictionary() throws {
        let context = try TestModels.context()
        let entities = [
            try context.coordinator.schema.requireEntity(named: "Team"),
            try context.coordinator.schema.requireEntity(named: "Club"),
        ]
        var generator = SeededGenerator(seed: 42)
        var registry = ObjectRegistry()
        var model: [ObjectID: ManagedObject] = [:]
        func make(_ id: ObjectID, _ entity: EntitySchema) -> ManagedObject {
            ManagedObject(ObjectCreation(schema: entity, id: id, context: context, isFault: true))
        }
        for step in 0..<40_000 {
            let entity = entities[Int.random(in: 0...1, using: &generator)]
            let key: ObjectID.Key =
                Bool.random(using: &generator)
                ? .permanent(Int64.random(in: 1...3_000, using: &generator))
                : ObjectID.newTemporaryKey()
            let id = ObjectID(entityName: entity.name, storeIdentifier: "S", key: key)
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<5:
                let object = make(id, entity)
                registry[id] = object
                model[id] = object
            case 5..<8:
                // Remove something present, when there is something.
                if let victim = model.keys.randomElement(using: &generator) {
                    registry[victim] = nil
                    model[victim] = nil
                }
            default:
                #expect(registry[id] === model[id])
            }
            if step % 5_000 == 0 {
                #expect(registry.count == model.count)
                for (known, object) in model { #expect(registry[known] === object) }
            }
        }
        #expect(registry.count == model.count)
        #expect(
            Set(registry.values.map(ObjectIdentifier.init))
                == Set(model.values.map(ObjectIdentifier.init)))
        for (known, object) in model { #expect(registry[known] === object) }
        registry.removeAll()
        #expect(registry.isEmpty && registry.values.isEmpty)
        #expect(
            registry[
                model.keys.first
                    ?? ObjectID(entityName: "Team", storeIdentifier: "S", key: .permanent(1))]
                == nil)
    }

    @Test("reserving capacity keeps every object")
    func reserve() throws {
        let context = try TestModels.context()
        let team = try context.coordinator.schema.requireEntity(named: "Team")
        var registry = ObjectRegistry()
        var objects: [ManagedObject] = []
        for key in 1...100 {
            let id = ObjectID(entityName: "Team", storeIdentifier: "S", key: .permanent(Int64(key)))
            let object = ManagedObject(
                ObjectCreation(schema: team, id: id, context: context, isFault: true))
            registry[id] = object
            objects.append(object)
        }
        registry.reserveCapacity(10_000)
        #expect(registry.count == 100)
        for object in objects { #expect(registry[object.objectID] === object) }
    }
}
